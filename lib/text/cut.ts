/**
 * Cutting text to a budget, on code points: {@link head} and {@link tail} keep at most `max`
 * UTF-16 units from the start or the end; {@link clip} and {@link clipStart} mark the cut with
 * `…`, which counts toward `max`. A surrogate pair is kept whole or left out whole; a cut may still
 * fall inside a grapheme cluster (a ZWJ emoji sequence, a flag, a letter and its combining
 * accent), which shows a part of one glyph but is valid text (why not graphemes:
 * docs/DECISIONS.md, Text budgets).
 * @module
 */

/** Whether index `at` of `text` falls between the two halves of a surrogate pair. */
function splitsPair(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/** The start of `text`, at most `max` UTF-16 units, ending between code points. */
export function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = Math.max(0, max);
  return text.slice(0, splitsPair(text, end) ? end - 1 : end);
}

/** The end of `text`, at most `max` UTF-16 units, starting between code points. */
export function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  const start = text.length - Math.max(0, max);
  return text.slice(splitsPair(text, start) ? start + 1 : start);
}

/**
 * `text` within `max` UTF-16 units: itself when it fits, else its {@link head} (trailing white
 * space dropped) and `…`, `max` in all (for `max` ≥ 1).
 */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : head(text, max - 1).trimEnd() + "…";
}

/** `text` within `max` UTF-16 units, cut at the start: `…` and its {@link tail}. */
export function clipStart(text: string, max: number): string {
  return text.length <= max ? text : "…" + tail(text, max - 1).trimStart();
}
