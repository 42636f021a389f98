/**
 * The git plumbing `push` / `pull` use, and nothing else: objects are written with `hash-object`
 * and `mktree`, commits with `commit-tree`, refs with `update-ref`, and the remote is reached with
 * `fetch` / `push` and explicit refspecs. No command here reads or writes the work tree, the
 * index, HEAD or a branch, and no hook of the project runs (`--no-verify`: the ref carries no
 * code, and a pre-push hook running a test suite on every sync would be a surprise).
 * @module
 */

import { FailureError, UsageError } from "../errors.ts";

/** The ref on the remote that carries the store (shared by everyone who uses the remote). */
export const REMOTE_REF = "refs/session/store";

/** Where a fetch of `remote`'s store lands locally (a private ref: not a branch, not a tag). */
export function trackingRef(remote: string): string {
  return `refs/session/remotes/${remote}/store`;
}

/** The commit this store last agreed on with `remote` (the base of the three-way merge). */
export function syncedRef(remote: string): string {
  return `refs/session/synced/${remote}`;
}

/** One git invocation's outcome. */
export interface GitRun {
  code: number;
  stdout: Uint8Array;
  stderr: string;
}

const DECODER = new TextDecoder();

/** Git in `root`, never prompting for credentials, never collecting garbage as a side effect. */
export async function git(
  root: string,
  args: string[],
  opts: { stdin?: Uint8Array | string; env?: Record<string, string> } = {},
): Promise<GitRun> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("git", {
      args: [
        "-c",
        "gc.auto=0",
        "-c",
        "maintenance.auto=false",
        "-c",
        "core.quotePath=false",
        ...args,
      ],
      cwd: root,
      stdin: opts.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      env: { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", ...opts.env },
    }).spawn();
  } catch (err) {
    throw new FailureError(
      `push and pull need git, which could not be run here (${(err as Error).message}); ` +
        `nothing was changed`,
    );
  }
  // Stdin is fed while stdout and stderr are read: `cat-file --batch` and `hash-object
  // --stdin-paths` answer as they read, so writing all of stdin first fills both pipes and
  // neither side moves again. A write fails only when git exited early; its exit code says why.
  const data = typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : opts.stdin;
  const feeding = data === undefined
    ? undefined
    : ReadableStream.from([data]).pipeTo(child.stdin).catch(() => {});
  const [out] = await Promise.all([child.output(), feeding]);
  return { code: out.code, stdout: out.stdout, stderr: DECODER.decode(out.stderr).trim() };
}

/** Stdout of a git command that must succeed, as text. */
export async function gitText(
  root: string,
  args: string[],
  opts: { stdin?: Uint8Array | string; env?: Record<string, string> } = {},
): Promise<string> {
  const r = await git(root, args, opts);
  if (r.code !== 0) {
    throw new FailureError(`git ${args[0]} failed: ${lastLine(r.stderr)}; nothing was changed`);
  }
  return DECODER.decode(r.stdout);
}

function lastLine(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  return lines.find((l) => /^fatal:|^error:/.test(l)) ?? lines.at(-1) ?? "no message";
}

/** Whether `root` is inside a git work tree. */
export async function inRepo(root: string): Promise<boolean> {
  const r = await git(root, ["rev-parse", "--git-dir"]);
  return r.code === 0;
}

/**
 * The remote to use: `name` when given (it must be configured), else the current branch's
 * upstream remote, else `origin`. A named remote that is not configured is a {@link UsageError};
 * no remote at all, a {@link FailureError}; both name the fix.
 */
export async function resolveRemote(root: string, name?: string): Promise<string> {
  const remotes = (await gitText(root, ["remote"])).split("\n").filter((r) => r !== "");
  if (name !== undefined) {
    if (remotes.includes(name)) return name;
    // The call's word is wrong, not the repository: a usage error, naming what would work.
    throw new UsageError(
      `no git remote named "${name}" (remotes: ${remotes.join(", ") || "none"}); give one of ` +
        `them to --remote, or add it with "git remote add ${name} URL". Nothing was changed`,
    );
  }
  const branch = await git(root, ["symbolic-ref", "-q", "--short", "HEAD"]);
  if (branch.code === 0) {
    const b = DECODER.decode(branch.stdout).trim();
    const up = await git(root, ["config", "--get", `branch.${b}.remote`]);
    const upstream = DECODER.decode(up.stdout).trim();
    if (up.code === 0 && remotes.includes(upstream)) return upstream;
  }
  if (remotes.includes("origin")) return "origin";
  throw new FailureError(
    `this repository has no remote to carry the store (no upstream, no "origin"); add one ` +
      `with "git remote add origin URL" or give --remote NAME. Nothing was changed`,
  );
}

/**
 * Fetches the remote's store ref into {@link trackingRef}; returns its commit, or undefined when
 * the remote has no store yet. An unreachable remote is a {@link FailureError}.
 */
export async function fetchStore(root: string, remote: string): Promise<string | undefined> {
  const local = trackingRef(remote);
  const r = await git(root, [
    "fetch",
    "--quiet",
    "--no-tags",
    "--no-write-fetch-head",
    "--no-recurse-submodules",
    remote,
    `+${REMOTE_REF}:${local}`,
  ]);
  if (r.code !== 0) {
    if (/couldn't find remote ref/i.test(r.stderr)) {
      await git(root, ["update-ref", "-d", local]);
      return undefined;
    }
    throw new FailureError(
      `could not reach the remote "${remote}" (${lastLine(r.stderr)}); nothing was changed`,
    );
  }
  return await revParse(root, `${local}^{commit}`, remote);
}

