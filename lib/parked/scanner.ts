/**
 * The byte-level scanner: finds the bullets of a whole PARKED.md — which lines are bullets, which
 * belong to one, what fenced code hides — and indexes their byte spans. Pure, no IO.
 *
 * A parsed file keeps its exact bytes and the span of each bullet, so `renderParked(parseParked(x))
 * === x` for every input, well-formed or not, and an edit splices only the bullet it changes
 * (./edit.ts): hand-written notes, headings, garbage and CRLF survive untouched. Items are built
 * on first use (the {@link Doc} below, which the edits and lookups work on; `park` and `drop` on a
 * 10,000-item file need one or two items, not all); one bullet's grammar is ./grammar.ts.
 * @module
 */

import { type ParkedDoc, type ParkedItem, parseBullet, parseCanonical } from "./grammar.ts";

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

/**
 * The file's bytes, exactly, in the pieces an edit left them (what the write puts out one after
 * another: a one-bullet edit of a large file is never copied whole).
 */
export function renderParkedChunks(doc: ParkedDoc): readonly Uint8Array[] {
  return doc instanceof Doc ? doc.chunks : [doc.bytes];
}

/** An empty PARKED.md (what a missing file parses as). */
export function emptyParked(): ParkedDoc {
  return parseParked("");
}

/** The index behind `doc`: itself, or a fresh scan of its text if it was built elsewhere. */
export function asDoc(doc: ParkedDoc): Doc {
  return doc instanceof Doc ? doc : parseParked(doc.text) as Doc;
}

// ------------------------------------------------------- the parsed file: spans, items on first use

const SIMPLE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The slug of a canonical bullet (`- **slug** …`) without parsing the rest; else undefined. */
function quickSlug(raw: string): string | undefined {
  if (!raw.startsWith("- **")) return undefined;
  const end = raw.indexOf("**", 4);
  if (end < 0) return undefined;
  const inner = raw.slice(4, end);
  return SIMPLE_SLUG.test(inner) ? inner : undefined;
}

/** An item whose fields are read from its bullet only when first asked for. */
export class LazyItem implements ParkedItem {
  readonly line: number;
  readonly slug: string;
  #raw: string;
  #full?: ParkedItem;
  #quick?: string;
  constructor(raw: string, line: number) {
    this.#raw = raw;
    this.line = line;
    this.#quick = quickSlug(raw);
    this.slug = this.#quick ?? this.#parsed().slug;
  }
  #parsed(): ParkedItem {
    return this.#full ??= parseBullet(this.#raw, this.line, this.#quick);
  }
  get summary(): string {
    return this.#parsed().summary;
  }
  get raised(): string | undefined {
    return this.#parsed().raised;
  }
  get why(): string | undefined {
    return this.#parsed().why;
  }
  get next(): string | undefined {
    return this.#parsed().next;
  }
  get notes(): string | undefined {
    return this.#parsed().notes;
  }
  get text(): string {
    return this.#parsed().text;
  }
  /** All fields as a plain object (what JSON.stringify and spreading callers expect). */
  toJSON(): ParkedItem {
    return { ...this.#parsed(), slug: this.slug };
  }
}

export const ENCODER = new TextEncoder();
export const DECODER = new TextDecoder();

/** Where the bullets are: byte offsets of their starts and ends, and their 1-based lines. */
export interface Spans {
  starts: number[];
  ends: number[];
  lines: number[];
}

/**
 * The parsed file: its bytes and each bullet's byte span; items built on demand and kept. Bytes,
 * not text, so `park`/`drop` on a large file decode and re-encode only the bullets they touch.
 */
export class Doc implements ParkedDoc {
  #items: (ParkedItem | undefined)[] = [];
  #all = false;
  #text?: string;
  #spans?: Spans;
  #makeSpans?: () => Spans;
  #bytes?: Uint8Array;
  #chunks?: readonly Uint8Array[];
  /**
   * `bytes` may be pieces and `spans` a function: an edit's bytes are joined and its shifted
   * offsets computed only if something asks (writing the result needs only its pieces and count).
   */
  constructor(
    bytes: Uint8Array | readonly Uint8Array[],
    readonly eol: "\n" | "\r\n",
    readonly count: number,
    spans: Spans | (() => Spans),
    text?: string,
  ) {
    if (bytes instanceof Uint8Array) this.#bytes = bytes;
    else this.#chunks = bytes;
    if (typeof spans === "function") this.#makeSpans = spans;
    else this.#spans = spans;
    this.#text = text;
  }
  /** The file's bytes, exactly (joined on first use when an edit left them in pieces). */
  get bytes(): Uint8Array {
    return this.#bytes ??= concat(...this.#chunks!);
  }
  /** The file's bytes as pieces to be written one after another, without joining them. */
  get chunks(): readonly Uint8Array[] {
    return this.#bytes ? [this.#bytes] : this.#chunks!;
  }
  #get(): Spans {
    return this.#spans ??= this.#makeSpans!();
  }
  /** Byte offset of each bullet's first byte. */
  get starts(): number[] {
    return this.#get().starts;
  }
  /** Byte offset just past each bullet's last line ending. */
  get ends(): number[] {
    return this.#get().ends;
  }
  /** 1-based line of each bullet. */
  get lines(): number[] {
    return this.#get().lines;
  }
  get text(): string {
    return this.#text ??= DECODER.decode(this.bytes);
  }
  get items(): ParkedItem[] {
    if (this.#all) return this.#items as ParkedItem[];
    const n = this.count;
    if (n > 64) {
      // Many items: split the text into lines once rather than decode each bullet (a bullet is
      // whole lines, and UTF-8 decoding keeps every "\n" where it was).
      const lines = this.text.split("\n");
      const b = this.bytes;
      const { starts, ends, lines: lineNos } = this.#get();
      for (let i = 0; i < n; i++) {
        if (this.#items[i]) continue;
        const first = lineNos[i] - 1;
        const s = starts[i];
        const e = ends[i];
        const nl = b.indexOf(10, s);
        let raw: string;
        if (nl === e - 1 || nl === -1 || nl >= e) {
          const fast = parseCanonical(lines[first], nl === e - 1, lineNos[i]);
          if (fast) {
            this.#items[i] = fast;
            continue;
          }
          raw = nl === e - 1 ? lines[first] + "\n" : lines[first];
        } else {
          const tail = b[e - 1] === 10;
          const count = countNewlines(b.subarray(s, e)) + (tail ? 0 : 1);
          raw = lines.slice(first, first + count).join("\n") + (tail ? "\n" : "");
        }
        this.#items[i] = new LazyItem(raw, lineNos[i]);
      }
    } else {
      for (let i = 0; i < n; i++) this.item(i);
    }
    this.#all = true;
    return this.#items as ParkedItem[];
  }
  /** The item of bullet `i`. */
  item(i: number): ParkedItem {
    return this.#items[i] ??= new LazyItem(this.raw(i), this.lines[i]);
  }
  /** Bullet `i` as text. */
  raw(i: number): string {
    return DECODER.decode(this.bytes.subarray(this.starts[i], this.ends[i]));
  }
}

/** How many `\n` bytes `b` holds. */
export function countNewlines(b: Uint8Array): number {
  let n = 0;
  for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) n++;
  return n;
}

/** The chunks joined into one new array. */
export function concat(...chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
