/**
 * The PARKED.md bullet grammar: what an open loop looks like on one bullet, read and written as
 * text. Pure, no IO; the byte-level index of a whole file is ./scanner.ts.
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

import { oneLine, slugify } from "../store/slug.ts";

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
// Case-insensitive by character classes, not the `i` flag: with `i` the scan is many times slower,
// and `list` runs this over every bullet (docs/PERFORMANCE.md). Same matches:
// without `u`, `i` never maps non-ASCII letters onto these ASCII ones.
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
 * and one native match per line costs a fraction of the general reader's steps.
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

/** One parked item as a line: `slug — summary (raised YYYY-MM-DD)`. */
export function itemLine(item: ParkedItem): string {
  const raised = item.raised ? ` (raised ${item.raised})` : "";
  return `${item.slug} — ${item.summary}${raised}`;
}
