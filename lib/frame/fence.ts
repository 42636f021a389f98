/**
 * The one fence: a quoted text follows its banner inside a markdown fence of backticks longer
 * than any backtick run in it, so no line of it can close the fence, and everything a document or
 * a transcript says — "ignore previous instructions" included — stays quoted data. The context
 * ends with the closing fence: nothing of the text comes after it. Backtick runs are measured
 * here for inline code spans too (lib/handover/files_table.ts).
 * @module
 */

/** `text` fenced under `banner`. */
export function framed(banner: string, text: string): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${banner}\n${fence}\n${text}\n${fence}`;
}

/** Characters the frame adds around a text whose longest backtick run is `run`. */
export function frameCost(banner: string, run: number): number {
  return banner.length + 3 + 2 * Math.max(3, run + 1);
}

/**
 * A text's backtick runs are kept up to this length ({@link shortenRuns}), so a hostile run
 * cannot make the fence eat the budget.
 */
export const MAX_BODY_RUN = 16;

/** The longest run of backticks in `text` (0 when it has none). */
export function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/** Backtick runs longer than {@link MAX_BODY_RUN} cut to it (a hostile body cannot widen the fence). */
export function shortenRuns(text: string): string {
  return text.replace(new RegExp(`\`{${MAX_BODY_RUN + 1},}`, "g"), "`".repeat(MAX_BODY_RUN));
}
