import assert from "node:assert/strict";
import { coveredSources, matcherCovers, requiredSources } from "../../lib/agents/matcher.ts";

Deno.test("matcher: what a SessionStart matcher covers, per agent", async (t) => {
  await t.step("Claude Code: exact names and lists; anything else a regular expression", () => {
    assert.deepEqual(coveredSources("claude", "clear|compact"), ["clear", "compact"]);
    assert.deepEqual(coveredSources("claude", "clear"), ["clear"]);
    assert.deepEqual(coveredSources("claude", "clear, compact"), ["clear", "compact"]);
    assert.deepEqual(coveredSources("claude", "clear|compact|startup"), [
      "startup",
      "clear",
      "compact",
    ]);
    // An exact list never matches part of a name; a regular expression does.
    assert.deepEqual(coveredSources("claude", "clea"), []);
    assert.deepEqual(coveredSources("claude", "^c.*"), ["clear", "compact"]);
    assert.deepEqual(coveredSources("claude", "(unclosed"), []);
    for (const all of ["", "*"]) assert.equal(coveredSources("claude", all).length, 4);
  });
  await t.step("Codex CLI: a regular expression", () => {
    assert.deepEqual(coveredSources("codex", "clear|compact"), ["clear", "compact"]);
    assert.equal(matcherCovers("codex", "clea", "clear"), true, "unanchored");
    assert.equal(matcherCovers("codex", "^startup$", "clear"), false);
  });
  await t.step("Gemini CLI: exact strings, no compact source", () => {
    assert.deepEqual(coveredSources("gemini", "clear"), ["clear"]);
    assert.deepEqual(coveredSources("gemini", "clear|compact"), []);
    assert.deepEqual(coveredSources("gemini", ""), ["startup", "resume", "clear"]);
    assert.deepEqual(requiredSources("gemini"), ["clear"]);
    assert.deepEqual(requiredSources("claude"), ["clear", "compact"]);
  });
});
