/**
 * Redaction for the write paths that must stay fast (`park`, `drop`, `dump`, `evidence`, the
 * sweep `park` offers): redact.ts (~1.3 ms to load, ~1.2 ms to compile its patterns on first
 * use) is loaded only when a text may hold a secret (./prefilter.ts); a text that cannot comes
 * back as it was, with no counts, exactly what `redact` would return for it. A computed
 * specifier, so the module graph built at start-up does not include redact.ts.
 * @module
 */

import { mayHoldSecret } from "./prefilter.ts";
import { mapStrings } from "./_walk.ts";
import type { Redaction, RedactionCounts } from "./redact.ts";

/** The redaction module, loaded on first use. */
export function loadRedaction(): Promise<typeof import("./redact.ts")> {
  return import(new URL("./redact.ts", import.meta.url).href);
}

/** `redact(text)`, loading the rules only when `text` may hold a secret. */
export async function redactLazily(text: string): Promise<Redaction> {
  if (!mayHoldSecret(text)) return { text, counts: {} };
  return (await loadRedaction()).redact(text);
}

/**
 * `redactDeep(value)` (the same copy), loading the rules only when a string may hold a secret.
 * One pass in the usual case: the copy is made while checking, and kept when nothing was found.
 */
export async function redactDeepLazily<T>(
  value: T,
): Promise<{ value: T; counts: RedactionCounts }> {
  let found = false;
  const copy = mapStrings(value, (text) => {
    if (!found && mayHoldSecret(text)) found = true;
    return text;
  });
  if (!found) return { value: copy, counts: {} };
  return (await loadRedaction()).redactDeep(value);
}

/**
 * `redactionNote` of the sum of `counts`: "" without loading anything when nothing was redacted
 * (then no redaction ran, and redact.ts may never have been loaded).
 */
export async function redactionNoteLazily(...counts: RedactionCounts[]): Promise<string> {
  if (!counts.some((c) => Object.values(c).some((n) => (n ?? 0) > 0))) return "";
  const { addCounts, redactionNote } = await loadRedaction();
  return redactionNote(counts.reduce(addCounts, {}));
}
