import assert from "node:assert/strict";
import { ignoresState, STATE_IGNORE, withStateIgnored } from "../../lib/agents/gitignore.ts";

Deno.test("gitignore: the store stays out of git", async (t) => {
  await t.step("appends the line, adding a newline where the file lacks one", () => {
    assert.equal(withStateIgnored(""), `${STATE_IGNORE}\n`);
    assert.equal(withStateIgnored("node_modules/"), `node_modules/\n${STATE_IGNORE}\n`);
    assert.equal(withStateIgnored("a\r\n"), `a\r\n${STATE_IGNORE}\r\n`);
  });
  await t.step("already ignored (the line, or all of .claude): unchanged", () => {
    for (const text of [".claude/state/\n", "x\n/.claude/state\n", ".claude/\n", ".claude  \n"]) {
      assert.ok(ignoresState(text), text);
      assert.equal(withStateIgnored(text), text);
    }
  });
  await t.step("near misses do not count", () => {
    for (const text of ["# .claude/state/", ".claude/state/session/x", "!.claude/state/"]) {
      assert.equal(ignoresState(text), false, text);
    }
  });
  await t.step("as git reads it: leading spaces count, the last line naming it decides", () => {
    // Each checked against `git check-ignore` (a leading space names another path; `!` re-includes).
    const cases: [string, boolean][] = [
      ["  .claude  \n", false],
      [" .claude/state/\n", false],
      [".claude/state/\n!.claude/state/\n", false],
      ["!.claude/state/\n.claude/state/\n", true],
      [".claude/\n!/.claude\n", false],
    ];
    for (const [text, ignored] of cases) {
      assert.equal(ignoresState(text), ignored, JSON.stringify(text));
      const fixed = withStateIgnored(text);
      assert.ok(ignoresState(fixed), `fixed: ${JSON.stringify(fixed)}`);
      assert.ok(fixed.startsWith(text), "every byte before is kept");
    }
    // git said no where this reading says yes: force appends all the same, keeping every byte.
    assert.equal(withStateIgnored(".claude/\n", true), `.claude/\n${STATE_IGNORE}\n`);
  });
});
