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
 * `` `slug` ``, `-`/`–`/`:` instead of `—`, fields in any order or missing, a bullet without a
 * slug (one is derived from its summary), and continuation lines (indented, or directly
 * following the bullet) up to the next blank line, bullet or heading.
 * @module
 */

import { slugify } from "./slug.ts";

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
  /** The line ending new lines are written with (the file's first one; LF for a new file). */
  readonly eol: "\n" | "\r\n";
}

const BULLET = /^ ?[-*+][ \t]+(?=\S)/;
const SLUG_MARK = /^(?:\*\*(.+?)\*\*|__(.+?)__|`([^`]+)`)[ \t]*(?:—|–|--?|:)?[ \t]*/;
const FIELD_MARK = /(^|[\s.;,])(raised|why|next)[ \t]*:[ \t]*/gi;
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

/** `text` ending in a sentence mark: a period is added unless it ends in `.`, `!` or `?`. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The canonical bullet for `fields` (one line, no line ending). */
export function formatBullet(fields: ParkedFields): string {
  let out = `- **${fields.slug}** — ${sentence(oneLine(fields.summary))}`;
  const raised = oneLine(fields.raised ?? "");
  const why = oneLine(fields.why ?? "");
  const next = oneLine(fields.next ?? "");
  if (raised) out += ` Raised: ${sentence(raised)}`;
  if (why) out += ` Why: ${sentence(why)}`;
  if (next) out += ` Next: ${sentence(next)}`;
  return out;
}

function stripPeriod(text: string): string {
  return text.trim().replace(/\.$/, "").trim();
}

/** Reads the fields of one bullet (its lines joined); never throws. */
export function parseBullet(text: string, line = 1): ParkedItem {
  const joined = text.split("\n").map((l) => l.replace(/\r$/, "").trim()).join(" ");
  let body = joined.replace(BULLET, "").trim();
  let slug = "";
  const m = SLUG_MARK.exec(body);
  if (m) {
    slug = slugify(m[1] ?? m[2] ?? m[3] ?? "");
    body = body.slice(m[0].length);
  }
  // The last occurrence of each marker wins, so a summary may itself say "why:" or "next:".
  const last = new Map<string, { at: number; end: number }>();
  for (const f of body.matchAll(FIELD_MARK)) {
    const at = f.index + f[1].length;
    last.set(f[2].toLowerCase(), { at, end: f.index + f[0].length });
  }
  const marks = [...last.entries()].sort((a, b) => a[1].at - b[1].at);
  const summary = stripPeriod(marks.length ? body.slice(0, marks[0][1].at) : body);
  const fields: Record<string, string> = {};
  marks.forEach(([name, pos], i) => {
    const stop = i + 1 < marks.length ? marks[i + 1][1].at : body.length;
    fields[name] = stripPeriod(body.slice(pos.end, stop));
  });
  if (!slug) slug = slugFromSummary(summary) || `item-${line}`;
  const lf = text.split("\n").map((l) => l.replace(/\r$/, "")).join("\n").replace(/\n$/, "");
  const item: ParkedItem = { slug, summary, text: lf, line };
  if (fields.raised) item.raised = fields.raised;
  if (fields.why) item.why = fields.why;
  if (fields.next) item.next = fields.next;
  return item;
}

const SIMPLE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** At a bullet's slug position: a simple slug and its closing `**` (sticky: no slicing). */
const SIMPLE_SLUG_AT = /[a-z0-9]+(?:-[a-z0-9]+)*\*\*/y;

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
  constructor(raw: string, line: number) {
    this.#raw = raw;
    this.line = line;
    this.slug = quickSlug(raw) ?? this.#parsed().slug;
  }
  #parsed(): ParkedItem {
    return this.#full ??= parseBullet(this.#raw, this.line);
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
  get text(): string {
    return this.#parsed().text;
  }
  /** All fields as a plain object (what JSON.stringify and spreading callers expect). */
  toJSON(): ParkedItem {
    return { ...this.#parsed(), slug: this.slug };
  }
}

/** The parsed file: its text and each bullet's span; items built on demand and kept. */
class Doc implements ParkedDoc {
  #items: (ParkedItem | undefined)[] = [];
  #all = false;
  constructor(
    readonly text: string,
    readonly eol: "\n" | "\r\n",
    /** Offset of each bullet's first character. */
    readonly starts: number[],
    /** Offset just past each bullet's last line ending. */
    readonly ends: number[],
    /** 1-based line of each bullet. */
    readonly lines: number[],
  ) {}
  get count(): number {
    return this.starts.length;
  }
  get items(): ParkedItem[] {
    if (!this.#all) {
      for (let i = 0; i < this.starts.length; i++) this.item(i);
      this.#all = true;
    }
    return this.#items as ParkedItem[];
  }
  /** The item of bullet `i`. */
  item(i: number): ParkedItem {
    return this.#items[i] ??= new LazyItem(
      this.text.slice(this.starts[i], this.ends[i]),
      this.lines[i],
    );
  }
  /** The raw bytes of bullet `i`. */
  raw(i: number): string {
    return this.text.slice(this.starts[i], this.ends[i]);
  }
  /** Whether bullet `i` has `slug`, read in place for canonical bullets. */
  slugIs(i: number, slug: string): boolean {
    const s = this.starts[i];
    if (this.text.startsWith("- **", s)) {
      SIMPLE_SLUG_AT.lastIndex = s + 4;
      if (SIMPLE_SLUG_AT.test(this.text)) {
        return SIMPLE_SLUG_AT.lastIndex - 2 - (s + 4) === slug.length &&
          this.text.startsWith(slug, s + 4);
      }
    }
    return this.item(i).slug === slug;
  }
}

function asDoc(doc: ParkedDoc): Doc {
  return doc instanceof Doc ? doc : parseParked(doc.text) as Doc;
}

const FENCE_AT = / {0,3}(?:```|~~~)/y;
const BULLET_AT = / ?[-*+][ \t]+(?=\S)/y;
const BLANK_AT = /[^\S\n]*(?:\n|$)/y;
const HEADING_AT = / {0,3}#/y;
const COMMENT_AT = /[^\S\n]*<!--/y;
const K_FENCE = 1, K_BULLET = 2, K_BLANK = 3, K_HEADING = 4, K_COMMENT = 5, K_OTHER = 6;

