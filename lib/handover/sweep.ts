/**
 * `sweep`: candidates for unlanded work, from every source that knows some, as one numbered
 * "Unlanded" table. Pure at the core: sources turn their facts into {@link Candidate}s; the table
 * and the JSON only ever see candidates, so a new source (the transcript's tasks, questions and
 * deferrals) plugs in without touching them. One IO edge, {@link sweepProject}, gathers the facts
 * for the modes that sweep (`sweep`, and `park` with nothing to park).
 * @module
 */

import { isOwnState } from "./evidence/model.ts";
import {
  type FileStat,
  gitFacts,
  type Stash,
  stashes,
  type Unpushed,
  unpushed,
} from "./evidence/git.ts";
import type { ParkedItem } from "../parked/grammar.ts";
import { oneLine } from "../store/slug.ts";
import { readParked } from "../parked/file.ts";
import type { RedactionCounts } from "../secrets/redact.ts";
import type { Store } from "../store/store.ts";
import { isUnfinished, latestOfEach, type TranscriptFacts } from "../transcript/facts.ts";
import { loadTranscript } from "../transcript/load.ts";
import { sweptLine } from "./unlanded.ts";
import type { LocateInputs } from "../transcript/locate.ts";
import { clip } from "../text/cut.ts";

/** Where a candidate came from; the table's "Kind" column. */
export type CandidateKind =
  | "parked"
  | "uncommitted"
  | "untracked"
  | "stash"
  | "unpushed"
  | "no-upstream"
  | "task"
  | "question"
  | "deferral";

/** One piece of possibly unlanded work. */
export interface Candidate {
  kind: CandidateKind;
  /** What is open, one line. */
  what: string;
  /** Where it was found: `PARKED.md:3`, `git diff HEAD`, `git stash`, `transcript:L120`, … */
  where: string;
  /** A stable handle: the parked slug, a path, a commit hash, a stash ref, a task id. */
  ref?: string;
  /** The transcript line it came from (1-based), for transcript candidates. */
  line?: number;
  /** A task's status as the transcript last gave it (`pending`, `in_progress`). */
  status?: string;
}

/** The order of kinds in the table: the agent's own open loops first, then the repository's. */
export const KIND_ORDER: CandidateKind[] = [
  "parked",
  "task",
  "question",
  "deferral",
  "uncommitted",
  "untracked",
  "stash",
  "unpushed",
  "no-upstream",
];

/** Open parked items as candidates. */
export function fromParked(items: ParkedItem[]): Candidate[] {
  return items.map((item) => ({
    kind: "parked",
    what: `${item.slug} — ${item.summary}${item.next ? ` (next: ${item.next})` : ""}`,
    where: `PARKED.md:${item.line}`,
    ref: item.slug,
  }));
}

/** The git facts sweep reads. */
export interface SweepGit {
  /** Uncommitted changes to tracked files. */
  changes: FileStat[];
  /** Untracked, not-ignored files. */
  untracked: string[];
  stashes: Stash[];
  unpushed: Unpushed;
  /** The current branch (`detached` for a detached HEAD). */
  branch: string;
}

/** Uncommitted changes, untracked files, stashes and unpushed commits as candidates. */
export function fromGit(g: SweepGit, isOwn: (path: string) => boolean = () => false): Candidate[] {
  const out: Candidate[] = [];
  for (const f of g.changes) {
    if (isOwn(f.path)) continue;
    const change = f.binary ? "binary" : `+${f.added}/-${f.deleted}`;
    out.push({
      kind: "uncommitted",
      what: `${f.path} (${change})`,
      where: "git diff HEAD",
      ref: f.path,
    });
  }
  for (const path of g.untracked) {
    if (isOwn(path)) continue;
    out.push({ kind: "untracked", what: path, where: "git ls-files --others", ref: path });
  }
  for (const s of g.stashes) {
    out.push({ kind: "stash", what: `${s.ref}: ${s.subject}`, where: "git stash", ref: s.ref });
  }
  const up = g.unpushed;
  for (const c of up.commits) {
    out.push({
      kind: "unpushed",
      what: `${c.hash} ${c.subject}`,
      where: `${g.branch} → ${up.upstream}`,
      ref: c.hash,
    });
  }
  if (!up.upstream && up.remotes && g.branch !== "detached" && g.branch !== "none") {
    out.push({
      kind: "no-upstream",
      what: `branch ${g.branch} has no upstream: its commits are not pushed anywhere`,
      where: "git rev-parse @{upstream}",
      ref: g.branch,
    });
  }
  return out;
}

