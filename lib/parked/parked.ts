/**
 * PARKED.md: the open loops, one bullet each. Pure parse/render, no IO.
 *
 * A parsed file keeps its exact text and the span of each bullet, so `renderParked(parseParked(x))
 * === x` for every input, well-formed or not, and an edit splices only the bullet it changes:
 * hand-written notes, headings, garbage and CRLF survive untouched. Items are built on first use
 * (`park` and `drop` on a 10,000-item file need one or two, not all).
 *
 * Canonical bullet: `- **<slug>** — <summary>. Raised: <YYYY-MM-DD>. Why: <reason>. Next: <next>.`
 * (`Why`/`Next` are left out when empty). Tolerated by the reader: `*`/`+` markers, `__slug__` or
 * `` `slug` ``, `-`/`–`/`:` instead of `—`, fields in any order or missing, and a bullet without a
 * slug (one is derived from its summary).
 *
 * Fields and notes: a bullet's **first line** holds its fields. The lines after it (indented, or
 * directly following it, up to the next blank line, bullet or heading) are the user's free
 * **notes**: part of the item (its `text`, logged in full when dropped), never read for fields,
 * and kept byte for byte when `park` updates the item, which rewrites the first line only. So a
 * note can never leak into a field and be replaced by a later `--why`.
 *
 * Exact round trip: whatever a field's text, reading a written bullet gives it back (after
 * whitespace is collapsed to one line). A word the reader would take for a field marker
 * (`why:`, `Next :`, `RAISED:` …) is written with its colon escaped as `\:`, a backslash before
 * `\` or `:` as `\\` (Markdown's own escapes, so the file still renders as typed), and the
 * period that ends a field is always added unless the text ends in `!` or `?` (`done.` is
 * written `done..`), so exactly one trailing period is taken off when reading.
 * @module
 */

import { slugify } from "../store/slug.ts";

/** The first line of a PARKED.md this project creates. */
export const PARKED_HEADER = "# Parked items";

/** One open loop, as read from its bullet. */
export interface ParkedItem {
  /** Kebab-case id (normalised from the bold slug, or derived from the summary). */
  slug: string;
  /** What is open, without the trailing period. */
  summary: string;
  /** `Raised:` value, normally `YYYY-MM-DD`; undefined when the bullet has none. */
  raised?: string;
  /** `Why:` value, when present. */
  why?: string;
  /** `Next:` value, when present. */
  next?: string;
  /** The lines after the first, as written (LF-joined, no trailing line ending); free text. */
  notes?: string;
  /** The bullet exactly as written (all its lines, LF-joined, no trailing line ending). */
  text: string;
  /** 1-based line of the bullet in the file. */
  line: number;
}

/** The fields a caller supplies to write a bullet. */
export interface ParkedFields {
  slug: string;
  summary: string;
  raised?: string;
  why?: string;
  next?: string;
}

/** A parsed PARKED.md. Immutable: the edit functions return a new one. */
export interface ParkedDoc {
  /** The open items, in file order (built on first use). */
  readonly items: ParkedItem[];
  /** How many items (without building them). */
  readonly count: number;
  /** The file's exact text. */
  readonly text: string;
  /** The file's exact bytes (what an edit writes back; bytes that are not UTF-8 survive). */
  readonly bytes: Uint8Array;
  /** The line ending new lines are written with (the file's first one; LF for a new file). */
  readonly eol: "\n" | "\r\n";
}