function at(re: RegExp, text: string, pos: number): boolean {
  re.lastIndex = pos;
  return re.test(text);
}

/** What the line starting at `pos` is; regexes run in place, and only where the first char allows. */
function lineKindAt(text: string, pos: number): number {
  const ch = text.charCodeAt(pos);
  // space, backtick, tilde
  if ((ch === 32 || ch === 96 || ch === 126) && at(FENCE_AT, text, pos)) return K_FENCE;
  // -, *, +, space
  if ((ch === 45 || ch === 42 || ch === 43 || ch === 32) && at(BULLET_AT, text, pos)) {
    return K_BULLET;
  }
  if (ch === 45 || ch === 42) return K_OTHER; // the common bullet-less case of these chars
  if (at(BLANK_AT, text, pos)) return K_BLANK;
  if ((ch === 35 || ch === 32) && at(HEADING_AT, text, pos)) return K_HEADING;
  if (at(COMMENT_AT, text, pos)) return K_COMMENT;
  return K_OTHER;
}

/**
 * Parses PARKED.md. Never throws; any input renders back byte-exactly. A bullet is a line
 * starting with `-`, `*` or `+` (at most one space of indent); the non-blank lines after it that
 * are not a bullet, heading, fence or comment belong to it. Fenced code holds no items.
 */
export function parseParked(text: string): ParkedDoc {
  const str = typeof text === "string" ? text : "";
  const starts: number[] = [];
  const ends: number[] = [];
  const lines: number[] = [];
  let open = -1;
  let openLine = 0;
  let fenced = false;
  let lineNo = 0;
  for (let pos = 0; pos < str.length;) {
    const nl = str.indexOf("\n", pos);
    const end = nl === -1 ? str.length : nl + 1;
    lineNo++;
    const kind = lineKindAt(str, pos);
    if (!fenced && kind === K_BULLET) {
      if (open >= 0) starts.push(open), ends.push(pos), lines.push(openLine);
      open = pos;
      openLine = lineNo;
    } else if (!(open >= 0 && !fenced && kind === K_OTHER)) {
      if (kind === K_FENCE) fenced = !fenced;
      if (open >= 0) starts.push(open), ends.push(pos), lines.push(openLine);
      open = -1;
    }
    pos = end;
  }
  if (open >= 0) starts.push(open), ends.push(str.length), lines.push(openLine);
  const first = str.indexOf("\n");
  const eol = first > 0 && str[first - 1] === "\r" ? "\r\n" : "\n";
  return new Doc(str, eol, starts, ends, lines);
}

/** The file's text, exactly. */
export function renderParked(doc: ParkedDoc): string {
  return doc.text;
}

