import assert from "node:assert/strict";
import { changedLines, leaks, sessionNoise, thirdParty } from "./_corpus.ts";

/** The goal: at most 1 in 10,000 lines of third-party code changed by redaction. */
const CODE_GOAL = 0.0001;

Deno.test("measured: every kind through every entry channel leaks nothing", () => {
  const { positives, leaked } = leaks();
  assert.ok(positives >= 2_000, `only ${positives} positives`);
  assert.deepEqual(leaked, []);
});

Deno.test("measured: third-party code, prose and session noise are left as they are", async (t) => {
  const { code, prose } = await thirdParty();
  await t.step("the npm packages' code: at most 1 line in 10,000 changed", () => {
    const { lines, changed } = changedLines(code);
    assert.ok(lines >= 10_000, `only ${lines} lines of code`);
    assert.ok(
      changed.length / lines <= CODE_GOAL,
      `${changed.length} of ${lines} lines changed:\n${changed.join("\n")}`,
    );
  });
  await t.step("their prose: nothing changed", () => {
    const { lines, changed } = changedLines(prose);
    assert.ok(lines >= 500, `only ${lines} lines of prose`);
    assert.deepEqual(changed, []);
  });
  await t.step("the noise of sessions: nothing changed", () => {
    assert.deepEqual(changedLines(sessionNoise()).changed, []);
  });
});
