import assert from "node:assert/strict";
import { parseSince } from "../../../lib/handover/evidence/window.ts";
import { NOW } from "../../support/scratch.ts";

Deno.test("evidence: pure parts", async (t) => {
  await t.step("--since: durations, bare hours, ISO dates; junk is undefined", () => {
    assert.equal(parseSince("8h", NOW)?.toISOString(), "2026-11-30T04:00:00.000Z");
    assert.equal(parseSince("90m", NOW)?.toISOString(), "2026-11-30T10:30:00.000Z");
    assert.equal(parseSince("2d", NOW)?.toISOString(), "2026-11-28T12:00:00.000Z");
    assert.equal(parseSince("3", NOW)?.toISOString(), "2026-11-30T09:00:00.000Z");
    assert.equal(
      parseSince("2026-11-30T01:00:00Z", NOW)?.toISOString(),
      "2026-11-30T01:00:00.000Z",
    );
    assert.equal(parseSince("yesterday", NOW), undefined);
    assert.equal(parseSince("2026-13-45", NOW), undefined);
  });
});
