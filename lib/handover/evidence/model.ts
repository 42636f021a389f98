/**
 * The evidence model: what a dump is built from and what `evidence --json` prints as is (its shape
 * is documented in docs/CLI.md and must stay stable), plus the one rule every source shares —
 * which paths are the project's own state rather than the session's work.
 * @module
 */

import type { Commit } from "./git.ts";

/** A file the session changed, with the columns the files table needs. */
export interface EvidenceFile {
  /** Path relative to the repository's top-level (absolute when outside it). */
  path: string;
  /** `+N/-M`, `binary`, `uncommitted-new`, or (transcript only) `edited`. */
  change: string;
  /**
   * `wip` for uncommitted work, `done` for work committed during the session, `reverted` for a
   * file the transcript shows edited that has no diff now.
   */
  state: "wip" | "done" | "reverted";
  /** The newest session commit touching it, else `uncommitted`, or `transcript:L<n>`. */
  ref: string;
  /** Where the fact came from. */
  source: "git" | "transcript";
  /**
   * The transcript line of the session's last touch of the file, when a transcript shows it (for
   * a file git shows too: the session's own edit, not one from before it).
   */
  line?: number;
}

/** An artifact directory changed within a day. */
export interface Artifact {
  /** Directory relative to the project root, e.g. `.temp`. */
  dir: string;
  /** How many files in it changed within the day. */
  files: number;
  /** The newest change, ISO 8601. */
  newest: string;
}

/** An open item for `## Outstanding`: a parked bullet, or an unfinished task of the session. */
export interface OpenItem {
  slug: string;
  /** The bullet as it goes into `## Outstanding` (without the leading `- `). */
  text: string;
  source: "parked" | "task";
}

/** Everything `dump` uses, and what `evidence` shows. */
export interface Evidence {
  /** The project root (the store's root). */
  root: string;
  /** The store directory. */
  store: string;
  /** The linked worktree the work is in (lib/store/repository.ts `worktreeLabel`). */
  worktree?: string;
  /** Whether the project is inside a git repository. */
  git: boolean;
  /** The branch name, `detached`, or `none` outside git. */
  branch: string;
  /** The `created` stamp a dump now would get. */
  created: string;
  /** The slug an unnamed dump now would get. */
  suggestedSlug: string;
  /** Where the session is taken to start (commits since then count), ISO 8601. */
  since: string;
  /** Changed files: uncommitted changes, untracked files, files of session commits. */
  files: EvidenceFile[];
  /** Untracked, not-ignored files (also in `files` as `uncommitted-new`). */
  untracked: string[];
  /** Commits since `since`, newest first, with their files. */
  commits: Commit[];
  /** Artifact directories changed within a day. */
  artifacts: Artifact[];
  /** Open items: the parked bullets, then unfinished transcript tasks. */
  outstanding: OpenItem[];
  /** The transcript the facts came from, when one was merged. */
  transcript?: string;
  /** Why no transcript was merged (none found, unreadable). */
  transcriptNote?: string;
  /** Files the transcript shows written outside the project (absolute paths). */
  outside?: string[];
}

/** Paths under the project's own state (the store, sweep's output) are not session work. */
export function isOwnState(path: string): boolean {
  // Also below a subdirectory: the project root (the store's) may sit inside the git top-level.
  return /(^|\/)(\.claude\/state|\.temp\/session)\//.test(path);
}

/** A line count as the files table and the report show it: `+N/-M`, or `binary`. */
export function countChange(added: number, deleted: number, binary: boolean): string {
  return binary ? "binary" : `+${added}/-${deleted}`;
}
