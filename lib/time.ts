/**
 * Time: ISO stamps, ages from `created`, and the thresholds of the spec. Every function takes
 * `now` so tests never read the real clock.
 * @module
 */

/** Documents and parked items older than this are flagged `⚠ stale`. */
export const STALE_MS = 14 * 24 * 60 * 60 * 1000;
/** Documents older than this are removed by `list`. Parked items never expire. */
export const EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;
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

/** Parses a `created` value (ISO 8601); undefined when absent or not a date. */
export function parseStamp(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value.trim());
  return Number.isNaN(ms) ? undefined : ms;
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
