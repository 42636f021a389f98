import assert from "node:assert/strict";
import { type RecoverFacts, recoverPoints } from "../../lib/cli/recover.ts";

Deno.test("recover's points flip between ✓ and ⚠ with the facts", async (t) => {
  const good: RecoverFacts = {
    transcript: "/t.jsonl",
    lines: 40,
    badLines: 0,
    nextStep: "Continue with the last request: fix `parseSince`.",
    slug: "crash",
  };
  await t.step("read whole, a next step that names something: ✓ both", () => {
    assert.deepEqual(recoverPoints(good).map((p) => [p.name, p.ok, p.fact]), [
      ["transcript", true, "/t.jsonl: 40 lines, every one read"],
      ["next step", true, "names `parseSince` (an identifier)"],
    ]);
  });
  await t.step("lines not JSON, a next step naming nothing or none: ⚠", () => {
    assert.equal(recoverPoints({ ...good, badLines: 2 })[0].ok, false);
    const vague = recoverPoints({ ...good, nextStep: "Continue with the last request: go on." });
    assert.deepEqual([vague[1].ok, vague[1].fact], [false, "names nothing concrete"]);
    assert.equal(recoverPoints({ ...good, nextStep: undefined })[1].fact, "missing");
  });
});