/** The commit `rev` names, or undefined (a ref that names no commit is refused). */
export async function revParse(
  root: string,
  rev: string,
  remote?: string,
): Promise<string | undefined> {
  const r = await git(root, ["rev-parse", "-q", "--verify", rev]);
  if (r.code === 0) return DECODER.decode(r.stdout).trim();
  if (remote !== undefined) {
    throw new FailureError(
      `the remote "${remote}"'s ${REMOTE_REF} does not name a commit (rewritten by hand?); ` +
        `fix or delete it there ("git push ${remote} :${REMOTE_REF}"). Nothing was changed`,
    );
  }
  return undefined;
}

/** Whether `a` is an ancestor of (or equal to) `b`. */
export async function isAncestor(root: string, a: string, b: string): Promise<boolean> {
  return (await git(root, ["merge-base", "--is-ancestor", a, b])).code === 0;
}

/** A tree entry. */
export interface TreeEntry {
  mode: string;
  type: string;
  id: string;
  name: string;
}

/** The entries of the tree `rev` (a commit or tree); empty when it has none. */
export async function lsTree(root: string, rev: string): Promise<TreeEntry[]> {
  const r = await git(root, ["ls-tree", "-z", rev]);
  if (r.code !== 0) return [];
  const out: TreeEntry[] = [];
  for (const rec of DECODER.decode(r.stdout).split("\0")) {
    const m = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(rec);
    if (m) out.push({ mode: m[1], type: m[2], id: m[3], name: m[4] });
  }
  return out;
}

/** The contents of blobs by id (`cat-file --batch`, one process); unreadable ids are left out. */
export async function readBlobs(root: string, ids: string[]): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  if (ids.length === 0) return out;
  const r = await git(root, ["cat-file", "--batch"], { stdin: ids.join("\n") + "\n" });
  const b = r.stdout;
  let pos = 0;
  while (pos < b.length) {
    const nl = b.indexOf(10, pos);
    if (nl === -1) break;
    const header = DECODER.decode(b.subarray(pos, nl));
    const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    pos = nl + 1;
    if (!m) continue; // `<id> missing`
    const size = Number(m[3]);
    if (m[2] === "blob") out.set(m[1], b.slice(pos, pos + size));
    pos += size + 1;
  }
  return out;
}

/** Writes blobs (one `hash-object -w --stdin-paths` run over temp files); returns their ids. */
export async function writeBlobs(root: string, blobs: Uint8Array[]): Promise<string[]> {
  if (blobs.length === 0) return [];
  const dir = await Deno.makeTempDir({ prefix: "session-sync-" });
  try {
    // One after another: thousands of writes at once would hold as many files open (macOS allows
    // 256 by default).
    const paths = blobs.map((data, i) => {
      const path = `${dir}/${i}`;
      Deno.writeFileSync(path, data);
      return path;
    });
    const text = await gitText(root, ["hash-object", "-w", "--no-filters", "--stdin-paths"], {
      stdin: paths.join("\n") + "\n",
    });
    return text.trim().split("\n");
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Writes a tree of blobs and trees; returns its id. */
export async function mkTree(root: string, entries: TreeEntry[]): Promise<string> {
  const input = entries.map((e) => `${e.mode} ${e.type} ${e.id}\t${e.name}\0`).join("");
  return (await gitText(root, ["mktree", "-z"], { stdin: input })).trim();
}

/** Writes a commit of `tree` on `parent` (if any), authored by `who` at `when`; returns its id. */
export async function commitTree(
  root: string,
  tree: string,
  parent: string | undefined,
  message: string,
  who: { name: string; email: string },
  when: Date,
): Promise<string> {
  const date = `${Math.floor(when.getTime() / 1000)} +0000`;
  const args = ["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message];
  return (await gitText(root, args, {
    env: {
      GIT_AUTHOR_NAME: who.name,
      GIT_AUTHOR_EMAIL: who.email,
      GIT_COMMITTER_NAME: who.name,
      GIT_COMMITTER_EMAIL: who.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  })).trim();
}

/** The committer time of `commit`, ms since the epoch. */
export async function commitTime(root: string, commit: string): Promise<number> {
  const text = await gitText(root, ["show", "-s", "--format=%ct", commit]);
  return Number(text.trim()) * 1000;
}

/** Points the local `ref` at `commit` (atomic: git's own ref lock). */
export async function updateRef(root: string, ref: string, commit: string): Promise<void> {
  await gitText(root, ["update-ref", ref, commit]);
}

/** What a push did: done, behind the remote (fetch, merge and try again), or refused. */
export type PushOutcome = { kind: "pushed" } | { kind: "behind"; why: string };

/**
 * Pushes `commit` to the remote's store ref, never forcing: a remote that moved meanwhile
 * answers "behind"; a refusal (a hook, permissions) or an unreachable remote throws.
 */
export async function pushStore(
  root: string,
  remote: string,
  commit: string,
): Promise<PushOutcome> {
  const r = await git(root, [
    "push",
    "--porcelain",
    "--quiet",
    "--no-verify",
    "--no-recurse-submodules",
    remote,
    `${commit}:${REMOTE_REF}`,
  ]);
  if (r.code === 0) return { kind: "pushed" };
  const out = DECODER.decode(r.stdout);
  const why = /\[(remote )?rejected\][^\n]*/.exec(out)?.[0] ?? lastLine(r.stderr);
  // Behind: another push landed first (or, on the remote, raced ours for the ref's lock).
  if (
    /\[rejected\].*(fetch first|non-fast-forward|stale info)/.test(out) ||
    /\[remote rejected\].*(failed to update ref|cannot lock ref|incorrect old value)/.test(out)
  ) {
    return { kind: "behind", why };
  }
  throw new FailureError(
    `the remote "${remote}" refused the push (${why}); the store is unchanged`,
  );
}
