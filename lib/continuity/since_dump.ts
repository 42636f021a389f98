/**
 * The "Since the dump" section (pure): what a session did after its dump was written — files
 * touched, commits made, tasks created or changed — built from the transcript's facts at the
 * dump and at the end. SessionEnd appends it to the still unconsumed dump (session_end.ts), so
 * the handover restored after `/clear` is not older than the session it hands over.
 * @module
 */

import type { Mention, Task, TranscriptFacts } from "../transcript/facts.ts";
import { isOwnState } from "../handover/evidence/model.ts";
import { codeSpan } from "../handover/files_table.ts";
import { SINCE_TITLE } from "./glance.ts";
import { clip } from "../text/cut.ts";
import { DROPPED } from "../handover/document.ts";

/** At most this many of each kind are listed; the rest are counted. */
export const SINCE_MAX = 10;

/** What the transcript shows around the dump (lib/continuity/after.ts reads it). */
export interface SinceFacts {
  /** The facts as they stood when the dump was written. */
  before: TranscriptFacts;
  /** The facts at the end of the session. */
  after: TranscriptFacts;
  /** The first transcript line after the dump. */
  fromLine: number;
  /** Commits the session made after the dump (the command's message, or the command). */
  commits: Mention[];
}

/** `text` on one line, cut at `max` characters. */
function cut(text: string, max = 160): string {
  const one = text.replace(/\s+/g, " ").trim();
  return clip(one, max);
}

/** `items` as one bullet's list: the first {@link SINCE_MAX}, then how many more. */
function listed(items: string[]): string {
  const shown = items.slice(0, SINCE_MAX).join(", ");
  const rest = items.length - SINCE_MAX;
  return rest > 0 ? `${shown} (and ${rest} more)` : shown;
}

/** Tasks created after the dump, or whose status or subject changed since. */
export function changedTasks(before: Task[], after: Task[]): Task[] {
  const was = new Map(before.map((t) => [t.id, t]));
  return after.filter((t) => {
    const b = was.get(t.id);
    return b === undefined || b.status !== t.status || b.subject !== t.subject;
  });
}

/**
 * The section's markdown (`## Since the dump` and its bullets), or undefined when the session
 * did nothing after the dump that a handover carries.
 */
export function sinceSection(s: SinceFacts): string | undefined {
  const files = s.after.files
    .filter((f) => f.line >= s.fromLine && !isOwnState(f.path))
    .map((f) => codeSpan(cut(f.path, 200)));
  const tasks = changedTasks(s.before.tasks, s.after.tasks)
    .map((t) => `${cut(t.subject || `task ${t.id}`)} (${t.status})`);
  const commits = s.commits.map((c) => `"${cut(c.text)}"`);
  if (files.length + tasks.length + commits.length === 0) return undefined;
  const out = [
    `## ${SINCE_TITLE}`,
    "",
    "The session kept working after this handover was written (from its transcript, at the " +
    "session's end; the sections above predate it):",
    "",
  ];
  if (files.length) out.push(`- Files touched: ${listed(files)}`);
  if (commits.length) out.push(`- Commits: ${listed(commits)}`);
  if (tasks.length) out.push(`- Tasks: ${listed(tasks)}`);
  return out.join("\n");
}

/**
 * `text` (a whole document) with `section` placed after the agent's sections and before the
 * closing `## Dropped deliberately`, which closes every document (SPEC); at the end when the
 * document has none. Every byte of `text` stays; `section` takes the document's line ends.
 */
export function withSince(text: string, section: string): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const block = section.replace(/(?:\r?\n)+$/, "").replaceAll("\n", eol);
  const headings = [...text.matchAll(/^## (.*?)\r?$/gm)];
  const last = headings.at(-1);
  if (last && last[1].trim() === DROPPED && last.index !== undefined) {
    const before = text.slice(0, last.index);
    return before + block + eol + eol + text.slice(last.index);
  }
  return text.replace(/(?:\r?\n)*$/, eol + eol) + block + eol;
}
