/**
 * The pure merge: gathered facts in, {@link Evidence} out. Git's changes, untracked files and
 * session commits become the files list ({@link filesFromGit}); {@link buildEvidence} adds the
 * stamps, the suggested slug, the artifacts and the parked items; {@link withTranscript} folds
 * the transcript's facts in (files git cannot see, unfinished tasks). No IO here: the collectors
 * and collect.ts gather, this file only combines.
 * @module
 */

import type { GitFacts } from "./git.ts";
import {
  type Artifact,
  countChange,
  type Evidence,
  type EvidenceFile,
  isOwnState,
  type OpenItem,
} from "./model.ts";
import { alnumWords, chooseSlug, oneLine } from "../../store/slug.ts";
import type { Store } from "../../store/store.ts";
import { isoStamp } from "../../store/time.ts";
import type { TranscriptFacts } from "../../transcript/facts.ts";

/** The changed files from git facts: uncommitted first, then files of session commits. */
export function filesFromGit(facts: GitFacts): EvidenceFile[] {
  const byPath = new Map<string, EvidenceFile>();
  const lastCommit = new Map<string, string>();
  const committed = new Map<string, { added: number; deleted: number; binary: boolean }>();
  // Commits are newest first: the first hash seen for a path is its newest.
  for (const c of facts.commits) {
    for (const f of c.files) {
      if (!lastCommit.has(f.path)) lastCommit.set(f.path, c.hash);
      const sum = committed.get(f.path) ?? { added: 0, deleted: 0, binary: false };
      committed.set(f.path, {
        added: sum.added + f.added,
        deleted: sum.deleted + f.deleted,
        binary: sum.binary || f.binary,
      });
    }
  }
  for (const f of facts.changes) {
    byPath.set(f.path, {
      path: f.path,
      change: countChange(f.added, f.deleted, f.binary),
      state: "wip",
      ref: lastCommit.get(f.path) ?? "uncommitted",
      source: "git",
    });
  }
  for (const path of facts.untracked) {
    if (!byPath.has(path)) {
      byPath.set(path, {
        path,
        change: "uncommitted-new",
        state: "wip",
        ref: "uncommitted",
        source: "git",
      });
    }
  }
  for (const [path, sum] of committed) {
    if (!byPath.has(path)) {
      byPath.set(path, {
        path,
        change: countChange(sum.added, sum.deleted, sum.binary),
        state: "done",
        ref: lastCommit.get(path)!,
        source: "git",
      });
    }
  }
  return [...byPath.values()].filter((f) => !isOwnState(f.path));
}

/** Inputs of {@link buildEvidence}, gathered by collect.ts. */
export interface EvidenceInputs {
  store: Store;
  now: Date;
  since: Date;
  git: GitFacts;
  artifacts: Artifact[];
  /** Open parked items. */
  parked: OpenItem[];
  /** Whether a slug is taken (for the suggested slug). */
  exists: (slug: string) => boolean;
}

/** Assembles the evidence from gathered facts (pure). */
export function buildEvidence(inputs: EvidenceInputs): Evidence {
  const { git, now } = inputs;
  const choice = chooseSlug({ branch: git.branch, now, exists: inputs.exists });
  return {
    root: inputs.store.root,
    store: inputs.store.dir,
    ...(inputs.store.worktree === undefined ? {} : { worktree: inputs.store.worktree }),
    git: git.top !== undefined,
    branch: git.branch,
    created: isoStamp(now),
    suggestedSlug: "slug" in choice ? choice.slug : "",
    since: isoStamp(inputs.since),
    files: filesFromGit(git),
    untracked: git.untracked.filter((p) => !isOwnState(p)),
    commits: git.commits,
    artifacts: inputs.artifacts,
    outstanding: inputs.parked,
  };
}

/** Task statuses that mean the task is finished (anything else is outstanding). */
const FINISHED = new Set(["completed", "done", "deleted", "cancelled", "canceled"]);

/**
 * Merges transcript facts into evidence (pure): a file git shows that the transcript shows too
 * gets the transcript's `line`; files the session touched that git does not show are added with
 * ref `transcript:L<n>` — `reverted` when `status` says the file is clean or
 * gone now, else `edited`/`wip` (git cannot see it: ignored, or outside git); files outside the
 * project are listed apart; unfinished tasks become open items after the parked ones.
 */
export function withTranscript(
  ev: Evidence,
  facts: TranscriptFacts,
  status: (path: string) => "reverted" | "edited" = () => "edited",
): Evidence {
  const known = new Map(ev.files.map((f, i) => [f.path, i]));
  const files = [...ev.files];
  const outside: string[] = [];
  for (const t of facts.files) {
    if (t.outside) {
      outside.push(t.path);
      continue;
    }
    const at = known.get(t.path);
    if (at !== undefined) {
      files[at] = { ...files[at], line: t.line };
      continue;
    }
    if (isOwnState(t.path)) continue;
    known.set(t.path, files.length);
    const reverted = status(t.path) === "reverted";
    files.push({
      path: t.path,
      change: "edited",
      state: reverted ? "reverted" : "wip",
      ref: `transcript:L${t.line}`,
      source: "transcript",
      line: t.line,
    });
  }
  const taken = new Set(ev.outstanding.map((o) => o.slug));
  const tasks: OpenItem[] = [];
  for (const task of facts.tasks) {
    if (FINISHED.has(task.status.toLowerCase())) continue;
    let slug = taskSlug(task.subject) || `task-${task.id}`;
    if (taken.has(slug)) slug = `${slug}-${task.id}`;
    taken.add(slug);
    const subject = oneLine(task.subject).replace(/\.$/, ""); // the bullet adds its own period
    tasks.push({
      slug,
      text: `**${slug}** — ${subject}. Why: unfinished task (${task.status}) ` +
        `of the session. Next: finish it or park it.`,
      source: "task",
    });
  }
  return {
    ...ev,
    files,
    outstanding: [...ev.outstanding, ...tasks],
    transcript: facts.path,
    ...(outside.length ? { outside } : {}),
  };
}

/** A short kebab slug for a task subject: its first five words. */
function taskSlug(subject: string): string {
  return alnumWords(subject).slice(0, 5).join("-");
}
