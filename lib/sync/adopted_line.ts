/**
 * The one line that says a store left inside a linked worktree was moved into the repository's
 * (lib/sync/adopt.ts), for the CLI and `doctor` alike. Apart from the adoption so a command that
 * finds nothing to move loads nothing of the merge.
 * @module
 */

/** What {@link adoptedLine} reports of an adoption. */
export interface AdoptedSummary {
  from: string;
  docs: string[];
  parked: number;
  removed: boolean;
  kept: string[];
}

/** "session: moved …" — what came in and whether the worktree's store is gone. */
export function adoptedLine(a: AdoptedSummary, to: string): string {
  const what = `${a.docs.length} handover${a.docs.length === 1 ? "" : "s"}, ${a.parked} parked ` +
    `item${a.parked === 1 ? "" : "s"}`;
  return a.removed
    ? `session: moved the store left in this worktree (${a.from}) into the repository's ` +
      `(${to}): ${what}`
    : `session: merged the store left in this worktree (${a.from}) into the repository's ` +
      `(${to}): ${what}; it stays, ${
        a.kept.length > 0
          ? `since it also holds ${a.kept.join(", ")}: move or remove that, then run again`
          : "since it changed meanwhile: the next run takes the rest"
      }`;
}
