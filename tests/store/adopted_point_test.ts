import assert from "node:assert/strict";
import { planAdopted } from "../../lib/store/lifecycle.ts";

Deno.test("planAdopted: a moved pointer takes LATEST only for a newer pending handover", async (t) => {
  const doc = (created: string, consumed = "false") => ({ created, consumed });
  await t.step("no LATEST here: an unconsumed moved handover takes it", () => {
    assert.equal(planAdopted(doc("2026-11-30T12:00:00Z"), undefined), true);
  });
  await t.step("consumed, or not a document: never", () => {
    assert.equal(planAdopted(doc("2026-11-30T12:00:00Z", "true"), undefined), false);
    assert.equal(planAdopted(undefined, undefined), false);
  });
  await t.step("either side of the current pointer's age", () => {
    const current = doc("2026-11-30T12:00:00Z");
    assert.equal(planAdopted(doc("2026-11-30T12:00:01Z"), current), true, "newer");
    assert.equal(planAdopted(doc("2026-11-30T12:00:00Z"), current), true, "as new");
    assert.equal(planAdopted(doc("2026-11-30T11:59:59Z"), current), false, "older");
  });
});
