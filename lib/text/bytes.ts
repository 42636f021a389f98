/**
 * Lengths in UTF-8 bytes: what file-name limits count (a slug, a temp file's name), and the
 * longest prefix that fits such a limit without splitting a code point.
 * @module
 */

/** The length of `text` in UTF-8 bytes (what file-name limits count). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4; // a surrogate pair is one code point of four bytes
      i++;
    } else n += 3;
  }
  return n;
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a code point. */
export function truncateUtf8(text: string, maxBytes: number): string {
  let out = "";
  let n = 0;
  for (const ch of text) {
    n += utf8Length(ch);
    if (n > maxBytes) break;
    out += ch;
  }
  return out;
}
