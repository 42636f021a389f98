import assert from "node:assert/strict";
import { prng } from "../support/prng.ts";
import {
  ageMs,
  currentTime,
  dayStamp,
  formatAge,
  formatAgo,
  isoStamp,
  parseStamp,
  slugStamp,
} from "../../lib/store/time.ts";

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
  await t.step("formatAgo: `ago` after an age, never after a word that stands alone", () => {
    assert.equal(formatAgo(undefined), "unknown age");
    assert.equal(formatAgo(-1), "in the future");
    assert.equal(formatAgo(59_999), "just now");
    assert.equal(formatAgo(60_000), "1 min ago");
    assert.equal(formatAgo(3 * 3_600_000), "3 h ago");
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

/** Stamps V8's Date.parse takes for dates, none of them in the strict grammar. */
const LENIENT_GARBAGE = [
  "0",
  "1",
  "foo 1",
  "12/1",
  "2026",
  "2026-11-30",
  "2026-11-30 04:02:39Z",
  "2026-11-30t04:02:39z",
  "2026-11-30T04:02:39",
  "2026-11-30T04:02Z",
  "Mon, 30 Nov 2026 04:02:39 GMT",
  "Nov 30 2026",
  "2026-02-30T00:00:00Z",
  "2026-04-31T00:00:00Z",
  "2025-02-29T00:00:00Z",
  "2026-01-01T24:00:00Z",
  "2026-01-01T23:60:00Z",
  "2026-01-01T23:59:60Z",
  "2026-00-10T00:00:00Z",
  "2026-01-01T00:00:00+24:00",
  "2026-01-01T00:00:00+01:60",
  "2026-01-01T00:00:00+0100",
  "2026-01-01T00:00:00.Z",
  "2026-01-01T00:00:00.1234567890Z",
  "+002026-01-01T00:00:00Z",
  "２０２６-01-01T00:00:00Z",
];

Deno.test("parseStamp: only the strict ISO 8601 grammar is a date", async (t) => {
  await t.step("what V8 reads leniently is no date here", () => {
    for (const s of LENIENT_GARBAGE) assert.equal(parseStamp(s), undefined, s);
  });
  await t.step("zones, fractions, leap days and the edges of every field", () => {
    const cases: [string, number][] = [
      ["2026-11-30T04:02:39Z", Date.UTC(2026, 10, 30, 4, 2, 39)],
      ["2026-11-30T04:02:39.5Z", Date.UTC(2026, 10, 30, 4, 2, 39, 500)],
      ["2026-11-30T04:02:39.123456789Z", Date.UTC(2026, 10, 30, 4, 2, 39, 123)],
      ["2026-11-30T05:02:39+01:00", Date.UTC(2026, 10, 30, 4, 2, 39)],
      ["2026-11-29T23:32:39-04:30", Date.UTC(2026, 10, 30, 4, 2, 39)],
      ["2024-02-29T00:00:00Z", Date.UTC(2024, 1, 29)],
      ["2000-02-29T23:59:59Z", Date.UTC(2000, 1, 29, 23, 59, 59)],
      ["0050-01-01T00:00:00Z", Date.parse("0050-01-01T00:00:00.000Z")],
      ["9999-12-31T23:59:59+23:59", Date.parse("9999-12-31T00:00:59.000Z")],
    ];
    for (const [s, ms] of cases) assert.equal(parseStamp(s), ms, s);
    assert.equal(parseStamp("1900-02-29T00:00:00Z"), undefined);
  });
  await t.step("generated calendar times round-trip; one broken field makes no date", () => {
    const next = prng(611);
    const int = (n: number) => Math.floor(next() * n);
    const pad = (n: number, w = 2) => String(n).padStart(w, "0");
    for (let i = 0; i < 3_000; i++) {
      const ms = Date.UTC(1970, 0, 1) + int(2 ** 42);
      const iso = new Date(ms).toISOString();
      assert.equal(parseStamp(iso), ms, iso);
      assert.equal(parseStamp(iso.replace(/\.\d{3}Z$/, "Z")), ms - (ms % 1000), iso);
      const d = new Date(ms);
      const fields = [
        pad(d.getUTCFullYear(), 4),
        pad(d.getUTCMonth() + 1),
        pad(d.getUTCDate()),
        pad(d.getUTCHours()),
        pad(d.getUTCMinutes()),
        pad(d.getUTCSeconds()),
      ];
      // Push one field past its range: month 13+, day 32+, hour 24+, minute or second 60+.
      const k = 1 + int(5);
      fields[k] = pad([0, 13, 32, 24, 60, 60][k] + int([0, 87, 68, 76, 40, 40][k]));
      const [y, mo, da, h, mi, se] = fields;
      const bad = `${y}-${mo}-${da}T${h}:${mi}:${se}Z`;
      assert.equal(parseStamp(bad), undefined, bad);
    }
  });
});

Deno.test("parseStamp: the Date.UTC way and the full-year way agree on every year", () => {
  const fullYear = (y: number, mo: number, d: number, h: number, mi: number, s: number) => {
    const date = new Date(0);
    date.setUTCFullYear(y, mo - 1, d);
    date.setUTCHours(h, mi, s, 0);
    return date.getTime();
  };
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  let seed = 12345;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let i = 0; i < 3000; i++) {
    const y = i < 200 ? i : next(10000);
    const [mo, d, h, mi, s] = [1 + next(12), 1 + next(28), next(24), next(60), next(60)];
    const stamp = `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}Z`;
    assert.equal(parseStamp(stamp), fullYear(y, mo, d, h, mi, s), stamp);
  }
});
