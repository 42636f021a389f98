/**
 * The evidence a dump is built from: git (branch, changes, untracked files, commits since the
 * session started), recently changed artifact directories, and the open parked items. Facts
 * from the transcript (`TranscriptFacts`) merge in when known. `evidence --json` prints this
 * object as is: its shape is documented in the README and must stay stable.
 * @module
 */

import { type Commit, type GitFacts, gitFacts, trackedFiles } from "./git.ts";
import type { ParkedItem } from "../parked/parked.ts";
import { readParked } from "../parked/file.ts";
import { chooseSlug } from "../store/slug.ts";
import { docPath, type Store } from "../store/store.ts";
import { findGitTop } from "../store/root.ts";
import { join } from "../fs/path.ts";
import { isoStamp } from "../store/time.ts";
import type { TranscriptFacts } from "../transcript/facts.ts";
import { type Loaded, loadTranscript } from "../transcript/load.ts";
import type { LocateInputs } from "../transcript/locate.ts";

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

/** Artifact directories the spec names. */
export const ARTIFACT_DIRS = [".temp", ".reports", ".experiments", ".developments"];
/** Artifacts changed within this long before `now` count. */
export const ARTIFACT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The default `--since`: the session is taken to have started this long ago. */
export const DEFAULT_SINCE = "8h";

/**
 * Parses `--since`: a duration before `now` (`90m`, `8h`, `2d`, `45s`; a bare number is hours)
 * or an ISO 8601 moment. Undefined when it is neither, or when the moment falls outside the years
 * 0001–9999 (`99999999999d` is no date: git and ISO stamps cannot say it, and it used to crash).
 */
export function parseSince(value: string, now: Date): Date | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$/i.exec(value);
  let ms: number;
  if (m) {
    const unit = { s: 1e3, m: 6e4, h: 36e5, d: 864e5, "": 36e5 }[m[2].toLowerCase()]!;
    ms = now.getTime() - Number(m[1]) * unit;
  } else {
    if (!/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return undefined;
    ms = Date.parse(value.trim());
  }
  return ms >= SINCE_MIN && ms <= SINCE_MAX ? new Date(ms) : undefined;
}

/** The range of a `--since` moment: years 0001 to 9999, what a 4-digit ISO year can say. */
const SINCE_MIN = Date.parse("0001-01-01T00:00:00Z");
const SINCE_MAX = Date.parse("9999-12-31T23:59:59.999Z");

/** Paths under the project's own state (the store, sweep's output) are not session work. */
export function isOwnState(path: string): boolean {
  // Also below a subdirectory: the project root (the store's) may sit inside the git top-level.
  return /(^|\/)(\.claude\/state|\.temp\/session)\//.test(path);
}

function countChange(added: number, deleted: number, binary: boolean): string {
  return binary ? "binary" : `+${added}/-${deleted}`;
}

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

/** Inputs of {@link buildEvidence}, gathered by {@link collectEvidence}. */
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
 * Merges transcript facts into evidence (pure): files the session touched that git does not
 * show are added with ref `transcript:L<n>` — `reverted` when `status` says the file is clean or
 * gone now, else `edited`/`wip` (git cannot see it: ignored, or outside git); files outside the
 * project are listed apart; unfinished tasks become open items after the parked ones.
 */
