import assert from "node:assert/strict";
import { answersQuestion, closingQuestion, deferralsIn } from "../../lib/transcript/prose.ts";

Deno.test("deferral patterns (one place)", async (t) => {
  const yes = [
    "Let's do the docs later.",
    "Park this for now",
    "park the i18n idea",
    "We'll come back to caching",
    "Circle back to the flaky test tomorrow",
    "Do the migration after the API refactor lands",
    "after PR #42 is merged we can clean up",
    "Revisit the naming",
    "Defer the cleanup",
    "not now, first fix the build",
    "put a pin in the benchmark",
    "leave that for the next session",
    "skip it for now",
    "add it to the backlog",
    "keep that on the back burner",
    "the release is on hold",
  ];
  const no = [
    "Fix the parser.",
    "The parking lot service needs a test",
    "Collateral damage is fine",
    "after all, it works",
    "Come here and look at this",
  ];
  await t.step("parks", () => {
    for (const s of yes) assert.equal(deferralsIn(s).length, 1, s);
  });
  await t.step("does not park", () => {
    for (const s of no) {
      assert.deepEqual(deferralsIn(s), [], s);
    }
  });
  await t.step("sentence by sentence", () => {
    assert.deepEqual(deferralsIn("Fix the build. Docs later! Then ship."), ["Docs later!"]);
  });
});

Deno.test("closing questions and whether a reply answers them", async (t) => {
  await t.step("closingQuestion", () => {
    assert.equal(closingQuestion("Done. Shall I go on?"), "Shall I go on?");
    assert.equal(closingQuestion("Line one\n**Want me to push?**"), "Want me to push?");
    assert.equal(closingQuestion("Done."), undefined);
    assert.equal(closingQuestion("Is it x? Yes it is."), undefined);
  });
  await t.step("answersQuestion", () => {
    const q = "Should I also add a --shout flag?";
    assert.ok(answersQuestion(q, "yes please"));
    assert.ok(answersQuestion(q, "No."));
    assert.ok(answersQuestion(q, "OK go"));
    assert.ok(answersQuestion(q, "2"));
    assert.ok(answersQuestion(q, "Add the shout flag, but hidden"));
    assert.ok(!answersQuestion(q, "Now write docs/greet.md describing the module."));
    assert.ok(!answersQuestion(q, "Run the tests"));
  });
});
