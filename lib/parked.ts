/**
 * PARKED.md: the open loops, one bullet each. Pure parse/render, no IO.
 *
 * The file is kept as a list of parts, each holding its exact bytes (line endings included), so
 * `renderParked(parseParked(x)) === x` for every input, well-formed or not, and an edit touches
 * only the bullet it changes: hand-written notes, headings, garbage and CRLF survive untouched.
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

/** One stretch of the file: free text, or an item's bullet (its exact bytes either way). */
export type ParkedPart =
  | { kind: "text"; raw: string }
  | { kind: "item"; raw: string; item: ParkedItem };

/** A parsed PARKED.md. Treat as immutable: the edit functions return a new one. */
export interface ParkedDoc {
  /** The open items, in file order. */
  items: ParkedItem[];
  /** Every part of the file in order; concatenating their `raw` gives the file back. */
  parts: ParkedPart[];
  /** The line ending new lines are written with (the file's first one; LF for a new file). */
  eol: "\n" | "\r\n";
}

const BULLET = /^ ?[-*+][ \t]+(?=\S)/;
const HEADING = /^ {0,3}#/;
const FENCE = /^ {0,3}(```|~~~)/;
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

/** The slug of a canonical bullet (`- **slug** …`) without parsing the rest; else undefined. */
function quickSlug(raw: string): string | undefined {
  if (!raw.startsWith("- **")) return undefined;
  const end = raw.indexOf("**", 4);
  if (end < 0) return undefined;
  const inner = raw.slice(4, end);
  return SIMPLE_SLUG.test(inner) ? inner : undefined;
}

/**
 * An item whose fields are read from its bullet only when first asked for: `park` and `drop`
 * on a 10,000-item file need every slug but the fields of one or two bullets.
 */
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

/** Splits text into lines that keep their endings (`\n` or `\r\n`); the last may have none. */
function splitLines(text: string): string[] {
  const out: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl + 1;
    out.push(text.slice(pos, end));
    pos = end;
  }
  return out;
}

function content(line: string): string {
  if (!line.endsWith("\n")) return line;
  return line.endsWith("\r\n") ? line.slice(0, -2) : line.slice(0, -1);
}

/** What a line is, by its first characters (regexes only where those allow a match). */
function lineKind(c: string): "fence" | "bullet" | "heading" | "comment" | "blank" | "other" {
  const ch = c.charCodeAt(0);
  // space, backtick, tilde
  if ((ch === 32 || ch === 96 || ch === 126) && FENCE.test(c)) return "fence";
  // -, *, +, space
  if ((ch === 45 || ch === 42 || ch === 43 || ch === 32) && BULLET.test(c)) return "bullet";
  if (!/\S/.test(c)) return "blank";
  if ((ch === 35 || ch === 32) && HEADING.test(c)) return "heading";
  if (c.trimStart().startsWith("<!--")) return "comment";
  return "other";
}

/** Parses PARKED.md. Never throws; any input renders back byte-exactly. */
export function parseParked(text: string): ParkedDoc {
  const str = typeof text === "string" ? text : "";
  const parts: ParkedPart[] = [];
  const items: ParkedItem[] = [];
  let textBuf = "";
  let bulletRaw = "";
  let bulletLine = 0;
  let fenced = false;
  let lineNo = 0;
  let eol: ParkedDoc["eol"] = "\n";
  for (let pos = 0; pos < str.length;) {
    const nl = str.indexOf("\n", pos);
    const end = nl === -1 ? str.length : nl + 1;
    const raw = str.slice(pos, end);
    pos = end;
    lineNo++;
    if (lineNo === 1 && raw.endsWith("\r\n")) eol = "\r\n";
    const kind = lineKind(content(raw));
    if (!fenced && kind === "bullet") {
      if (bulletLine) {
        const item = new LazyItem(bulletRaw, bulletLine);
        parts.push({ kind: "item", raw: bulletRaw, item });
        items.push(item);
      } else if (textBuf) {
        parts.push({ kind: "text", raw: textBuf });
        textBuf = "";
      }
      bulletRaw = raw;
      bulletLine = lineNo;
      continue;
    }
    if (!fenced && bulletLine && kind === "other") {
      bulletRaw += raw; // a continuation line of the open bullet
      continue;
    }
    if (kind === "fence") fenced = !fenced;
    if (bulletLine) {
      const item = new LazyItem(bulletRaw, bulletLine);
      parts.push({ kind: "item", raw: bulletRaw, item });
      items.push(item);
      bulletLine = 0;
    }
    textBuf += raw;
  }
  if (bulletLine) {
    const item = new LazyItem(bulletRaw, bulletLine);
    parts.push({ kind: "item", raw: bulletRaw, item });
    items.push(item);
  } else if (textBuf) parts.push({ kind: "text", raw: textBuf });
  return { items, parts, eol };
}

/** The file's text: the parts' exact bytes, concatenated. */
export function renderParked(doc: ParkedDoc): string {
  return doc.parts.map((p) => p.raw).join("");
}

/** An empty PARKED.md (what a missing file parses as). */
export function emptyParked(): ParkedDoc {
  return { items: [], parts: [], eol: "\n" };
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** A bullet part (its item's line is set by {@link assemble}). */
function itemPart(raw: string): ParkedPart {
  return { kind: "item", raw, item: new LazyItem(raw, 0) };
}

/**
 * A document from edited parts, without re-parsing: the edits only ever insert, replace or remove
 * whole bullets next to lines that end a bullet anyway, so the parts stay what a parse would find;
 * only line numbers move, and items whose line moved are renumbered.
 */
function assemble(parts: ParkedPart[], eol: ParkedDoc["eol"]): ParkedDoc {
  let line = 1;
  const items: ParkedItem[] = [];
  const out = parts.map((p) => {
    let part = p;
    if (p.kind === "item") {
      if (p.item.line !== line) {
        part = { kind: "item", raw: p.raw, item: new LazyItem(p.raw, line) };
      }
      items.push((part as { item: ParkedItem }).item);
    }
    line += countNewlines(p.raw);
    return part;
  });
  return { items, parts: out, eol };
}

/** The index of the first item with `slug`, or -1. */
export function findParked(doc: ParkedDoc, slug: string): number {
  return doc.items.findIndex((i) => i.slug === slug);
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
  const eol = doc.eol;
  const parts = doc.parts.slice();
  const at = parts.findIndex((p) => p.kind === "item" && p.item.slug === fields.slug);
  if (at >= 0) {
    const old = (parts[at] as { item: ParkedItem }).item;
    const merged: ParkedFields = {
      slug: fields.slug,
      summary: fields.summary,
      raised: old.raised ?? fields.raised,
      why: fields.why || old.why,
      next: fields.next || old.next,
    };
    const raw = parts[at].raw;
    const ending = raw.endsWith("\r\n") ? "\r\n" : raw.endsWith("\n") ? "\n" : "";
    parts[at] = itemPart(formatBullet(merged) + ending);
    const out = assemble(parts, doc.eol);
    return { doc: out, item: out.items[findParked(out, fields.slug)], updated: true };
  }
  const bullet = formatBullet(fields) + eol;
  let lastItem = -1;
  parts.forEach((p, i) => {
    if (p.kind === "item") lastItem = i;
  });
  if (parts.length === 0) {
    parts.push({ kind: "text", raw: `${PARKED_HEADER}${eol}${eol}` }, itemPart(bullet));
  } else if (lastItem >= 0) {
    const prev = parts[lastItem];
    if (!prev.raw.endsWith("\n")) parts[lastItem] = itemPart(prev.raw + eol);
    parts.splice(lastItem + 1, 0, itemPart(bullet));
  } else {
    // No items yet: append at the end, re-parsing to be sure the bullet is not swallowed by a
    // fence the file leaves open (then the fence is closed first).
    const text = renderParked(doc);
    const lastLine = content(splitLines(text).pop() ?? "");
    let sep = text.endsWith("\n") ? "" : eol;
    if (lastLine.trim() !== "" || sep) sep += eol;
    let out = parseParked(text + sep + bullet);
    if (out.items.length === 0) out = parseParked(`${text}${sep}\`\`\`${eol}${eol}${bullet}`);
    return { doc: { ...out, eol }, item: out.items[out.items.length - 1], updated: false };
  }
  const out = assemble(parts, eol);
  const found = out.items.filter((i) => i.slug === fields.slug);
  return { doc: out, item: found[found.length - 1], updated: false };
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
  const at = doc.parts.findIndex((p) =>
    p.kind === "item" && (typeof which === "string" ? p.item.slug === which : p.item === which)
  );
  if (at < 0) return { doc };
  const removed = (doc.parts[at] as { item: ParkedItem }).item;
  const parts = doc.parts.slice();
  const raw = parts[at].raw;
  parts.splice(at, 1);
  // A last bullet without a line ending leaves the previous line's ending dangling: drop it.
  if (!raw.endsWith("\n") && at === parts.length && at > 0) {
    const prev = parts[at - 1];
    const trimmed = prev.raw.replace(/\r?\n$/, "");
    parts[at - 1] = prev.kind === "item" ? itemPart(trimmed) : { kind: "text", raw: trimmed };
  }
  return { doc: assemble(parts, doc.eol), removed };
}

/** A slug for a new item that does not collide with another item's: `-2`, `-3`, … appended. */
export function uniqueSlug(doc: ParkedDoc, base: string): string {
  const taken = new Set(doc.items.map((i) => i.slug));
  if (!taken.has(base)) return base;
  for (let n = 2;; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
