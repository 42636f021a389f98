/**
 * Test support: the scratch-project fixture (disposable: `await using p = await scratchProject()`
 * removes the directory when the scope ends, however the test leaves it), scratch directories,
 * real git, and handover documents written straight into a store.
 * @module
 */

import { TEMP_PREFIX } from "../../lib/fs/atomic.ts";
import { renderFrontMatter } from "../../lib/store/front_matter.ts";
import { join } from "../../lib/fs/path.ts";
import { docsLockTarget, OS_LOCKS } from "../../lib/fs/lock.ts";
import { type Store, storeAt } from "../../lib/store/store.ts";
import { isoStamp } from "../../lib/store/time.ts";

/** The repository root (where session.ts lives). */
export const REPO = decodeURIComponent(new URL("../../", import.meta.url).pathname).replace(
  /\/$/,
  "",
);
/** Absolute path of the hook script. */
export const HOOK = join(REPO, "session_restore.ts");
/** Absolute path of the CLI script. */
export const CLI = join(REPO, "session.ts");

/** The docs lock's file name in a store (lib/fs/lock.ts `docsLockTarget`, then `.lock`). */
export const DOCS_LOCK = `${docsLockTarget("").slice(1)}.lock`;
/** The lock kinds this Deno has: the fallback everywhere, the OS lock where `tryLockSync` is. */
export const LOCK_KINDS: readonly ("flock" | "file")[] = OS_LOCKS ? ["flock", "file"] : ["file"];

/** A fixed "now" for tests: nothing reads the real clock. */
export const NOW = new Date("2026-11-30T12:00:00Z");

/**
 * How long a test waits for an OS lock its own thread just released. `deno test --parallel` runs
 * the test files as workers of one process, so a sibling file's spawn forks this thread's file
 * descriptors too, and the forked child holds a just-released `flock` until its `exec` (verified:
 * 5 of 344 release-then-lock pairs failed beside a spawning worker). The hook and the CLI lock and
 * spawn on one thread, so they never meet this; were they to, the hook would wait for the lock,
 * as a test does here.
 */
export const FREED_WAIT_MS = 2_000;

/** A scratch directory, removed (recursively) when disposed. */
export interface ScratchDir extends AsyncDisposable {
  /** Its real path (symbolic links resolved). */
  path: string;
}

/** Makes a scratch directory; `await using d = await scratchDir()` removes it at scope end. */
export async function scratchDir(prefix = "session-test-"): Promise<ScratchDir> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** A scratch project: its root and store; removed when disposed. */
export interface ScratchProject extends AsyncDisposable {
  root: string;
  store: Store;
}

/** What a scratch project is made of. */
export interface ScratchOptions {
  /**
   * "dir" (default): a bare `.git` directory, which is all the root rule looks for; "repo": a
   * real repository (`git init` on `branch`; commit with {@link git}); false: no `.git` at all.
   */
  git?: "dir" | "repo" | false;
  /** The branch a "repo" starts on (default main). */
  branch?: string;
  /** Whether the store directory exists (default true). */
  store?: boolean;
}

/** Makes a scratch project: `await using p = await scratchProject({ git: "repo" })`. */
export async function scratchProject(o: ScratchOptions = {}): Promise<ScratchProject> {
  const dir = await scratchDir();
  const root = dir.path;
  const kind = o.git ?? "dir";
  if (kind === "dir") await Deno.mkdir(join(root, ".git"));
  if (kind === "repo") await git(root, ["init", "-q", "-b", o.branch ?? "main"]);
  const store = storeAt(root);
  if (o.store !== false) await Deno.mkdir(store.dir, { recursive: true });
  return { root, store, [Symbol.asyncDispose]: dir[Symbol.asyncDispose] };
}

/** Runs git in `cwd` with a fixed identity; commit dates pinned to `at` (default NOW - 1 h). */
export async function git(cwd: string, args: string[], at?: Date): Promise<string> {
  const stamp = isoStamp(at ?? new Date(NOW.getTime() - 3_600_000));
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args],
    cwd,
    env: { GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout);
}

/** Writes `text` to `root/rel`, creating directories. */
export async function put(root: string, rel: string, text: string): Promise<void> {
  const path = join(root, rel);
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

/** Options for a handover document written straight into a store. */
export interface DocOptions {
  created?: Date | string | null;
  consumed?: boolean;
  branch?: string;
  /** The `worktree:` field, written when given (even empty). */
  worktree?: string;
  body?: string;
  crlf?: boolean;
  latest?: boolean;
}

/** A small, typical handover body. */
export const BODY = [
  "## Goal",
  "",
  "Ship the restore hook.",
  "",
  "## Decisions",
  "",
  "- Rename LATEST to claim it — why: exactly one hook may inject.",
  "",
  "## Next step",
  "",
  "Run the tests.",
  "",
].join("\n");

/** Writes a document (and by default points LATEST at it); returns its text. */
export async function writeDoc(store: Store, slug: string, o: DocOptions = {}): Promise<string> {
  const created = o.created === undefined ? NOW : o.created;
  const fields: [string, string][] = [["slug", slug]];
  if (created !== null) {
    fields.push(["created", typeof created === "string" ? created : isoStamp(created)]);
  }
  fields.push(["consumed", String(o.consumed ?? false)], ["branch", o.branch ?? "main"]);
  if (o.worktree !== undefined) fields.push(["worktree", o.worktree]);
  let text = renderFrontMatter(fields) + "\n" + (o.body ?? BODY);
  if (o.crlf) text = text.replaceAll("\n", "\r\n");
  await Deno.writeTextFile(join(store.dir, `${slug}.md`), text);
  if (o.latest !== false) await Deno.writeTextFile(store.latest, slug + "\n");
  return text;
}

/** The names of the temp files an atomic write left in `dir` (none, after any write, failed or not). */
export function tempFilesIn(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith(TEMP_PREFIX));
}

/** Makes a named pipe (Deno has no API for one): reading it would block forever. */
export async function mkfifo(path: string): Promise<void> {
  const { code } = await new Deno.Command("mkfifo", { args: [path] }).output();
  if (code !== 0) throw new Error(`mkfifo ${path} failed`);
}

/** Runs `fn` when disposed: `await using _ = onDispose(() => …)` for a clean-up beyond a scratch dir. */
export function onDispose(fn: () => Promise<unknown> | unknown): AsyncDisposable {
  return { [Symbol.asyncDispose]: async () => void await fn() };
}