/** The transcript's unfinished tasks, questions and deferrals as candidates (with their line). */
export function fromTranscript(facts: TranscriptFacts): Candidate[] {
  const out: Candidate[] = [];
  for (const t of facts.tasks) {
    if (!isUnfinished(t)) continue;
    out.push({
      kind: "task",
      what: `${oneLine(t.subject)} (${t.status})`,
      where: `transcript:L${t.line}`,
      ref: t.id,
      line: t.line,
      status: t.status,
    });
  }
  for (
    const [kind, list] of [["question", facts.questions], ["deferral", facts.deferrals]] as const
  ) {
    // A text said again and again is one candidate, at its latest mention.
    for (const { latest: m } of latestOfEach(list)) {
      out.push({ kind, what: oneLine(m.text), where: `transcript:L${m.line}`, line: m.line });
    }
  }
  return out;
}

/** Candidates in table order: by kind (see {@link KIND_ORDER}), then as their source gave them. */
export function orderCandidates(candidates: Candidate[]): Candidate[] {
  const rank = (k: CandidateKind) => {
    const i = KIND_ORDER.indexOf(k);
    return i < 0 ? KIND_ORDER.length : i;
  };
  return candidates.map((c, i) => ({ c, i })).sort((a, b) =>
    rank(a.c.kind) - rank(b.c.kind) || a.i - b.i
  ).map((x) => x.c);
}

/** A table cell: one line, `|` escaped, at most `max` characters. */
function cell(text: string, max = 160): string {
  const flat = oneLine(text).replaceAll("\\", "\\\\").replaceAll("|", "\\|");
  return clip(flat, max);
}

/** The sweep's result: what `--json` prints (shape documented in docs/CLI.md). */
export interface Sweep {
  /** The project root swept. */
  root: string;
  /** When, ISO 8601 UTC. */
  created: string;
  /** Whether the root is inside a git repository. */
  git: boolean;
  /** The transcript whose tasks, questions and deferrals were read, when one was found. */
  transcript?: string;
  /** Why no transcript was read, when none was. */
  transcriptNote?: string;
  /** Where the table was written. */
  file: string;
  /** The candidates, numbered from 1 in table order. */
  candidates: (Candidate & { n: number })[];
  /** What redaction took out of the transcript as it was read (lib/transcript/read.ts). */
  redacted?: RedactionCounts;
}

/** Numbers candidates in table order. */
export function numbered(candidates: Candidate[]): (Candidate & { n: number })[] {
  return orderCandidates(candidates).map((c, i) => ({ n: i + 1, ...c }));
}

/** The "Unlanded" markdown: a heading, a line of context, and the numbered table. */
export function renderUnlanded(sweep: Sweep): string {
  const head = [
    "# Unlanded",
    "",
    sweptLine(sweep.created, sweep.root, sweep.git),
    sweep.transcript
      ? `Transcript: ${sweep.transcript}.`
      : `No transcript read${sweep.transcriptNote ? ` (${sweep.transcriptNote})` : ""}.`,
    "",
  ];
  if (sweep.candidates.length === 0) return [...head, "Nothing unlanded.", ""].join("\n");
  return [
    ...head,
    "| # | Kind | What | Where |",
    "| --- | --- | --- | --- |",
    ...sweep.candidates.map((c) =>
      `| ${c.n} | ${c.kind} | ${cell(c.what)} | ${cell(c.where, 60)} |`
    ),
    "",
    "Land each: commit or push it, park it (`session.ts park …`), or drop it (`session.ts drop …`).",
    "",
  ].join("\n");
}

export { UNLANDED_REL } from "./unlanded.ts";

/** `gitFacts` lists commits since a moment; a sweep wants none of them, so it asks for the future. */
const NO_COMMITS = new Date(8.64e15);

/**
 * Sweeps a project: its parked items, the session transcript (found from `locate`) and git, as a
 * {@link Sweep} stamped `created` that says it is written to `file` (the caller writes it, or not).
 */
export async function sweepProject(
  store: Store,
  created: string,
  file: string,
  locate: Omit<LocateInputs, "root">,
): Promise<Sweep> {
  const root = store.root;
  // Git's processes and the transcript's read side by side: a sweep takes no path from the
  // transcript, so its paths need not wait for git's top-level to be made relative to it.
  const repoRun = gitFacts(root, NO_COMMITS).then(async (facts) => {
    if (!facts.top) return { facts, list: [] };
    const [stashList, ahead] = await Promise.all([stashes(facts.top), unpushed(facts.top)]);
    return { facts, list: fromGit({ ...facts, stashes: stashList, unpushed: ahead }, isOwnState) };
  });
  repoRun.catch(() => {}); // awaited below: failing meanwhile is no unhandled rejection
  const loaded = await loadTranscript({ ...locate, root });
  const { facts, list: repoList } = await repoRun;
  const lists = [
    fromParked(readParked(store).items),
    loaded.facts ? fromTranscript(loaded.facts) : [],
    repoList,
  ];
  return {
    root,
    created,
    git: facts.top !== undefined,
    transcript: loaded.facts?.path,
    transcriptNote: loaded.facts ? undefined : loaded.located.reason,
    file,
    candidates: numbered(lists.flat()),
    redacted: loaded.redacted,
  };
}
