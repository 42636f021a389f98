import assert from "node:assert/strict";
import { dropChoices, splitConfidence, toolResult, TOOLS } from "../../lib/mcp/tools.ts";

Deno.test("mcp tools: arguments become the mode's words", async (t) => {
  await t.step("every word an argument gives comes after -- or as --flag=value", () => {
    const hostile = "--dir=/etc";
    assert.deepEqual(TOOLS.recall.invoke({ name: hostile }).argv, ["recall", "--", hostile]);
    assert.deepEqual(TOOLS.drop.invoke({ query: hostile }).argv, ["drop", "--", hostile]);
    assert.deepEqual(TOOLS.search.invoke({ words: ` retry  ${hostile} ` }).argv, [
      "search",
      "--",
      "retry",
      hostile,
    ]);
    assert.deepEqual(
      TOOLS.park.invoke({ summary: "fix it", why: "--dir /x", next: "", slug: "s" }).argv,
      ["park", "--why=--dir /x", "--slug=s", "--", "fix it"],
    );
    assert.deepEqual(TOOLS.dump.invoke({ name: "-x", force: true, since: "8h" }).argv, [
      "dump",
      "--force",
      "--since=8h",
      "--",
      "-x",
    ]);
  });
  await t.step("no name: no words; false booleans: no flags", () => {
    assert.deepEqual(TOOLS.recall.invoke({ chain: false }).argv, ["recall"]);
    assert.deepEqual(TOOLS.recall.invoke({ chain: true }).argv, ["recall", "--chain"]);
    assert.deepEqual(TOOLS.list.invoke({ tree: true, json: true }).argv, [
      "list",
      "--tree",
      "--json",
    ]);
  });
  await t.step("dump's sections become its stdin, in the document's order", () => {
    const call = TOOLS.dump.invoke({ next_step: "Run it.", goal: "Ship.", lessons: " " });
    assert.equal(call.stdin, "## Goal\n\nShip.\n\n## Next step\n\nRun it.\n");
    assert.equal(TOOLS.dump.invoke({}).stdin, "");
  });
});

Deno.test("mcp tools: a run becomes a tool result", async (t) => {
  await t.step("exit 0: stdout first, not an error", () => {
    const r = toolResult("list", { code: 0, out: "Handovers (1)", err: "note" });
    assert.equal(r.isError, undefined);
    assert.deepEqual(r.content.map((c) => c.text), ["Handovers (1)", "note"]);
  });
  await t.step("exit 1 and 2: isError, the CLI's message first", () => {
    for (const code of [1, 2]) {
      const r = toolResult("recall", { code, out: "## Confidence", err: "session recall: No" });
      assert.equal(r.isError, true);
      assert.equal(r.content[0].text, "session recall: No");
    }
  });
  await t.step("json: stdout as structured content, only when it parses", () => {
    assert.deepEqual(
      toolResult("list", { code: 0, out: '{"a":1}', err: "" }, true)
        .structuredContent,
      { a: 1 },
    );
    assert.equal(
      toolResult("list", { code: 0, out: "not json", err: "" }, true).structuredContent,
      undefined,
    );
    assert.equal(
      toolResult("list", { code: 0, out: '{"a":1}', err: "" }).structuredContent,
      undefined,
    );
  });
  await t.step("a tied drop: the choices, nothing guessed", () => {
    const out = [
      "  1. alpha — cache alpha warmup (raised 2026-11-01) [0 edits]",
      "  2. beta-2 — cache — beta [exact slug]",
      "  3. gamma — x [1 edit]",
      "",
      "## Confidence",
      "⚠ match: 3 items equally close",
    ].join("\n");
    const r = toolResult("drop", { code: 3, out, err: "session drop: 3 parked items match" });
    assert.equal(r.isError, true);
    assert.deepEqual(r.structuredContent, {
      exitCode: 3,
      choices: [
        { slug: "alpha", summary: "cache alpha warmup", raised: "2026-11-01" },
        { slug: "beta-2", summary: "cache — beta" },
        { slug: "gamma", summary: "x" },
      ],
    });
    assert.equal(toolResult("drop", { code: 1, out, err: "" }).structuredContent, undefined);
  });
  await t.step("no output at all still says so", () => {
    assert.equal(toolResult("list", { code: 0, out: "", err: "" }).content[0].text, "(no output)");
  });
});

Deno.test("mcp tools: the Confidence block splits off at the last one", () => {
  assert.deepEqual(splitConfidence("body\n\n## Confidence\n✓ a"), ["body", "## Confidence\n✓ a"]);
  assert.deepEqual(
    splitConfidence("## Confidence\nhand\n\n## Confidence\n✓ a"),
    ["## Confidence\nhand", "## Confidence\n✓ a"],
  );
  assert.deepEqual(splitConfidence("no block"), ["no block", ""]);
  assert.deepEqual(dropChoices("nothing listed"), []);
});
