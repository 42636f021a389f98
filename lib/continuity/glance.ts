/**
 * What SessionEnd glances at before it decides anything — "did this session dump?", "did it work
 * after?" — as cheaply as a fresh process allows, since every `/clear` and exit pays for it:
 *
 * - the store's documents of one agent session (front matter `session:`): one listing (often the
 *   one lib/hook/fast.ts `plainStore` made), a substring test per document before any parsing,
 *   and the front matter read as dump writes it by lib/hook/fast.ts, which the hook has loaded
 *   already; any other shape (e.g. quoted values) is lib/store/front_matter.ts's to read, which
 *   the caller hands over only when asked;
 * - the transcript's tail: whether anything a handover carries (a file written, a task, a commit)
 *   happened after a moment, from the raw lines, no reader.
 *
 * One module, importing only lib/hook/fast.ts and the transcript gate (lib/transcript/open.ts:
 * which files may be opened), because in the hook each module costs ~0.13 ms plus ~0.03 ms per
 * KB of code (docs/PERFORMANCE.md); and no regex on the common path, whose first use costs
 * ~0.1–0.25 ms. The writers (_write.ts, after.ts, since.ts) use the same rules.
 * @module
 */

import { dumpStampMs, parseHead } from "../hook/fast.ts";
import { openTranscript } from "../transcript/open.ts";

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

/** Reads front matter of any shape: lib/store/front_matter.ts `splitFrontMatter`'s fields. */
export type FrontMatterReader = (text: string) => Record<string, string> | undefined;

/**
 * The payload's session id when a `session:` field may hold it: lib/store/front_matter.ts
 * `sessionField`, spelled out without its regex (tests/continuity/glance_test.ts holds the two
 * together on generated ids).
 */
export function sessionOf(id: string | undefined): string | undefined {
  if (id === undefined || id.length === 0 || id.length > 128) return undefined;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) continue;
    // `_`, `.`, `:` and `-`, never first.
    if (i === 0 || (c !== 95 && c !== 46 && c !== 58 && c !== 45)) return undefined;
  }
  return id;
}

/**
 * The store's documents that say they came from `session` (front matter `session:`), newest
 * first. Hidden files and other names are never documents; a symlinked or unreadable one is
 * passed over (readDoc's confinement applies when it is read whole). Front matter as dump writes
 * it is read here; any other shape by `general`. Without `general`, undefined when a document
 * that names the session has another shape (the caller loads the reader and asks again).
 */
export function sessionDocs(
  dir: string,
  session: string,
  general: FrontMatterReader,
  names?: Map<string, string>,
): SessionDoc[];
export function sessionDocs(
  dir: string,
  session: string,
  general: FrontMatterReader | undefined,
  names?: Map<string, string>,
): SessionDoc[] | undefined;
export function sessionDocs(
  dir: string,
  session: string,
  general: FrontMatterReader | undefined,
  names: Map<string, string> | undefined = listFiles(dir),
): SessionDoc[] | undefined {
  const found: SessionDoc[] = [];
  for (const [name, kind] of names ?? []) {
    // Regular files only; hidden names (temp files, the compaction card) are never documents.
    if (kind !== "file" || !name.endsWith(".md") || name.startsWith(".")) continue;
    const slug = name.slice(0, -3);
    // The whole document: readTextFileSync decodes natively, cheaper in a fresh process than a
    // partial read through TextDecoder; documents are small (a dump is capped, docs/SPEC.md).
    const head = readText(`${dir}/${name}`);
    // A cheap test first: most documents are other sessions'.
    if (head === undefined || !head.includes(session)) continue;
    let fields = parseHead(head)?.fields;
    if (fields === undefined) {
      if (general === undefined) return undefined;
      fields = general(head);
    }
    if (fields?.session !== session) continue;
    found.push({ slug, fields, created: dumpStampMs(fields.created ?? "") ?? NaN, text: head });
  }
  return found.sort((a, b) => (b.created || 0) - (a.created || 0));
}

/**
 * Whether a document already carries the "Since the dump" section: a line `## Since the dump`
 * (trailing blanks allowed). Spelled out: a regex's first use costs more in the hook.
 */
export function hasSince(text: string): boolean {
  const title = `## ${SINCE_TITLE}`;
  for (let at = text.indexOf(title); at !== -1; at = text.indexOf(title, at + 1)) {
    if (at > 0 && text[at - 1] !== "\n") continue;
    let end = at + title.length;
    while (text[end] === " " || text[end] === "\t") end++;
    if (text[end] === "\r") end++;
    if (text[end] === "\n") return true;
  }
  return false;
}

/** A file's text, or undefined when it cannot be read. */
function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** A directory's entries as lib/hook/fast.ts `plainStore` lists them, or undefined. */
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

/**
 * Tool calls whose effect a handover carries (lib/transcript/claude.ts reads them), and the
 * launch of a subagent (`Task`, `Agent`), whose own transcript may hold such calls.
 */
const WORK =
  /"name":"(?:Write|Edit|MultiEdit|NotebookEdit|TaskCreate|TaskUpdate|TodoWrite|Task|Agent)"/;

/**
 * Whether a raw line may hold work: a tool call that writes, a task, a subagent's launch, or a
 * `git commit`.
 */
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
 * The last `max` bytes of a transcript, decoded, and the offset they start at (0: the whole file).
 * With `wholeOnly`, a longer file is not read: `text` is undefined. Throws when the file cannot
 * be read, or is no transcript to read (lib/transcript/open.ts: a FIFO, a symlink leading out of
 * the transcripts folder).
 *
 * The size comes from seeking to the end, as a stat's first use costs ~0.3 ms; the bytes are read
 * from the handle that was checked, never by the path again.
 */
export function readTail(
  path: string,
  max: number,
  wholeOnly = false,
): { text: string | undefined; from: number } {
  const file = openTranscript(path);
  try {
    const size = file.seekSync(0, Deno.SeekMode.End);
    const from = Math.max(0, size - max);
    if (from > 0 && wholeOnly) return { text: undefined, from };
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
