/**
 * What counts as text: UTF-8 without a NUL byte. The one rule behind every refusal of bytes that
 * are not text — stdin for `dump`, a remote file in a sync — and every strict read of a store file,
 * since decoding anything else would silently turn a user's bytes into U+FFFD.
 * @module
 */

const STRICT = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** `bytes` decoded as strict UTF-8, a BOM kept; undefined when they are not UTF-8. */
export function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return STRICT.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Why `bytes` are not text (a NUL byte, or not UTF-8), or undefined when they are. */
export function notText(bytes: Uint8Array): string | undefined {
  const nul = bytes.indexOf(0);
  if (nul >= 0) return `a NUL byte at offset ${nul}`;
  return strictUtf8(bytes) === undefined ? "bytes that are not UTF-8" : undefined;
}
