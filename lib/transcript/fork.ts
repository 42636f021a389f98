/**
 * Where a forked session came from. Claude Code's `/branch` (and `--fork-session`) starts a new
 * session whose transcript opens with a copy of its parent's records, each carrying
 * `forkedFrom.sessionId`: so a fork knows the session whose conversation it continues, and a
 * handover that session dumped is the fork's own too.
 * @module
 */

import { readHead } from "./tail.ts";

/** How much of a transcript's start is read for the parent: the copied records come first. */
export const FORK_HEAD_BYTES = 256 * 1024;

/** The sessions a transcript's records say it was forked from, in order of first mention. */
export function forkParents(head: string): string[] {
  const parents: string[] = [];
  for (const line of head.split("\n")) {
    if (!line.includes('"forkedFrom"')) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue; // the head's last line may be cut
    }
    const from = (record as { forkedFrom?: { sessionId?: unknown } } | null)?.forkedFrom;
    const id = from?.sessionId;
    if (typeof id === "string" && id !== "" && !parents.includes(id)) parents.push(id);
  }
  return parents;
}

/** The sessions the transcript at `path` was forked from (none when it cannot be read). */
export function forkParentsOf(path: string): string[] {
  try {
    return forkParents(readHead(path, FORK_HEAD_BYTES));
  } catch {
    return [];
  }
}