const BULLET = /^ ?[-*+][ \t]+(?=\S)/;
const SLUG_MARK = /^(?:\*\*(.+?)\*\*|__(.+?)__|`([^`]+)`)[ \t]*(?:—|–|--?|:)?[ \t]*/;
// Case-insensitive by character classes, not the `i` flag: with `i` V8 scans ~12× slower, and
// `list` runs this over every bullet (10,000 items: ~180 ms → ~30 ms). Same matches: without `u`,
// `i` never maps non-ASCII letters onto these ASCII ones.
const FIELD_MARK =
  /(^|[\s.;,])([Rr][Aa][Ii][Ss][Ee][Dd]|[Ww][Hh][Yy]|[Nn][Ee][Xx][Tt])[ \t]*:[ \t]*/g;
const MAX_SLUG_WORDS = 5;
const MAX_SLUG_CHARS = 40;
/** Words left out of derived slugs when enough others remain (keeps slugs short and telling). */
const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "the",
  "to",
  "of",
  "for",
  "in",
  "on",
  "at",
  "is",
  "it",
  "be",
  "with",
  "that",
  "this",
]);

/** A short kebab slug from a summary: its first few telling words, at most 40 characters. */
export function slugFromSummary(summary: string): string {
  const words = slugify(summary).split("-").filter((w) => w !== "");
  const telling = words.filter((w) => !STOP_WORDS.has(w));
  const chosen = (telling.length >= 2 ? telling : words).slice(0, MAX_SLUG_WORDS);
  let slug = "";
  for (const w of chosen) {
    const next = slug === "" ? w : `${slug}-${w}`;
    if (next.length > MAX_SLUG_CHARS) {
      if (slug === "") slug = w.slice(0, MAX_SLUG_CHARS);
      break;
    }
    slug = next;
  }
  return slug;
}

/** Collapses whitespace (newlines included) so a field stays on the bullet's one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * `text` ending in a sentence mark: a period is added unless it ends in `!` or `?` — also after
 * a period of its own, since the reader takes exactly one off.
 */
function sentence(text: string): string {
  return /[!?]$/.test(text) ? text : `${text}.`;
}

/** A marker word and its colon, as {@link FIELD_MARK} finds them; the colon escaped on write. */
const MARKER_COLON = /(^|[\s.;,])(raised|why|next)([ \t]*):/gi;

/**
 * A field's text as written: backslashes before `\` or `:` doubled, marker colons escaped, so
 * the reader sees no marker in it ({@link unescapeField} undoes exactly this).
 */
export function escapeField(text: string): string {
  return text.replace(/\\(?=[\\:])/g, "\\\\").replace(MARKER_COLON, "$1$2$3\\:");
}

/** Undoes {@link escapeField}: `\\` → `\`, `\:` → `:`; any other backslash stays as typed. */
export function unescapeField(text: string): string {
  return text.includes("\\") ? text.replace(/\\([\\:])/g, "$1") : text;
}

/** The canonical bullet for `fields` (one line, no line ending). */
export function formatBullet(fields: ParkedFields): string {
  let out = `- **${fields.slug}** — ${sentence(escapeField(oneLine(fields.summary)))}`;
  const raised = escapeField(oneLine(fields.raised ?? ""));
  const why = escapeField(oneLine(fields.why ?? ""));
  const next = escapeField(oneLine(fields.next ?? ""));
  if (raised) out += ` Raised: ${sentence(raised)}`;
  if (why) out += ` Why: ${sentence(why)}`;
  if (next) out += ` Next: ${sentence(next)}`;
  return out;
}

function stripPeriod(text: string): string {
  const t = text.trim();
  return unescapeField(t.endsWith(".") ? t.slice(0, -1).trim() : t);
}

/**
 * Reads the fields of one bullet (its first line; the rest are notes); never throws.
 * `knownSlug`: the slug when the caller already read it (a canonical bullet), saving its
 * normalisation.
 */
export function parseBullet(text: string, line = 1, knownSlug?: string): ParkedItem {
  const nl = text.indexOf("\n");
  const single = nl === -1 || nl === text.length - 1;
  const head = single ? text : text.slice(0, nl);
  let body = head.trim().replace(BULLET, "").trim();
  let slug = "";
  const m = SLUG_MARK.exec(body);
  if (m) {
    slug = knownSlug ?? slugify(m[1] ?? m[2] ?? m[3] ?? "");
    body = body.slice(m[0].length);
  }
  // The last occurrence of each marker wins: a hand-written summary may say "why:" itself.
  let raised: { at: number; end: number } | undefined;
  let why: { at: number; end: number } | undefined;
  let next: { at: number; end: number } | undefined;
  FIELD_MARK.lastIndex = 0;
  for (let f = FIELD_MARK.exec(body); f; f = FIELD_MARK.exec(body)) {
    const pos = { at: f.index + f[1].length, end: f.index + f[0].length };
    const name = f[2].toLowerCase();
    if (name === "raised") raised = pos;
    else if (name === "why") why = pos;
    else next = pos;
  }
  const marks: [string, { at: number; end: number }][] = [];
  if (raised) marks.push(["raised", raised]);
  if (why) marks.push(["why", why]);
  if (next) marks.push(["next", next]);
  if (marks.length > 1) marks.sort((x, y) => x[1].at - y[1].at);
  const summary = stripPeriod(marks.length ? body.slice(0, marks[0][1].at) : body);
  const fields: Record<string, string> = {};
  for (let i = 0; i < marks.length; i++) {
    const stop = i + 1 < marks.length ? marks[i + 1][1].at : body.length;
    fields[marks[i][0]] = stripPeriod(body.slice(marks[i][1].end, stop));
  }
  if (!slug) slug = slugFromSummary(summary) || `item-${line}`;
  const lf = single
    ? text.replace(/\r?\n$/, "")
    : text.split("\n").map((l) => l.replace(/\r$/, "")).join("\n").replace(/\n$/, "");
  const item: ParkedItem = { slug, summary, text: lf, line };
  if (fields.raised) item.raised = fields.raised;
  if (fields.why) item.why = fields.why;
  if (fields.next) item.next = fields.next;
  if (!single) item.notes = lf.slice(lf.indexOf("\n") + 1);
  return item;
}

const SIMPLE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A bullet exactly as {@link formatBullet} writes it, with nothing that could make
 * {@link parseBullet} read it differently: a plain slug; summary and fields without `:` (so no
 * other field marker), without line breaks, and neither starting nor ending in whitespace (so
 * trimming changes nothing); `Raised:` a date; `Why:`/`Next:` optional, in this order.
 */
const CANONICAL =
  /^- \*\*([a-z0-9]+(?:-[a-z0-9]+)*)\*\* — ([^:\\\s](?:[^:\\\r\n]*?[^:\\\s])?)\. Raised: (\d{4}-\d{2}-\d{2})\.(?: Why: ([^:\\\s](?:[^:\\\r\n]*?[^:\\\s])?)\.)?(?: Next: ([^:\\\s](?:[^:\\\r\n]*?[^:\\\s])?)\.)?$/;

/**
 * The item of a one-line bullet in the canonical form, read by one regular expression; undefined
 * for any other bullet (then {@link parseBullet} reads it). Always what parseBullet returns for
 * the same bullet (property-tested); it exists because `list` reads every item of a large file,
 * and one native match per line costs a fraction of the general reader's steps in cold code.
 * `line` is the bullet's text without its line ending; `ended`: it had one (`\n` or `\r\n`).
 */
export function parseCanonical(
  line: string,
  ended: boolean,
  lineNo: number,
): ParkedItem | undefined {
  let text = line;
  if (text.endsWith("\r")) {
    if (!ended) return undefined;
    text = text.slice(0, -1);
  }
  const m = CANONICAL.exec(text);
  if (!m) return undefined;
  const item: ParkedItem = { slug: m[1], summary: m[2], text, line: lineNo, raised: m[3] };
  if (m[4] !== undefined) item.why = m[4];
  if (m[5] !== undefined) item.next = m[5];
  return item;
}

/** The slug of a canonical bullet (`- **slug** …`) without parsing the rest; else undefined. */
function quickSlug(raw: string): string | undefined {
  if (!raw.startsWith("- **")) return undefined;
  const end = raw.indexOf("**", 4);
  if (end < 0) return undefined;
  const inner = raw.slice(4, end);
  return SIMPLE_SLUG.test(inner) ? inner : undefined;
}

/** An item whose fields are read from its bullet only when first asked for. */
class LazyItem implements ParkedItem {
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

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

/**
 * The parsed file: its bytes and each bullet's byte span; items built on demand and kept. Bytes,
 * not text, so `park`/`drop` on a large file decode and re-encode only the bullets they touch.
 */
/** Where the bullets are: byte offsets of their starts and ends, and their 1-based lines. */
interface Spans {
  starts: number[];
  ends: number[];
  lines: number[];
}

class Doc implements ParkedDoc {
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

/** 1 for the bytes of `[a-z0-9]` (a table: this runs for every bullet of a large file). */
const ALNUM = new Uint8Array(256);
for (let c = 48; c <= 57; c++) ALNUM[c] = 1;
for (let c = 97; c <= 122; c++) ALNUM[c] = 1;

/** Matches `[a-z0-9]+(?:-[a-z0-9]+)*\*\*` at `q`: the index of the closing `**`, or -1. */
function simpleSlugEnd(b: Uint8Array, q: number): number {
  let i = q;
  for (;;) {
    if (ALNUM[b[i]] !== 1) return -1;
    while (ALNUM[b[i]] === 1) i++;
    if (b[i] !== 45) break;
    i++;
  }
  return b[i] === 42 && b[i + 1] === 42 ? i : -1;
}

function asDoc(doc: ParkedDoc): Doc {
  return doc instanceof Doc ? doc : parseParked(doc.text) as Doc;
}

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
  return scan(ENCODER.encode(str), str);
}

/** Parses PARKED.md from its bytes (no decoding but of the bullets later asked for). */
export function parseParkedBytes(bytes: Uint8Array): ParkedDoc {
  return scan(bytes);
}

function scan(b: Uint8Array, text?: string): Doc {
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

function countNewlines(b: Uint8Array): number {
  let n = 0;
  for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) n++;
  return n;
}

function concat(...chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * `doc` with bullet `i` replaced by `raw` (or removed when `raw` is undefined), without
 * re-scanning: edits only ever put whole bullets next to lines that end a bullet anyway, so the
 * other spans stay what a parse would find; they only move.
 */
function splice(doc: Doc, i: number, raw: Uint8Array | undefined): Doc {
  const s = doc.starts[i];
  const e = doc.ends[i];
  const replacement = raw ?? new Uint8Array(0);
  const delta = replacement.length - (e - s);
  const lineDelta = countNewlines(replacement) - countNewlines(doc.bytes.subarray(s, e));
  const bytes = concat(doc.bytes.subarray(0, s), replacement, doc.bytes.subarray(e));
  const count = raw === undefined ? doc.count - 1 : doc.count;
  return new Doc(bytes, doc.eol, count, () => {
    const starts = doc.starts.slice();
    const ends = doc.ends.slice();
    const lines = doc.lines.slice();
    for (let j = i + 1; j < starts.length; j++) {
      starts[j] += delta;
      ends[j] += delta;
      lines[j] += lineDelta;
    }
    if (raw === undefined) {
      starts.splice(i, 1);
      ends.splice(i, 1);
      lines.splice(i, 1);
    } else {
      ends[i] = s + replacement.length;
    }
    return { starts, ends, lines };
  });
}

/** The index of the first item with `slug`, or -1 (canonical bullets are compared in place). */
export function findParked(doc: ParkedDoc, slug: string): number {
  return slugIndexes(asDoc(doc), slug, true)[0] ?? -1;
}

/** Every item whose slug is `slug` (normally one; hand edits can repeat a slug). */
export function itemsWithSlug(doc: ParkedDoc, slug: string): ParkedItem[] {
  const d = asDoc(doc);
  return slugIndexes(d, slug, false).map((i) => d.item(i));
}

/** {@link compareSlugAt}: the slug surely differs. */
const SLUG_NO = -1;
/** {@link compareSlugAt}: the slug is exactly the one asked for. */
const SLUG_FULL = -2;
/** {@link compareSlugAt}: only a parse can tell. */
const SLUG_UNKNOWN = -3;

/**
 * Compares the slug of the canonical bullet at `s` (`- **…**`) with the ASCII `slug` in place,
 * byte by byte. Returns {@link SLUG_FULL} when the slug is exactly `slug`; the index of the first
 * extra byte when it is `slug` followed by more; {@link SLUG_NO} when it surely differs;
 * {@link SLUG_UNKNOWN} when only a parse can tell. Surely: a first differing byte that is a
 * lowercase letter or digit stays as it is under slugify, so the slugs differ there; any other
 * byte (a capital, a space, a second `-`) could be rewritten, so the bullet is parsed instead.
 * A number, not an object: this runs for every bullet of a large file, and cold code pays for
 * each allocation.
 */
function compareSlugAt(b: Uint8Array, s: number, slug: string): number {
  if (b[s] !== 45 || b[s + 1] !== 32 || b[s + 2] !== 42 || b[s + 3] !== 42) return SLUG_UNKNOWN;
  const q = s + 4;
  const len = slug.length;
  let k = 0;
  while (k < len && b[q + k] === slug.charCodeAt(k)) k++;
  const c = b[q + k];
  if (k < len) return ALNUM[c] ? SLUG_NO : SLUG_UNKNOWN;
  if (c === 42 && b[q + k + 1] === 42) return SLUG_FULL;
  return ALNUM[c] || c === 45 ? q + k : SLUG_UNKNOWN;
}

const ASCII_SLUG = /^[a-z0-9-]+$/;

/**
 * {@link compareSlugAt}'s {@link SLUG_NO} at the first byte, checked without a call: a canonical
 * bullet whose slug starts with another letter or digit than `first`. Most bullets end here, and
 * a call per bullet is what costs in a one-shot process (the loop runs before V8 optimises it).
 */
function surelyOther(b: Uint8Array, s: number, first: number): boolean {
  const c = b[s + 4];
  return c !== first && ALNUM[c] === 1 && b[s] === 45 && b[s + 1] === 32 && b[s + 2] === 42 &&
    b[s + 3] === 42;
}

/** Indexes of the bullets whose slug is `slug` (canonical ones compared in place). */
function slugIndexes(d: Doc, slug: string, firstOnly: boolean): number[] {
  const b = d.bytes;
  const starts = d.starts;
  const n = d.count;
  const ascii = ASCII_SLUG.test(slug);
  const first = slug.charCodeAt(0);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    if (ascii) {
      if (surelyOther(b, starts[i], first)) continue;
      const r = compareSlugAt(b, starts[i], slug);
      if (r === SLUG_NO) continue;
      if (r === SLUG_FULL) {
        out.push(i);
        if (firstOnly) break;
        continue;
      }
      // A longer slug differs, unless what follows is not a plain slug (then parse).
      if (r >= 0 && simpleSlugEnd(b, starts[i] + 4) >= 0) continue;
    }
    if (d.item(i).slug === slug) {
      out.push(i);
      if (firstOnly) break;
    }
  }
  return out;
}

/** The items whose slug is `base` or `base-<n>` (the slugs `park` derives from one summary). */
export function slugFamily(doc: ParkedDoc, base: string): ParkedItem[] {
  const d = asDoc(doc);
  const family = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:-\\d+)?$`);
  const b = d.bytes;
  const starts = d.starts;
  const n = d.count;
  const ascii = ASCII_SLUG.test(base);
  const first = base.charCodeAt(0);
  const out: ParkedItem[] = [];
  for (let i = 0; i < n; i++) {
    if (ascii) {
      if (surelyOther(b, starts[i], first)) continue;
      const r = compareSlugAt(b, starts[i], base);
      if (r === SLUG_NO) continue;
      if (r === SLUG_FULL) {
        out.push(d.item(i));
        continue;
      }
      if (r >= 0) {
        const end = simpleSlugEnd(b, starts[i] + 4);
        if (end >= 0) {
          // A plain slug: in the family only as `base-<digits>`.
          let k = r;
          if (b[k] === 45 && k + 1 < end) {
            for (k++; k < end && b[k] >= 48 && b[k] <= 57; k++);
            if (k === end) out.push(d.item(i));
          }
          continue;
        }
      }
    }
    if (family.test(d.item(i).slug)) out.push(d.item(i));
  }
  return out;
}

