/**
 * What SessionEnd glances at before it decides anything — "did this session dump?", "did it work
 * after?" — cheaply, since every `/clear` and exit pays for it:
 *
 * - the store's documents of one agent session (front matter `session:`): one listing, a
 *   substring test per document before its front matter is read;
 * - the transcript's tail: whether anything a handover carries (a file written, a task, a commit)
 *   happened after a moment, from the raw lines, no reader.
 * @module
 */

import { splitFrontMatter } from "../store/front_matter.ts";
import { parseStamp } from "../store/time.ts";

/** The title of the section session_end.ts appends (since.ts builds it). */
export const SINCE_TITLE = "Since the dump";

/** A document of the store that came from one session. */
export interface SessionDoc {
  slug: string;
  fields: Record<string, string>;
  /** `created` in ms, NaN when it is missing or not a stamp. */
  created: number;
  /** The document's text as read. */
  text: string;
}

/**
 * The store's documents that say they came from `session` (front matter `session:`), newest
 * first. Hidden files and other names are never documents; a symlinked or unreadable one is
 * passed over (readDoc's confinement applies when it is read whole).
 */
export function sessionDocs(dir: string, session: string): SessionDoc[] {
  const found: SessionDoc[] = [];
  for (const [name, kind] of listFiles(dir) ?? []) {
    // Regular files only; hidden names (temp files, the compaction card) are never documents.
    if (kind !== "file" || !name.endsWith(".md") || name.startsWith(".")) continue;
    const slug = name.slice(0, -3);
    const text = readText(`${dir}/${name}`);
    // A cheap test first: most documents are other sessions'.
    if (text === undefined || !text.includes(session)) continue;
    const fields = splitFrontMatter(text)?.fields;
    if (fields?.session !== session) continue;
    found.push({ slug, fields, created: parseStamp(fields.created) ?? NaN, text });
  }
  return found.sort((a, b) => (b.created || 0) - (a.created || 0));
}

/**
 * Whether a document already carries the "Since the dump" section: a line `## Since the dump`
 * (trailing blanks allowed).
 */
export function hasSince(text: string): boolean {
  return SINCE_LINE.test(text);
}

const SINCE_LINE = new RegExp(`(^|\\n)## ${SINCE_TITLE}[ \\t]*\\r?\\n`);

/** A file's text, or undefined when it cannot be read. */
function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** A directory's entries (a regular file or other), or undefined when it cannot be listed. */
function listFiles(dir: string): Map<string, string> | undefined {
  try {
    const names = new Map<string, string>();
    for (const e of Deno.readDirSync(dir)) names.set(e.name, e.isFile ? "file" : "other");
    return names;
  } catch {
    return undefined;
  }
}

/** How much of the file's end the tail check reads. */
export const TAIL_BYTES = 256 * 1024;

const STAMP_KEY = '"timestamp":"';

/**
 * The record's `timestamp` in ms, from the raw line without parsing it: the last
 * `"timestamp":"…"` (Claude Code writes the record's own after its message, so a quoted one
 * inside the message comes earlier). Undefined when the line has none.
 */
export function lineStamp(line: string): number | undefined {
  const at = line.lastIndexOf(STAMP_KEY);
  if (at === -1) return undefined;
  const from = at + STAMP_KEY.length;
  const end = line.indexOf('"', from);
  if (end === -1 || end - from > 40) return undefined;
  const ms = Date.parse(line.slice(from, end));
  return Number.isNaN(ms) ? undefined : ms;
}

/** Tool calls whose effect a handover carries (lib/transcript/claude.ts reads them). */
const WORK = /"name":"(?:Write|Edit|MultiEdit|NotebookEdit|TaskCreate|TaskUpdate|TodoWrite)"/;

/** Whether a raw line may hold work: a tool call that writes, a task, or a `git commit`. */
export function mayBeWork(line: string): boolean {
  return line.includes('"tool_use"') && (WORK.test(line) || /\bgit\b.{0,200}\bcommit\b/.test(line));
}

/**
 * From the last {@link TAIL_BYTES} of the file: true when a line after `afterMs` may hold work,
 * false when none does and the tail reaches back past `afterMs`, undefined when the tail alone
 * cannot tell (the whole file decides). Throws when the file cannot be read.
 */
export function workInTail(path: string, afterMs: number): boolean | undefined {
  const { text, from } = readTail(path, TAIL_BYTES);
  const lines = (text ?? "").split("\n");
  if (from > 0) lines.shift(); // cut mid-line
  for (let i = lines.length - 1; i >= 0; i--) {
    const ms = lineStamp(lines[i]);
    if (ms !== undefined && ms <= afterMs) return false;
    if (mayBeWork(lines[i])) return true;
  }
  return from === 0 ? false : undefined;
}

/**
 * The last `max` bytes of a file, decoded, and the offset they start at (0: the whole file).
 * With `wholeOnly`, a longer file is not read: `text` is undefined. Throws when the file cannot
 * be read.
 *
 * The size comes from seeking to the end; a file within `max` is read whole.
 */
export function readTail(
  path: string,
  max: number,
  wholeOnly = false,
): { text: string | undefined; from: number } {
  const file = Deno.openSync(path, { read: true });
  try {
    const size = file.seekSync(0, Deno.SeekMode.End);
    const from = Math.max(0, size - max);
    if (from === 0) {
      // One native read and decode; a file that grew since the seek is read whole: more lines.
      return { text: Deno.readTextFileSync(path), from };
    }
    if (wholeOnly) return { text: undefined, from };
    file.seekSync(from, Deno.SeekMode.Start);
    const buf = new Uint8Array(size - from);
    let at = 0;
    while (at < buf.length) {
      const n = file.readSync(buf.subarray(at));
      if (n === null) break;
      at += n;
    }
    return { text: new TextDecoder().decode(buf.subarray(0, at)), from };
  } finally {
    file.close();
  }
}
