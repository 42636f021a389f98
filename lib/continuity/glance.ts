/**
 * What SessionEnd glances at before it decides anything — "did this session dump?", "did it work
 * after?" — cheaply, since every `/clear` and exit pays for it:
 *
 * - whether a document already says what came after the dump;
 * - the transcript's tail: whether anything a handover carries (a file written, a task, a commit)
 *   happened after a moment, from the raw lines, no reader.
 *
 * Which transcript files may be opened is lib/transcript/open.ts's rule; the tail is read by
 * lib/transcript/tail.ts. The writers (_write.ts,
 * after.ts, since_dump.ts) use the same rules.
 * @module
 */

import { readTail } from "../transcript/tail.ts";

/** The title of the section session_end.ts appends (since_dump.ts builds it). */
export const SINCE_TITLE = "Since the dump";

/**
 * Whether a document already carries the "Since the dump" section: a line `## Since the dump`
 * (trailing blanks allowed).
 */
export function hasSince(text: string): boolean {
  return SINCE_LINE.test(text);
}

const SINCE_LINE = new RegExp(`(^|\\n)## ${SINCE_TITLE}[ \\t]*\\r?\\n`);

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