/** Result of {@link upsertParked}. */
export interface Upserted {
  doc: ParkedDoc;
  item: ParkedItem;
  /** True when an existing bullet with the slug was rewritten. */
  updated: boolean;
}

/**
 * Adds a bullet for `fields`, or rewrites the first bullet with the same slug (`known`: its index,
 * when the caller already found it). An update rewrites the bullet's first line only (its
 * fields): the notes below it stay byte for byte. The original `Raised` date is kept, and
 * `why`/`next` are kept unless new ones are given. A new bullet goes right after the last item
 * (or at the end; a new file gets the header).
 */
export function upsertParked(doc: ParkedDoc, fields: ParkedFields, known?: number): Upserted {
  const d = asDoc(doc);
  const i = known !== undefined && known >= 0 && d.item(known).slug === fields.slug
    ? known
    : findParked(d, fields.slug);
  if (i >= 0) {
    const old = d.item(i);
    const merged: ParkedFields = {
      slug: fields.slug,
      summary: fields.summary,
      raised: old.raised ?? fields.raised,
      why: fields.why || old.why,
      next: fields.next || old.next,
    };
    const raw = d.raw(i);
    // The first line's ending and everything after it (the notes) are kept as they are.
    const nl = raw.indexOf("\n");
    const cut = nl < 0 ? raw.length : nl > 0 && raw[nl - 1] === "\r" ? nl - 1 : nl;
    const out = splice(d, i, ENCODER.encode(formatBullet(merged) + raw.slice(cut)));
    return { doc: out, item: out.item(i), updated: true };
  }
  return appendParked(d, fields);
}

