/**
 * Time: ISO stamps, ages from `created`, and the store's thresholds (docs/STORE.md). Every function takes
 * `now` so tests never read the real clock. In store/ because every time this project handles is
 * the store's: the stamps it writes (`created`, a slug's stamp, a parked item's `raised`), the
 * age, staleness and expiry of what it holds, and the pinned clock (`SESSION_NOW`) its tests and
 * the hook read.
 * @module
 */

/** Documents and parked items older than this are flagged `⚠ stale`. */
export const STALE_MS = 14 * 24 * 60 * 60 * 1000;
/** Documents older than this are removed by `list`. Parked items never expire. */
export const EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;
/** The restore window: a dump older than this is not injected by the hook. */
export const WINDOW_MS = 30 * 60 * 1000;
/** A `created` up to this far ahead of the clock (clock differences) still counts as fresh. */
export const FUTURE_SKEW_MS = 60_000;

/**
 * Whether a document `age` ms old may be restored: within `windowMs`, or at most
 * {@link FUTURE_SKEW_MS} ahead. Not a number (no or a bad `created`) is outside.
 */
export function inWindow(age: number, windowMs: number): boolean {
  return age <= windowMs && age >= -FUTURE_SKEW_MS;
}

/** The prefix shown before stale items. */
export const STALE_MARK = "⚠ stale";

/** Environment variable that pins "now" (ISO 8601) for tests and demos. */
export const NOW_ENV = "SESSION_NOW";

/** The current time, or the one pinned by `SESSION_NOW` when it is set and valid. */
export function currentTime(env: (name: string) => string | undefined = safeEnv): Date {
  const pinned = env(NOW_ENV);
  if (pinned) {
    const ms = Date.parse(pinned);
    if (!Number.isNaN(ms)) return new Date(ms);
  }
  return new Date();
}

/** Reads an environment variable, treating a denied permission as unset. */
export function safeEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** `2026-11-30T04:02:39Z`: ISO 8601 UTC to the second, the form of `created`. */
export function isoStamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** `2026-11-30T04-02-39Z`: the stamp used in unnamed slugs (no `:`, safe in file names). */
export function slugStamp(date: Date): string {
  return isoStamp(date).replaceAll(":", "-");
}

/** `2026-11-30`: the date of a parked item's `Raised:`. */
export function dayStamp(date: Date): string {
  return isoStamp(date).slice(0, 10);
}

/**
 * The one grammar of a date in this project (`created`, and every reader of it: list, recall,
 * the catalog, the hook). Strict ISO 8601 with a zone, nothing else:
 *
 *   YYYY-MM-DDTHH:MM:SS[.f…](Z|+HH:MM|-HH:MM)
 *
 * `T` and `Z` upper case; 1–9 fraction digits (milliseconds kept, the rest cut); month 01–12,
 * day within its month (leap years by the Gregorian rule), hour 00–23, minute and second 00–59
 * (no leap second, no 24:00), offset hours 00–23 and minutes 00–59. Why so strict:
 * `Date.parse` reads `0`, `1`, `foo 1` and `12/1` as dates in 2000/2001, and `list` would delete
 * such documents as expired; anything outside this grammar is "no created" (kept, never injected).
 */
const STAMP =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/** Parses a `created` value by {@link STAMP}; undefined when absent or not such a stamp. */
export function parseStamp(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const m = STAMP.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  if (days === undefined || d < 1 || d > days || h > 23 || mi > 59 || s > 59) return undefined;
  let offset = 0;
  if (m[8] === undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offset = (m[9] === "-" ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  // Date.UTC maps years 0–99 to 1900–1999: only those take the slower way, the full year set
  // explicitly (one Date.UTC call is the same number for any later year).
  if (y >= 100) return Date.UTC(y, mo - 1, d, h, mi, s, ms) - offset;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  return date.getTime() - offset;
}

/** Age in milliseconds of a stamp at `now`; undefined when the stamp does not parse. */
export function ageMs(created: string | undefined, now: Date): number | undefined {
  const ms = parseStamp(created);
  return ms === undefined ? undefined : now.getTime() - ms;
}

/** A short human age: `just now`, `12 min`, `3 h`, `5 d`. */
export function formatAge(ms: number | undefined): string {
  if (ms === undefined) return "unknown age";
  if (ms < 0) return "in the future";
  const min = Math.floor(ms / 60_000);
  if (min < 1) return "just now";
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.floor(h / 24)} d`;
}

/**
 * An age as a sentence says it: `12 min ago`, `3 h ago`; `just now`, `in the future` and
 * `unknown age` ({@link formatAge}) stand alone. The one "N ago" of every message and banner.
 */
export function formatAgo(ms: number | undefined): string {
  const age = formatAge(ms);
  return age === "just now" || age === "in the future" || age === "unknown age"
    ? age
    : `${age} ago`;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * A threshold in words, in the largest unit that divides it: `30 minutes`, `14 days`, `1 hour`.
 * Every message that states a threshold of this file builds it here from the constant.
 */
export function spanWords(ms: number): string {
  const [n, unit] = ms % DAY_MS === 0
    ? [ms / DAY_MS, "day"]
    : ms % HOUR_MS === 0
    ? [ms / HOUR_MS, "hour"]
    : [Math.round(ms / MINUTE_MS), "minute"];
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}
