/**
 * What a sync redacts on the way (sync.ts): a text or a file's bytes, redacted, with the counts
 * added to the report's, so the mode can say what was taken out.
 * @module
 */

import { addCounts, redact, type RedactionCounts } from "../secrets/redact.ts";

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

/** Where the counts add up (a sync's report). */
export interface Counted {
  redacted: RedactionCounts;
}

/** `text` redacted, its counts added to `into`'s. */
export function clean(text: string, into: Counted): string {
  const r = redact(text);
  into.redacted = addCounts(into.redacted, r.counts);
  return r.text;
}

/**
 * `bytes` redacted, its counts added to `into`'s. Bytes with nothing to redact are returned as
 * they are (PARKED.md may hold bytes that are not UTF-8, which an edit keeps exactly).
 */
export function cleanBytes(bytes: Uint8Array, into: Counted): Uint8Array {
  const r = redact(DECODER.decode(bytes));
  if (Object.keys(r.counts).length === 0) return bytes;
  into.redacted = addCounts(into.redacted, r.counts);
  return ENCODER.encode(r.text);
}
