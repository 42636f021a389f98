/**
 * Small text rules more than one area shares, so each is written once.
 * @module
 */

/** Folds every run of whitespace (newlines included) into one space: text for one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
