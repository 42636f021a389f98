/**
 * The session's window: `--since` parsed (a duration before now, or an ISO moment), its default,
 * and how a transcript's first record narrows the default (pure).
 * @module
 */

/** The default `--since`: the session is taken to have started this long ago. */
export const DEFAULT_SINCE = "8h";

/**
 * Parses `--since`: a duration before `now` (`90m`, `8h`, `2d`, `45s`; a bare number is hours)
 * or an ISO 8601 moment. Undefined when it is neither, or when the moment falls outside the years
 * 0001–9999 (`99999999999d` is no date: git and ISO stamps cannot say it).
 */
export function parseSince(value: string, now: Date): Date | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$/i.exec(value);
  let ms: number;
  if (m) {
    const unit = { s: 1e3, m: 6e4, h: 36e5, d: 864e5, "": 36e5 }[m[2].toLowerCase()]!;
    ms = now.getTime() - Number(m[1]) * unit;
  } else {
    if (!/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return undefined;
    ms = Date.parse(value.trim());
  }
  return ms >= SINCE_MIN && ms <= SINCE_MAX ? new Date(ms) : undefined;
}

/** The range of a `--since` moment: years 0001 to 9999, what a 4-digit ISO year can say. */
const SINCE_MIN = Date.parse("0001-01-01T00:00:00Z");
const SINCE_MAX = Date.parse("9999-12-31T23:59:59.999Z");

/**
 * The session's start for a default window: the transcript's first record when it is later than
 * the window's start (a fresh session after `/clear` owns only its own commits), else the window.
 */
export function sessionStart(window: Date, startedAt: string | undefined): Date {
  const t = startedAt ? Date.parse(startedAt) : NaN;
  return !Number.isNaN(t) && t > window.getTime() ? new Date(t) : window;
}
