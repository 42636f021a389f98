/**
 * The git collector: what git knows about the working tree, via `Deno.Command` (no library): the
 * branch, per-file line counts against HEAD, untracked files, the commits since a moment with
 * their files, and (for `sweep`) stashes and unpushed commits.
 * Outside a repository, or without git installed, every answer is empty and nothing throws.
 * @module
 */

import { findGitTop } from "../../store/store.ts";

/** Per-file line counts from `git diff --numstat`; `binary` files have no counts. */
export interface FileStat {
  path: string;
  added: number;
  deleted: number;
  binary: boolean;
}

/** One commit with the files it touched. */
export interface Commit {
  /** Abbreviated hash. */
  hash: string;
  /** Committer date, ISO 8601. */
  date: string;
  subject: string;
  files: FileStat[];
}

/** The git facts of a working tree. */
export interface GitFacts {
  /** The repository's top-level directory; undefined outside git. */
  top?: string;
  /** The branch name, `detached`, or `none` outside git. */
  branch: string;
  /** Whether HEAD points at a commit (false in a repository with no commits yet). */
  hasHead: boolean;
  /** Uncommitted changes to tracked files, against HEAD (or the empty tree before any commit). */
  changes: FileStat[];
  /** Untracked, not-ignored files. */
  untracked: string[];
  /** Commits since `since`, newest first. */
  commits: Commit[];
}

/** Output of one git invocation: undefined when git is missing or the command failed. */
async function git(cwd: string, args: string[]): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("git", {
      args: ["-c", "core.quotePath=false", ...args],
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      env: { GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" },
    }).output();
    return out.success ? new TextDecoder().decode(out.stdout) : undefined;
  } catch {
    return undefined; // git not installed, cwd gone, or --allow-run denied
  }
}

/** A numstat record's counts and path as a FileStat; `-` counts mean binary. */
function fileStat(added: string, deleted: string, path: string): FileStat {
  const binary = added === "-" || deleted === "-";
  return {
    path,
    added: binary ? 0 : Number(added),
    deleted: binary ? 0 : Number(deleted),
    binary,
  };
}

/** One numstat record: `[\n]added\tdeleted\tpath`, each count `-` or ASCII digits. */
const NUMSTAT = /^\n?(-|\d+)\t(-|\d+)\t([\s\S]+)$/;

/** One numstat record as a FileStat, or undefined when it is not one ({@link NUMSTAT}). */
export function numstatRecord(record: string): FileStat | undefined {
  const m = NUMSTAT.exec(record);
  return m ? fileStat(m[1], m[2], m[3]) : undefined;
}

/** Parses `git diff --numstat -z --no-renames` output. */
export function parseNumstatZ(text: string): FileStat[] {
  const out: FileStat[] = [];
  for (const record of text.split("\0")) {
    const stat = numstatRecord(record);
    if (stat) out.push(stat);
  }
  return out;
}

const RS = "\x1e";
const US = "\x1f";

/**
 * Parses `git log -z --numstat --no-renames --format=<RS>%h<US>%cI<US>%s` output: each commit's
 * header ends at a NUL, then its numstat records, NUL-terminated. Why `-z`: without it git quotes
 * a path with `"`, `\`, a tab or a newline (`"q\"x"`), and the files table listed such a path
 * twice, once quoted from the log and once plain from the `-z` diff.
 */
export function parseLog(text: string): Commit[] {
  const commits: Commit[] = [];
  for (const chunk of text.split(RS)) {
    if (!chunk.trim()) continue;
    const nul = chunk.indexOf("\0");
    const head = nul === -1 ? chunk : chunk.slice(0, nul);
    const [hash, date, ...subject] = head.replace(/\n$/, "").split(US);
    if (!hash || !date) continue;
    const files = nul === -1 ? [] : parseNumstatZ(chunk.slice(nul + 1));
    commits.push({ hash, date, subject: subject.join(US), files });
  }
  return commits;
}

function lines(text: string | undefined, sep = "\n"): string[] {
  return (text ?? "").split(sep).map((l) => l.replace(/\r$/, "")).filter((l) => l !== "");
}

/**
 * The git facts of `cwd`; paths are relative to the repository's top-level. Git is asked for the
 * top-level, and meanwhile its other questions go to the top-level the `.git` walk finds
 * (lib/store/store.ts `findGitTop`), so the usual run waits for one round of git processes, not
 * two (docs/PERFORMANCE.md). Git's answer rules: when its top-level is another directory (a
 * `GIT_DIR`, a `.git` git does not take), the questions are asked again there.
 */
export async function gitFacts(cwd: string, since: Date): Promise<GitFacts> {
  const guess = findGitTop(cwd);
  const asked = git(cwd, ["rev-parse", "--show-toplevel"]);
  const early = guess === undefined ? undefined : factsAt(guess, since);
  const top = (await asked)?.trim();
  if (!top) {
    await early; // its processes end before this run reports (git() never rejects)
    return { branch: "none", hasHead: false, changes: [], untracked: [], commits: [] };
  }
  // Git prints the top-level with symlinks resolved.
  const same = guess !== undefined && (guess === top || realPath(guess) === top);
  if (!same) await early;
  return { top, ...await (same ? early! : factsAt(top, since)) };
}

