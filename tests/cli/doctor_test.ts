import assert from "node:assert/strict";
import { doctorPoint } from "../../lib/cli/doctor.ts";

Deno.test("doctor's point flips between ✓ and ⚠ with its findings", () => {
  assert.deepEqual(doctorPoint(6, 0), {
    name: "checks",
    ok: true,
    fact: "6 checks, none found anything to fix",
  });
  const p = doctorPoint(6, 2);
  assert.deepEqual([p.ok, p.fact], [false, "2 of 6 checks found something to fix (✗ above)"]);
});
