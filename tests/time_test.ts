import assert from "node:assert/strict";
import {
  ageMs,
  currentTime,
  dayStamp,
  formatAge,
  isoStamp,
  parseStamp,
  slugStamp,
} from "../lib/time.ts";

const NOW = new Date("2026-11-30T04:02:39.123Z");

Deno.test("time", async (t) => {
  await t.step("stamps", () => {
    assert.equal(isoStamp(NOW), "2026-11-30T04:02:39Z");
    assert.equal(slugStamp(NOW), "2026-11-30T04-02-39Z");
    assert.equal(dayStamp(NOW), "2026-11-30");
  });
  await t.step("ages come from created, and bad stamps are unknown, not old", () => {
    assert.equal(ageMs("2026-11-30T03:32:39Z", NOW), 30 * 60_000 + 123);
    assert.equal(ageMs(undefined, NOW), undefined);
    assert.equal(ageMs("yesterday-ish", NOW), undefined);
    assert.equal(parseStamp(" 2026-11-30T04:02:39Z "), Date.parse("2026-11-30T04:02:39Z"));
  });
  await t.step("formatAge", () => {
    assert.equal(formatAge(undefined), "unknown age");
    assert.equal(formatAge(-1), "in the future");
    assert.equal(formatAge(59_000), "just now");
    assert.equal(formatAge(12 * 60_000), "12 min");
    assert.equal(formatAge(3 * 3_600_000), "3 h");
    assert.equal(formatAge(5 * 86_400_000), "5 d");
  });
  await t.step("currentTime honours SESSION_NOW and ignores a bad value", () => {
    const env = (v: string | undefined) => (name: string) => name === "SESSION_NOW" ? v : undefined;
    assert.equal(
      currentTime(env("2026-01-02T03:04:05Z")).toISOString(),
      "2026-01-02T03:04:05.000Z",
    );
    const real = currentTime(env("nonsense"));
    assert.ok(real instanceof Date && !Number.isNaN(real.getTime()));
  });
});
