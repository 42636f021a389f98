/**
 * The automatic draft SessionEnd writes for a session that ended without a dump: `recover`'s
 * draft (lib/handover/recover.ts `recoverMarkdown`: the first and last substantive requests,
 * deferrals, open questions, the last assistant text) completed with the files the transcript
 * shows touched and its unfinished tasks, as an ordinary store document marked `draft: auto` with
 * the session it came from. No git: the hook may read the project and write its store, nothing
 * else, so everything comes from the transcript and the files on disk.
 * @module
 */

import { isDir, join } from "../fs/path.ts";
import { checkoutAt, findCheckout } from "../store/repository.ts";
import type { Evidence } from "../handover/evidence/model.ts";
import { withTranscript } from "../handover/evidence/merge.ts";
import { renderHandover } from "../handover/document.ts";
import { recoverMarkdown } from "../handover/recover.ts";
import { composeSections } from "../handover/write.ts";
import { redactLazily } from "../secrets/lazy.ts";
import { unnamedSlug } from "../store/slug.ts";
import type { Store } from "../store/store.ts";
import { isoStamp } from "../store/time.ts";
import { isUnfinished, type TranscriptFacts } from "../transcript/facts.ts";
import { normalizePath, relativeTo } from "../transcript/paths.ts";

/** What marks a draft's slug (`<branch>-<stamp>-draft`). */
export const DRAFT_SUFFIX = "-draft";

/**
 * Whether a session left anything worth a handover: a substantive request (not only "thanks",
 * "ok"), a file touched inside the project, or an unfinished task. A session that only said hello
 * or acknowledged leaves nothing to carry, and no draft is written for it.
 */
export function worthCarrying(facts: TranscriptFacts): boolean {
  return facts.firstSubstantive !== undefined || facts.files.some((f) => !f.outside) ||
    facts.tasks.some(isUnfinished);
}

/**
 * Whether the transcript's session ran in this project: its working directory is the project
 * root or below it. A transcript that names no working directory is taken at its word (the
 * agent handed it over for this project).
 */
export function sameProject(facts: Pick<TranscriptFacts, "cwd">, root: string): boolean {
  if (facts.cwd === undefined) return true;
  return relativeTo(normalizePath(facts.cwd), normalizePath(root)) !== undefined;
}

/**
 * Whether the transcript's session ran in the linked worktree the store records (`worktree:`, a
 * path relative to the main worktree or absolute): a sibling worktree removed before SessionEnd,
 * whose hook then starts in the main checkout, is still this repository's session.
 */
export function inWorktree(facts: Pick<TranscriptFacts, "cwd">, store: Store): boolean {
  const label = store.worktree;
  if (label === undefined) return false;
  const top = /^([\\/]|[A-Za-z]:[\\/])/.test(label) ? label : join(store.home ?? store.root, label);
  return sameProject(facts, top);
}

/**
 * The branch git's HEAD names, read from the file (no git process: the hook may not run one), and
 * redacted as it is read, before a slug, a file name or a `branch:` line is made of it: `none`
 * outside git, `detached` for a detached or unreadable HEAD.
 */
export async function headBranch(top: string | undefined): Promise<string> {
  return (await redactLazily(rawHeadBranch(top))).text;
}

/**
 * The branch a session worked on: its transcript's (`gitBranch`) when the session ran in another
 * checkout than `top` — a worktree removed before SessionEnd, whose hook then starts in the main
 * checkout — else HEAD's ({@link headBranch}). Redacted like HEAD's.
 */
export async function sessionBranch(
  facts: Pick<TranscriptFacts, "cwd" | "gitBranch">,
  top: string | undefined,
): Promise<string> {
  const elsewhere = facts.cwd !== undefined && facts.gitBranch !== undefined &&
    (!isDir(facts.cwd) || findCheckout(facts.cwd)?.top !== top);
  return elsewhere ? (await redactLazily(facts.gitBranch!)).text : await headBranch(top);
}

/** {@link headBranch} as the file says it. */
function rawHeadBranch(top: string | undefined): string {
  if (top === undefined) return "none";
  try {
    // A worktree's HEAD is in its own git dir; a submodule's in the one its `.git` file names.
    const checkout = checkoutAt(top);
    const gitDir = checkout.linked ?? checkout.common;
    const head = Deno.readTextFileSync(join(gitDir, "HEAD")).trim();
    const m = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    return m ? m[1] : "detached";
  } catch {
    return "detached";
  }
}

/** What {@link composeDraft} needs besides the facts. */
export interface DraftInputs {
  store: Store;
  /** The git top-level (touched paths are relative to it), if any. */
  top?: string;
  branch: string;
  now: Date;
  session: string;
  /** The handover the session started from, if any (`parent:`). */
  parent?: string;
  /** How a touched file stands now: `reverted` when it is gone. */
  status?: (path: string) => "reverted" | "edited";
}

/** The evidence of a draft: the transcript's files and tasks, the parked items; no git. */
export function draftEvidence(facts: TranscriptFacts, d: DraftInputs): Evidence {
  const base: Evidence = {
    root: d.store.root,
    store: d.store.dir,
    git: d.top !== undefined,
    branch: d.branch,
    created: isoStamp(d.now),
    suggestedSlug: "",
    since: facts.startedAt ?? isoStamp(d.now),
    files: [],
    untracked: [],
    commits: [],
    artifacts: [],
    // Parked items stay in PARKED.md (`list` shows them): a draft carries the session's own.
    outstanding: [],
  };
  return withTranscript(base, facts, d.status);
}

/** The draft's base slug: an unnamed dump's, marked as a draft. */
export function draftSlug(branch: string, now: Date): string {
  return unnamedSlug(branch, now) + DRAFT_SUFFIX;
}

/** The draft document for `slug` (front matter with `draft: auto` and `session:`, then the body). */
export function composeDraft(facts: TranscriptFacts, d: DraftInputs, slug: string): string {
  const ev = draftEvidence(facts, d);
  const { sections } = composeSections(recoverMarkdown(facts), ev);
  return renderHandover(
    {
      slug,
      created: ev.created,
      branch: d.branch,
      session: d.session,
      worktree: d.store.worktree,
      draft: true,
      parent: d.parent,
    },
    sections,
  );
}
