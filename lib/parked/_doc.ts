/**
 * Internal to lib/parked/: the parsed file as the scanner builds it and the edits and lookups
 * work on it — its bytes, each bullet's byte span, and items built only when first asked for
 * (`park` and `drop` on a 10,000-item file need one or two, not all). Also the byte helpers the
 * edits share.
 * @module
 */

import { type ParkedDoc, type ParkedItem, parseBullet, parseCanonical } from "./grammar.ts";

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
  /**
   * `spans` may be a function: an edit's shifted offsets are computed only if something asks
   * (writing the result needs only its bytes and its count).
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly eol: "\n" | "\r\n",
    readonly count: number,
    spans: Spans | (() => Spans),
    text?: string,
  ) {
    if (typeof spans === "function") this.#makeSpans = spans;
    else this.#spans = spans;
    this.#text = text;
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
      const { starts, ends } = this;
      for (let i = 0; i < n; i++) {
        if (this.#items[i]) continue;
        const first = this.lines[i] - 1;
        const s = starts[i];
        const e = ends[i];
        const nl = b.indexOf(10, s);
        let raw: string;
        if (nl === e - 1 || nl === -1 || nl >= e) {
          const fast = parseCanonical(lines[first], nl === e - 1, this.lines[i]);
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
        this.#items[i] = new LazyItem(raw, this.lines[i]);
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