/** An empty PARKED.md (what a missing file parses as). */
export function emptyParked(): ParkedDoc {
  return parseParked("");
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * `doc` with bullet `i` replaced by `raw` (or removed when `raw` is undefined), without
 * re-parsing: edits only ever put whole bullets next to lines that end a bullet anyway, so the
 * other spans stay what a parse would find; they only move.
 */
function splice(doc: Doc, i: number, raw: string | undefined): Doc {
  const s = doc.starts[i];
  const e = doc.ends[i];
  const old = doc.text.slice(s, e);
  const replacement = raw ?? "";
  const delta = replacement.length - old.length;
  const lineDelta = countNewlines(replacement) - countNewlines(old);
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
  return new Doc(
    doc.text.slice(0, s) + replacement + doc.text.slice(e),
    doc.eol,
    starts,
    ends,
    lines,
  );
}

/** The index of the first item with `slug`, or -1 (canonical bullets are compared in place). */
export function findParked(doc: ParkedDoc, slug: string): number {
  const d = asDoc(doc);
  for (let i = 0; i < d.count; i++) if (d.slugIs(i, slug)) return i;
  return -1;
}

/** Every item whose slug is `slug` (normally one; hand edits can repeat a slug). */
export function itemsWithSlug(doc: ParkedDoc, slug: string): ParkedItem[] {
  const d = asDoc(doc);
  const out: ParkedItem[] = [];
  for (let i = 0; i < d.count; i++) if (d.slugIs(i, slug)) out.push(d.item(i));
  return out;
}

/** The items whose slug is `base` or `base-<n>` (the slugs `park` derives from one summary). */
export function slugFamily(doc: ParkedDoc, base: string): ParkedItem[] {
  const d = asDoc(doc);
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const inPlace = new RegExp(`${escaped}(?:-\\d+)?\\*\\*`, "y");
  const loose = new RegExp(`^${escaped}(?:-\\d+)?$`);
  const out: ParkedItem[] = [];
  for (let i = 0; i < d.count; i++) {
    const s = d.starts[i];
    if (d.text.startsWith("- **", s) && at(SIMPLE_SLUG_AT, d.text, s + 4)) {
      if (at(inPlace, d.text, s + 4)) out.push(d.item(i));
    } else if (loose.test(d.item(i).slug)) out.push(d.item(i));
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
 * Adds a bullet for `fields`, or rewrites the first bullet with the same slug. On update the
 * original `Raised` date is kept, and `why`/`next` are kept unless new ones are given. A new
 * bullet goes right after the last item (or at the end; a new file gets the header).
 */
export function upsertParked(doc: ParkedDoc, fields: ParkedFields): Upserted {
  const d = asDoc(doc);
  const eol = d.eol;
  const i = findParked(d, fields.slug);
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
    const ending = raw.endsWith("\r\n") ? "\r\n" : raw.endsWith("\n") ? "\n" : "";
    const out = splice(d, i, formatBullet(merged) + ending);
    return { doc: out, item: out.item(i), updated: true };
  }
  const bullet = formatBullet(fields) + eol;
  if (d.count > 0) {
    // Right after the last item; a last bullet without a line ending gets one first.
    const last = d.count - 1;
    const lastRaw = d.raw(last);
    const fixed = lastRaw.endsWith("\n") ? lastRaw : lastRaw + eol;
    const grown = fixed === lastRaw ? d : splice(d, last, fixed);
    const pos = grown.ends[last];
    const text = grown.text.slice(0, pos) + bullet + grown.text.slice(pos);
    const out = new Doc(
      text,
      eol,
      [...grown.starts, pos],
      [...grown.ends, pos + bullet.length],
      [...grown.lines, grown.lines[last] + countNewlines(fixed)],
    );
    return { doc: out, item: out.item(last + 1), updated: false };
  }
  if (d.text === "") {
    const out = parseParked(`${PARKED_HEADER}${eol}${eol}${bullet}`) as Doc;
    return { doc: out, item: out.item(0), updated: false };
  }
  // No items yet: append at the end, re-parsing to be sure the bullet is not swallowed by a
  // fence the file leaves open (then the fence is closed first).
  const lastLine = d.text.slice(d.text.lastIndexOf("\n", d.text.length - 2) + 1);
  let sep = d.text.endsWith("\n") ? "" : eol;
  if (lastLine.trim() !== "" || sep) sep += eol;
  let out = parseParked(d.text + sep + bullet) as Doc;
  if (out.count === 0) out = parseParked(`${d.text}${sep}\`\`\`${eol}${eol}${bullet}`) as Doc;
  const fixedEol = new Doc(out.text, eol, out.starts, out.ends, out.lines);
  return { doc: fixedEol, item: fixedEol.item(fixedEol.count - 1), updated: false };
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
  const i = typeof which === "string"
    ? findParked(d, which)
    : d.lines.indexOf(which.line) >= 0 && d.item(d.lines.indexOf(which.line)) === which
    ? d.lines.indexOf(which.line)
    : -1;
  if (i < 0) return { doc };
  const removed = d.item(i);
  const raw = d.raw(i);
  const s = d.starts[i];
  // A last bullet without a line ending leaves the previous line's ending dangling: drop it.
  if (!raw.endsWith("\n") && d.ends[i] === d.text.length && s > 0) {
    const cut = d.text.startsWith("\r\n", s - 2) ? 2 : 1;
    const starts = d.starts.slice(0, i);
    const ends = d.ends.slice(0, i);
    if (i > 0 && ends[i - 1] === s) ends[i - 1] = s - cut;
    const out = new Doc(d.text.slice(0, s - cut), d.eol, starts, ends, d.lines.slice(0, i));
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