/** {@link gitFacts} but the top-level: one round of git processes run in `top`. */
async function factsAt(top: string, since: Date): Promise<Omit<GitFacts, "top">> {
  // The diff and the log assume a HEAD, as almost every repository has one.
  const diff = (base: string) => git(top, ["diff", "--numstat", "-z", "--no-renames", base, "--"]);
  const [symbolic, head, headDiff, others, headLog] = await Promise.all([
    git(top, ["symbolic-ref", "--short", "-q", "HEAD"]),
    git(top, ["rev-parse", "--verify", "-q", "HEAD"]),
    diff("HEAD"),
    git(top, ["ls-files", "--others", "--exclude-standard", "-z"]),
    git(top, logArgs(since)),
  ]);
  const hasHead = !!head?.trim();
  let numstat = headDiff;
  let log = headLog;
  if (!hasHead) {
    // Before the first commit, diff against the empty tree so staged new files still count.
    const empty = (await git(top, ["hash-object", "-t", "tree", "--stdin"]))?.trim();
    numstat = empty ? await diff(empty) : undefined;
    log = undefined;
  }
  return {
    branch: symbolic?.trim() || "detached",
    hasHead,
    changes: parseNumstatZ(numstat ?? ""),
    untracked: lines(others, "\0"),
    commits: parseLog(log ?? ""),
  };
}

/** `path` with symlinks resolved, or undefined when it cannot be. */
function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

/** The log {@link gitFacts} reads: the commits since `since`, each with its files. */
function logArgs(since: Date): string[] {
  return [
    "log",
    "-z",
    `--since=${since.toISOString()}`,
    "--numstat",
    "--no-renames",
    `--format=${RS}%h${US}%cI${US}%s`,
  ];
}

/**
 * What `git log --since=<since>` lists, told from `commits` — the log since an earlier moment, in
 * git's order — or undefined when only git can tell. Git reads `since` to the second, and its walk
 * stops at a commit older than `since`: a commit dated after `since` that the earlier log lists
 * after an older one (committer dates out of order: a rebase, a skewed clock) may be one that
 * walk never reaches. Without such a pair, the commits dated `since` or later are exactly git's.
 */
export function commitsSince(commits: Commit[], since: Date): Commit[] | undefined {
  const cut = Math.floor(since.getTime() / 1000) * 1000;
  const out: Commit[] = [];
  let passedOlder = false;
  for (const c of commits) {
    const t = Date.parse(c.date);
    if (Number.isNaN(t)) return undefined;
    if (t < cut) passedOlder = true;
    else if (passedOlder) return undefined;
    else out.push(c);
  }
  return out;
}

/**
 * `facts` (from {@link gitFacts} with an earlier moment) with the commits since `since` only:
 * told from its log when it can be ({@link commitsSince}), else git's log run again.
 */
export async function narrowFacts(facts: GitFacts, since: Date): Promise<GitFacts> {
  const told = commitsSince(facts.commits, since);
  if (told !== undefined) return { ...facts, commits: told };
  const log = facts.top && facts.hasHead ? await git(facts.top, logArgs(since)) : undefined;
  return { ...facts, commits: parseLog(log ?? "") };
}

/** Which of `paths` (relative to the top-level `top`) git tracks; empty outside git. */
export async function trackedFiles(top: string, paths: string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const out = await git(top, ["ls-files", "-z", "--", ...paths.map((p) => `:(literal)${p}`)]);
  return new Set(lines(out, "\0"));
}

/** One `git stash` entry. */
export interface Stash {
  /** `stash@{0}`, … */
  ref: string;
  /** The stash message, e.g. `WIP on main: abc1234 subject`. */
  subject: string;
}

/** What is committed but not pushed. */
export interface Unpushed {
  /** The branch's upstream, e.g. `origin/main`; undefined when it has none. */
  upstream?: string;
  /** Whether the repository has any remote at all. */
  remotes: boolean;
  /** Commits on HEAD not on the upstream, newest first (empty without an upstream). */
  commits: { hash: string; subject: string }[];
}

/** Parses `git stash list --format=%gd<US>%s`. */
export function parseStashes(text: string): Stash[] {
  return lines(text).flatMap((line) => {
    const [ref, ...subject] = line.split(US);
    return ref && subject.length ? [{ ref, subject: subject.join(US) }] : [];
  });
}

/** The stashes of the repository at `top`; empty outside git. */
export async function stashes(top: string): Promise<Stash[]> {
  return parseStashes((await git(top, ["stash", "list", `--format=%gd${US}%s`])) ?? "");
}

/** Commits of HEAD that its upstream does not have; nothing outside git or before a commit. */
export async function unpushed(top: string): Promise<Unpushed> {
  const [remotes, upstream] = await Promise.all([
    git(top, ["remote"]),
    git(top, ["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"]),
  ]);
  const name = upstream?.trim() || undefined;
  const log = name ? await git(top, ["log", `--format=%h${US}%s`, "@{upstream}..HEAD"]) : "";
  return {
    upstream: name,
    remotes: lines(remotes).length > 0,
    commits: lines(log).map((l) => {
      const [hash, ...subject] = l.split(US);
      return { hash, subject: subject.join(US) };
    }),
  };
}
