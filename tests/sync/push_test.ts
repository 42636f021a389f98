import assert from "node:assert/strict";
import { pushBackoffMs } from "../../lib/sync/push.ts";

Deno.test("pushBackoffMs: exponential from 100 ms, capped at 2 s, jittered", async (t) => {
  await t.step("doubles per attempt below the cap", () => {
    assert.equal(pushBackoffMs(1, 1), 100);
    assert.equal(pushBackoffMs(2, 1), 200);
    assert.equal(pushBackoffMs(5, 1), 1_600);
  });
  await t.step("capped at 2 s from the attempt that would pass it", () => {
    assert.equal(pushBackoffMs(6, 1), 2_000);
    assert.equal(pushBackoffMs(10, 1), 2_000);
  });
  await t.step("the jitter scales it down to nothing", () => {
    assert.equal(pushBackoffMs(10, 0.5), 1_000);
    assert.equal(pushBackoffMs(3, 0), 0);
  });
});