/**
 * Adds a bullet for `fields` without looking for its slug (the caller knows it is new): right
 * after the last item, or at the end; a new file gets the header.
 */
export function appendParked(doc: ParkedDoc, fields: ParkedFields): Upserted {
  const d = asDoc(doc);
  const eol = d.eol;
  const bullet = formatBullet(fields) + eol;
  if (d.count > 0) {
    // Right after the last item; a last bullet without a line ending gets one first.
    const last = d.count - 1;
    const lastEnd = d.ends[last];
    const grown = d.bytes[lastEnd - 1] === 10
      ? d
      : splice(d, last, concat(d.bytes.subarray(d.starts[last], lastEnd), ENCODER.encode(eol)));
    const pos = grown.ends[last];
    const add = ENCODER.encode(bullet);
    const bytes = concat(grown.bytes.subarray(0, pos), add, grown.bytes.subarray(pos));
    const lastLines = countNewlines(grown.bytes.subarray(grown.starts[last], pos));
    const line = grown.lines[last] + lastLines;
    const out = new Doc(bytes, eol, grown.count + 1, () => ({
      starts: [...grown.starts, pos],
      ends: [...grown.ends, pos + add.length],
      lines: [...grown.lines, line],
    }));
    const item = new LazyItem(DECODER.decode(add), line);
    return { doc: out, item, updated: false };
  }
  if (d.bytes.length === 0) {
    const out = parseParked(`${PARKED_HEADER}${eol}${eol}${bullet}`) as Doc;
    return { doc: out, item: out.item(0), updated: false };
  }
  // No items yet: append at the end, re-parsing to be sure the bullet is not swallowed by a
  // fence the file leaves open (then the fence is closed first).
  const last = d.bytes.lastIndexOf(10, d.bytes.length - 2);
  const lastLine = DECODER.decode(d.bytes.subarray(last + 1));
  let sep = d.bytes[d.bytes.length - 1] === 10 ? "" : eol;
  if (lastLine.trim() !== "" || sep) sep += eol;
  let out = scan(concat(d.bytes, ENCODER.encode(sep + bullet)));
  if (out.count === 0) {
    out = scan(concat(d.bytes, ENCODER.encode(`${sep}\`\`\`${eol}${eol}${bullet}`)));
  }
  const fixed = new Doc(out.bytes, eol, out.count, out);
  return { doc: fixed, item: fixed.item(fixed.count - 1), updated: false };
}

