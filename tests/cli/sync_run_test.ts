import assert from "node:assert/strict";
import { syncPoints } from "../../lib/cli/sync_run.ts";
import type { SyncReport } from "../../lib/sync/sync.ts";

const REPORT: SyncReport = {
  remote: "origin",
  empty: false,
  docsIn: [{ from: "a", to: "a" }],
  docsOut: [],
  parked: { added: 1, removed: 0, changed: 0 },
  superseded: [],
  pushed: "0123456789abcdef",
  attempts: 1,
  redacted: {},
} as unknown as SyncReport;

Deno.test("push's and pull's points flip between ✓ and ⚠ with the report", async (t) => {
  await t.step("reached, a plain union: ✓ both", () => {
    assert.deepEqual(syncPoints(REPORT, "push").map((p) => [p.ok, p.fact]), [
      [true, '"origin" took 0123456789ab'],
      [true, "a union: nothing renamed, nothing superseded"],
    ]);
    assert.equal(
      syncPoints({ ...REPORT, empty: true }, "pull")[0].fact,
      '"origin" reached; it holds no store yet',
    );
  });
  await t.step("merge: a rename or a superseded edit is ⚠", () => {
    const renamed = { ...REPORT, docsIn: [{ from: "a", to: "a-from-me-host" }] } as SyncReport;
    assert.equal(syncPoints(renamed, "pull")[1].ok, false);
    const p = syncPoints({ ...REPORT, superseded: ["x"] }, "pull")[1];
    assert.deepEqual([p.ok, p.fact], [
      false,
      "0 handovers renamed on a slug collision, 1 edit superseded (logged in dropped.jsonl)",
    ]);
  });
});
