import assert from "node:assert/strict";
import { type Label, labelProblems, misses } from "./score.ts";

const label: Label = {
  transcript: "fixture:transcripts/x.jsonl",
  state: "finished",
  lastRequest: "Add the cache",
  task: "Add the cache",
  absent: ["Continue with the last request"],
  why: "L4 reports it done.",
};
const draft = [
  "## Goal",
  "",
  "Add the cache to lib/cache.ts (transcript L1)",
  "",
  "Done earlier in the session:",
  "- Fix the parser (transcript L0)",
  "",
  "## Where it stopped",
  "",
  "- Last request (line 1): “Add the cache to lib/cache.ts”",
  "- State: finished — it reported the work done: “Done.” (line 4)",
  "",
].join("\n");
const card = "## Where it stood\n\n- Last request (line 1): “Add the cache”\n- State: finished — x";

Deno.test("misses: each point of a label, met and missed", async (t) => {
  await t.step("all met", () => assert.deepEqual(misses(label, { draft, card }), []));
  await t.step("another state, in the draft or the card", () => {
    assert.equal(misses({ ...label, state: "blocked" }, { draft, card }).length, 2);
  });
  await t.step("the last request: its fragment, or none typed", () => {
    assert.match(
      misses({ ...label, lastRequest: "Remove the cache" }, { draft, card })[0],
      /^last request/,
    );
    assert.match(misses({ ...label, lastRequest: null }, { draft, card })[0], /want none typed/);
  });
  await t.step("the task must be the goal's, not one of the requests done before it", () => {
    assert.match(misses({ ...label, task: "Fix the parser" }, { draft, card })[0], /^task/);
  });
  await t.step("an absent fragment, in the draft and in the card", () => {
    assert.deepEqual(misses({ ...label, absent: ["reported the work"] }, { draft, card }), [
      'absent: the draft holds "reported the work"',
    ]);
    assert.equal(misses({ ...label, absent: ["State: finished"] }, { draft, card }).length, 2);
  });
});

Deno.test("labelProblems: a malformed label is refused, not scored", () => {
  assert.deepEqual(labelProblems(label), []);
  assert.equal(labelProblems({ ...label, state: "done" }).length, 1);
  assert.equal(labelProblems({ ...label, lines: 0 }).length, 1);
  assert.equal(labelProblems({ ...label, absent: [""] }).length, 1);
  assert.equal(labelProblems({}).length, 6);
});