/** Result of {@link removeParked}. */
export interface Removed {
  doc: ParkedDoc;
  /** The removed item, or undefined when no bullet had the slug. */
  removed?: ParkedItem;
}

/**
 * Removes one bullet (all its lines): the given item of this doc, or the first with the given
 * slug. Everything else stays exactly as it was.
 */
export function removeParked(doc: ParkedDoc, which: string | ParkedItem): Removed {
  const d = asDoc(doc);
  let i = -1;
  if (typeof which === "string") i = findParked(d, which);
  else {
    const at = d.lines.indexOf(which.line);
    if (at >= 0 && d.item(at) === which) i = at;
  }
  if (i < 0) return { doc };
  const removed = d.item(i);
  const s = d.starts[i];
  const e = d.ends[i];
  // A last bullet without a line ending leaves the previous line's ending dangling: drop it.
  if (d.bytes[e - 1] !== 10 && e === d.bytes.length && s > 0) {
    const cut = s >= 2 && d.bytes[s - 2] === 13 ? 2 : 1;
    const ends = d.ends.slice(0, i);
    if (i > 0 && ends[i - 1] === s) ends[i - 1] = s - cut;
    const out = new Doc(d.bytes.slice(0, s - cut), d.eol, i, {
      starts: d.starts.slice(0, i),
      ends,
      lines: d.lines.slice(0, i),
    });
    return { doc: out, removed };
  }
  return { doc: splice(d, i, undefined), removed };
}

/** A slug for a new item that does not collide with another item's: `-2`, `-3`, … appended. */
export function uniqueSlug(doc: ParkedDoc, base: string): string {
  if (findParked(doc, base) < 0) return base;
  const taken = new Set(slugFamily(doc, base).map((i) => i.slug));
  for (let n = 2;; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
