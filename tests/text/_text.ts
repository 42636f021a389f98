/** Test support for text cuts. */

/** Whether `text` holds a surrogate without its other half (a pair's half cut off). */
export function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udfff]/u.test(text);
}