export function withTranscript(
  ev: Evidence,
  facts: TranscriptFacts,
  status: (path: string) => "reverted" | "edited" = () => "edited",
): Evidence {
  const known = new Set(ev.files.map((f) => f.path));
  const files = [...ev.files];
  const outside: string[] = [];
  for (const t of facts.files) {
    if (t.outside) {
      outside.push(t.path);
      continue;
    }
    if (known.has(t.path) || isOwnState(t.path)) continue;
    known.add(t.path);
    const reverted = status(t.path) === "reverted";
    files.push({
      path: t.path,
      change: "edited",
      state: reverted ? "reverted" : "wip",
      ref: `transcript:L${t.line}`,
      source: "transcript",
    });
  }
  const taken = new Set(ev.outstanding.map((o) => o.slug));
  const tasks: OpenItem[] = [];
  for (const task of facts.tasks) {
    if (FINISHED.has(task.status.toLowerCase())) continue;
    let slug = taskSlug(task.subject) || `task-${task.id}`;
    if (taken.has(slug)) slug = `${slug}-${task.id}`;
    taken.add(slug);
    tasks.push({
      slug,
      text: `**${slug}** — ${oneLine(task.subject)}. Why: unfinished task (${task.status}) ` +
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

/**
 * How a transcript-touched file that git does not list stands now: `reverted` when git tracks it
 * (so it has no diff) or it no longer exists; `edited` when git cannot see it (ignored, outside
 * git).
 */
export async function transcriptFileStatus(
  root: string,
  top: string | undefined,
  paths: string[],
): Promise<(path: string) => "reverted" | "edited"> {
  const tracked = top ? await trackedFiles(top, paths) : new Set<string>();
  const gone = new Set<string>();
  await Promise.all(paths.map(async (p) => {
    try {
      await Deno.lstat(join(top ?? root, p));
    } catch {
      gone.add(p);
    }
  }));
  return (p) => (tracked.has(p) || gone.has(p) ? "reverted" : "edited");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().replace(/\.$/, "");
}

/** A short kebab slug for a task subject: its first five words. */
function taskSlug(subject: string): string {
  return subject.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim().split(" ").slice(0, 5)
    .join("-");
}

/** Finds artifact directories under `root` with files changed since `now - 24h` (by mtime). */
export async function recentArtifacts(root: string, now: Date): Promise<Artifact[]> {
  const cutoff = now.getTime() - ARTIFACT_WINDOW_MS;
  const out: Artifact[] = [];
  for (const dir of ARTIFACT_DIRS) {
    let files = 0;
    let newest = 0;
    let budget = 5_000; // a huge scratch directory must not stall a dump
    const walk = async (path: string, depth: number) => {
      let entries;
      try {
        entries = Deno.readDir(path);
        for await (const e of entries) {
          if (--budget < 0) return;
          const child = join(path, e.name);
          if (e.isDirectory && depth < 4) await walk(child, depth + 1);
          else if (e.isFile) {
            const mtime = (await Deno.lstat(child).catch(() => undefined))?.mtime?.getTime();
            if (mtime !== undefined && mtime >= cutoff) {
              files++;
              newest = Math.max(newest, mtime);
            }
          }
        }
      } catch { /* missing or unreadable: nothing to report */ }
    };
    await walk(join(root, dir), 0);
    if (files > 0) out.push({ dir, files, newest: isoStamp(new Date(newest)) });
  }
  return out;
}

/** The open parked items of a store as `## Outstanding` bullets (a missing PARKED.md: none). */
export async function openParked(store: Store): Promise<OpenItem[]> {
  try {
    return openItems((await readParked(store)).items);
  } catch {
    return []; // an unreadable PARKED.md must not stop a dump
  }
}

/** The items of a PARKED.md text as open items, each bullet on one line without its marker. */
export function openItems(items: ParkedItem[]): OpenItem[] {
  return items.map((item) => ({
    slug: item.slug,
    text: item.text.split("\n").map((l) => l.trim()).join(" ").replace(/^[-*+][ \t]+/, ""),
    source: "parked" as const,
  }));
}

/** Gathers the evidence for the project of `store` (IO at the edge; never throws for git). */
export async function collectEvidence(opts: {
  store: Store;
  cwd: string;
  now: Date;
  since: Date;
  parked: OpenItem[];
  /** Where to look for the session's transcript; omitted: no transcript is read. */
  transcript?: Omit<LocateInputs, "root">;
  /** A transcript already read (paths relative to the git top-level); wins over `transcript`. */
  loaded?: Loaded;
  /** `since` is the default window (no `--since`): a transcript's start may narrow it. */
  sinceIsDefault?: boolean;
}): Promise<Evidence> {
  // The transcript first: its start narrows the default session window.
  const wanted = opts.transcript !== undefined || opts.loaded !== undefined;
  const loaded = opts.loaded ?? (opts.transcript
    ? await loadTranscript({
      ...opts.transcript,
      root: opts.store.root,
      relRoot: findGitTop(opts.store.root) ?? opts.store.root,
    })
    : undefined);
  const since = opts.sinceIsDefault
    ? sessionStart(opts.since, loaded?.facts?.startedAt)
    : opts.since;
  const [facts, artifacts] = await Promise.all([
    gitFacts(opts.store.root, since),
    recentArtifacts(opts.store.root, opts.now),
  ]);
  const ev = buildEvidence({
    store: opts.store,
    now: opts.now,
    since,
    git: facts,
    artifacts,
    parked: opts.parked,
    exists: (slug) => {
      try {
        Deno.statSync(docPath(opts.store, slug));
        return true;
      } catch {
        return false;
      }
    },
  });
  if (!wanted || !loaded) return ev;
  if (!loaded.facts) return { ...ev, transcriptNote: loaded.located.reason };
  const known = new Set(ev.files.map((f) => f.path));
  const unseen = loaded.facts.files.filter((f) => !f.outside && !known.has(f.path));
  const status = await transcriptFileStatus(
    opts.store.root,
    facts.top,
    unseen.map((f) => f.path),
  );
  return withTranscript(ev, loaded.facts, status);
}

/**
 * The session's start for a default window: the transcript's first record when it is later than
 * the window's start (a fresh session after `/clear` owns only its own commits), else the window.
 */
export function sessionStart(window: Date, startedAt: string | undefined): Date {
  const t = startedAt ? Date.parse(startedAt) : NaN;
  return !Number.isNaN(t) && t > window.getTime() ? new Date(t) : window;
}

/** The human-readable evidence report. */
export function renderEvidence(ev: Evidence): string {
  const out: string[] = [
    `Branch:          ${ev.branch}${ev.git ? "" : " (not a git repository)"}`,
    `Created:         ${ev.created}`,
    `Suggested slug:  ${ev.suggestedSlug}`,
    `Session since:   ${ev.since}`,
    `Store:           ${ev.store}`,
    "",
  ];
  const width = Math.max(0, ...ev.files.map((f) => f.change.length));
  out.push(
    ev.files.length
      ? `Files (${ev.files.length}):`
      : `Files: none changed${ev.git ? "" : " (outside git)"}`,
  );
  for (const f of ev.files) {
    out.push(`  ${f.change.padEnd(width)}  ${f.state.padEnd(4)}  ${f.path}  (${f.ref})`);
  }
  out.push(
    "",
    ev.commits.length ? `Commits since ${ev.since} (${ev.commits.length}):` : "Commits: none",
  );
  for (const c of ev.commits) {
    out.push(`  ${c.hash}  ${c.date}  ${c.subject}`);
    for (const f of c.files) {
      out.push(`      ${countChange(f.added, f.deleted, f.binary)}  ${f.path}`);
    }
  }
  out.push("", ev.artifacts.length ? "Artifacts changed within a day:" : "Artifacts: none recent");
  for (const a of ev.artifacts) out.push(`  ${a.dir}/  ${a.files} file(s), newest ${a.newest}`);
  const parked = ev.outstanding.filter((o) => o.source === "parked").length;
  out.push("", ev.outstanding.length ? `Outstanding (${parked} parked):` : "Outstanding: none");
  for (const o of ev.outstanding) out.push(`  - ${o.text}`);
  if (ev.outside?.length) {
    out.push("", `Written outside the project (${ev.outside.length}):`);
    for (const p of ev.outside) out.push(`  ${p}`);
  }
  if (ev.transcript) out.push("", `Transcript: ${ev.transcript}`);
  else if (ev.transcriptNote) out.push("", `Transcript: none (${ev.transcriptNote})`);
  return out.join("\n");
}
