/**
 * The byte-level scanner: finds the bullets of a whole PARKED.md — which lines are bullets, which
 * belong to one, what fenced code hides — and indexes their byte spans. Pure, no IO.
 *
 * A parsed file keeps its exact bytes and the span of each bullet, so `renderParked(parseParked(x))
 * === x` for every input, well-formed or not, and an edit splices only the bullet it changes
 * (./edit.ts): hand-written notes, headings, garbage and CRLF survive untouched. Items are built
 * on first use (./_doc.ts); one bullet's grammar is ./grammar.ts.
 * @module
 */

import { DECODER, Doc, ENCODER } from "./_doc.ts";
import type { ParkedDoc } from "./grammar.ts";

const K_FENCE = 1, K_BULLET = 2, K_BLANK = 3, K_HEADING = 4, K_COMMENT = 5, K_OTHER = 6;

/** ASCII whitespace as JavaScript's `\s` sees it (newline aside). */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

/** The line `[p, end)` as text, for the rare checks that meet a non-ASCII byte. */
function lineText(b: Uint8Array, p: number, end: number): string {
  return DECODER.decode(b.subarray(p, end));
}

/**
 * What the line at byte `p` (ending at `end`, its `\n` or the file's end) is. The same rules as
 * the regexes `^ {0,3}(```|~~~)`, `^ ?[-*+][ \t]+(?=\S)`, `^\s*$`, `^ {0,3}#`, `^\s*<!--`, read on
 * bytes; a non-ASCII byte where whitespace matters falls back to the regex on the decoded line.
 */
function lineKindAt(b: Uint8Array, p: number, end: number): number {
  let q = p;
  while (q < end && q - p < 3 && b[q] === 32) q++;
  const c = b[q];
  if ((c === 96 || c === 126) && b[q + 1] === c && b[q + 2] === c) return K_FENCE;
  // Bullet: an optional space, a marker, spaces or tabs, then something that is not a space.
  let r = b[p] === 32 ? p + 1 : p;
  if (b[r] === 45 || b[r] === 42 || b[r] === 43) {
    r++;
    if (b[r] === 32 || b[r] === 9) {
      while (b[r] === 32 || b[r] === 9) r++;
      if (r < end) {
        const d = b[r];
        if (d < 128 ? !isSpace(d) : /^\S/.test(lineText(b, r, end))) return K_BULLET;
      }
    }
  }
  // Blank: nothing but whitespace.
  let blank = true;
  for (let k = p; k < end; k++) {
    const d = b[k];
    if (d >= 128) {
      blank = !/\S/.test(lineText(b, p, end));
      break;
    }
    if (!isSpace(d)) {
      blank = false;
      break;
    }
  }
  if (blank) return K_BLANK;
  if (c === 35) return K_HEADING;
  let w = p;
  while (w < end && isSpace(b[w])) w++;
  if (b[w] >= 128) {
    return /^[^\S\n]*<!--/.test(lineText(b, p, end)) ? K_COMMENT : K_OTHER;
  }
  return b[w] === 60 && b[w + 1] === 33 && b[w + 2] === 45 && b[w + 3] === 45 ? K_COMMENT : K_OTHER;
}

/**
 * Parses PARKED.md. Never throws; any input renders back byte-exactly. A bullet is a line
 * starting with `-`, `*` or `+` (at most one space of indent); the non-blank lines after it that
 * are not a bullet, heading, fence or comment belong to it. Fenced code holds no items.
 */
export function parseParked(text: string): ParkedDoc {
  const str = typeof text === "string" ? text : "";
  return scanParked(ENCODER.encode(str), str);
}

/** Parses PARKED.md from its bytes (no decoding but of the bullets later asked for). */
export function parseParkedBytes(bytes: Uint8Array): ParkedDoc {
  return scanParked(bytes);
}

/**
 * The index of a PARKED.md's bytes (`text`: the same file decoded, when the caller has it): each
 * bullet's span, no item built yet. What the parse functions return, typed for the edits.
 */
export function scanParked(b: Uint8Array, text?: string): Doc {
  const starts: number[] = [];
  const ends: number[] = [];
  const lines: number[] = [];
  let open = -1;
  let openLine = 0;
  let fenced = false;
  let lineNo = 0;
  const n = b.length;
  for (let pos = 0; pos < n;) {
    const nl = b.indexOf(10, pos);
    const lineEnd = nl === -1 ? n : nl;
    lineNo++;
    // The common line, `- x…`, is a bullet: skip the general check (it would say the same).
    const c2 = b[pos + 2];
    const kind = b[pos] === 45 && b[pos + 1] === 32 && c2 > 32 && c2 < 128 && pos + 2 < lineEnd
      ? K_BULLET
      : lineKindAt(b, pos, lineEnd);
    if (!fenced && kind === K_BULLET) {
      if (open >= 0) starts.push(open), ends.push(pos), lines.push(openLine);
      open = pos;
      openLine = lineNo;
    } else if (!(open >= 0 && !fenced && kind === K_OTHER)) {
      if (kind === K_FENCE) fenced = !fenced;
      if (open >= 0) starts.push(open), ends.push(pos), lines.push(openLine);
      open = -1;
    }
    pos = nl === -1 ? n : nl + 1;
  }
  if (open >= 0) starts.push(open), ends.push(n), lines.push(openLine);
  const first = b.indexOf(10);
  const eol = first > 0 && b[first - 1] === 13 ? "\r\n" : "\n";
  return new Doc(b, eol, starts.length, { starts, ends, lines }, text);
}

/** The file's text, exactly. */
export function renderParked(doc: ParkedDoc): string {
  return doc.text;
}

/** The file's bytes, exactly (what an edit writes). */
export function renderParkedBytes(doc: ParkedDoc): Uint8Array {
  return doc.bytes;
}

/** An empty PARKED.md (what a missing file parses as). */
export function emptyParked(): ParkedDoc {
  return parseParked("");
}

/** The index behind `doc`: itself, or a fresh scan of its text if it was built elsewhere. */
export function asDoc(doc: ParkedDoc): Doc {
  return doc instanceof Doc ? doc : parseParked(doc.text) as Doc;
}
