/**
 * Where the store is and what it holds: which project root it belongs to (the `<root>`
 * rule, {@link findRoot}, so the CLI and the hook always find the same store: docs/STORE.md),
 * its files under that root, which slugs may name a document, whether the store leads outside
 * its project, reading a document confined to the store, and creating the store. LATEST is read
 * in lib/store/latest.ts and changed only in lib/store/lifecycle.ts; the docs lock is
 * lib/store/docs_lock.ts. Sync: the hook uses it.
 * @module
 */

import { FILE_NAME_MAX_BYTES, PRIVATE_DIR } from "../fs/atomic.ts";
import { utf8Length } from "../text/bytes.ts";
import { absolute, exists, isDir, join, parentDir, pathOutside, readUtf8 } from "../fs/path.ts";
import { safeSessionId } from "./front_matter.ts";
import { type Checkout, findCheckout, homeFor, worktreeLabel } from "./repository.ts";

/** The store's place under the project root. */
export const STORE_REL = ".claude/state/session";

/** File names in the store that are not handover documents (and so are refused as slugs). */
export const RESERVED = ["LATEST", "PARKED", "dropped"] as const;

/**
 * The reserved name `slug` is, in any case (on a case-insensitive file system `parked.md` is
 * PARKED.md), or undefined.
 */
export function reservedName(slug: string): string | undefined {
  const lower = slug.toLowerCase();
  return RESERVED.find((r) => r.toLowerCase() === lower);
}

/** The paths of one store. */
export interface Store {
  /**
   * The project root the store serves: where the work is (a linked worktree's own directory when
   * the session runs in one), for git facts, transcripts and paths.
   */
  root: string;
  /**
   * The directory holding the store (`<home>/.claude/state/session`): `root`, or in a linked
   * worktree the same place in the repository's home (lib/store/repository.ts); unset: `root`.
   */
  home?: string;
  /** In a linked worktree, where it is (lib/store/repository.ts `worktreeLabel`). */
  worktree?: string;
  /**
   * A store left inside the linked worktree itself (an older version's, or a sandboxed dump's),
   * to be moved into this one (lib/sync/adopt.ts).
   */
  stranded?: string;
  /** `<root>/.claude/state/session`. */
  dir: string;
  /** The LATEST pointer. */
  latest: string;
  /** The parked items. */
  parked: string;
  /** The drop log. */
  dropped: string;
}

/** The store of a project root, kept at `home` (default: the root itself). */
export function storeAt(root: string, home = root): Store {
  const dir = join(home, STORE_REL);
  return {
    root,
    home,
    dir,
    latest: join(dir, "LATEST"),
    parked: join(dir, "PARKED.md"),
    dropped: join(dir, "dropped.jsonl"),
  };
}

/**
 * The file that arms Gemini CLI's deferred restore (lib/hook/answer.ts) for one session:
 * `.gemini-armed-<session id>`, so each Gemini window's arm waits for its own next message;
 * `.gemini-armed` for a session id a file name cannot carry plainly.
 */
export function armPath(store: Store, session: string | undefined): string {
  return join(store.dir, safeSessionId(session) ? `.gemini-armed-${session}` : ".gemini-armed");
}

/**
 * Whether `slug` may name a document: no separators, no `..`, not reserved, not hidden, and
 * `<slug>.md` a file name the file system takes (bytes, not characters: `日` is three). Readers
 * take every slug that can exist on disk; lib/store/slug.ts writes shorter ones.
 */
export function isSafeSlug(slug: string): boolean {
  if (!slug || utf8Length(slug) > FILE_NAME_MAX_BYTES - ".md".length) return false;
  if (/[\/\\\0\r\n]/.test(slug) || slug.includes("..") || slug.startsWith(".")) return false;
  return reservedName(slug) === undefined;
}

/**
 * Where the store really lives when that is outside its project — `.claude`, `.claude/state` or
 * the store itself is a symlink out — else undefined. Checks the deepest part of the store's path
 * that exists, so a store not created yet is judged by where it would be created.
 */
export function storeOutside(store: Store): string | undefined {
  return pathOutside(store.home ?? store.root, store.dir);
}

/** The path of a document in the store. The slug must already be checked by {@link isSafeSlug}. */
export function docPath(store: Store, slug: string): string {
  return join(store.dir, `${slug}.md`);
}

/**
 * Reads a document by slug, confined to the store: the slug must be safe, and the file (after
 * following any symlink) must be a regular file inside the store directory.
 */
export function readDoc(store: Store, slug: string): string | undefined {
  if (!isSafeSlug(slug)) return undefined;
  const path = docPath(store, slug);
  try {
    const real = Deno.realPathSync(path);
    const realDir = Deno.realPathSync(store.dir);
    if (parentDir(real) !== realDir) return undefined;
    if (!Deno.statSync(real).isFile) return undefined;
    return readUtf8(real);
  } catch {
    return undefined;
  }
}

/**
 * Ensures the store directory exists, the user's only: `.claude/state` and the store are created
 * 0700 (`.claude` itself, the agent's shared settings folder, keeps the usual mode), so every new
 * file in it is 0600 (lib/fs/atomic.ts). A store made before that rule is made 0700 here too: the
 * directory is what keeps its older 0644 files from other users. Where the mode cannot be changed
 * (not the owner, Windows) it stays as it is.
 */
export function ensureStore(store: Store): void {
  const state = parentDir(store.dir);
  const claude = state === undefined ? undefined : parentDir(state);
  // `.claude` keeps the usual mode (it holds shared settings). Only when missing: Deno checks
  // write permission on the path even when it exists, and a hook may write the store alone —
  // then the store's own mkdir below creates `.claude` too, private like the store.
  if (claude !== undefined && !isDir(claude)) {
    try {
      Deno.mkdirSync(claude, { recursive: true });
    } catch { /* not ours to create: see above */ }
  }
  Deno.mkdirSync(store.dir, { recursive: true, mode: PRIVATE_DIR });
  if (Deno.build.os === "windows") return;
  try {
    if ((Deno.statSync(store.dir).mode! & 0o077) !== 0) Deno.chmodSync(store.dir, PRIVATE_DIR);
  } catch { /* not ours to change */ }
}

// ------------------------------------------------------------------- which project: the root rule

/** Inputs of the `<root>` rule. */
export interface RootInputs {
  /** `--dir DIR`, when given. */
  dir?: string;
  /** `CLAUDE_PROJECT_DIR`, when set. */
  projectDir?: string;
  /** The working directory (the hook: the payload's `cwd`). */
  cwd: string;
}

/**
 * The project root by the `<root>` rule (docs/STORE.md): `--dir`; else, walking up from the start directory
 * (`CLAUDE_PROJECT_DIR` when set, else `cwd`) to the git top-level, the nearest directory that
 * already has a store; else the git top-level; else the start directory. `CLAUDE_PROJECT_DIR`
 * only starts the walk: Claude Code started in a subdirectory sets it to that subdirectory, while
 * its Bash tool (and so the CLI) starts there without it, and both must find the same store.
 * One that no longer exists outside any repository (a removed sibling worktree, at SessionEnd)
 * gives way to `cwd`. The git top-level is found by looking for `.git` rather than by running git,
 * which would cost the hook its budget.
 */
export function findRoot(inputs: RootInputs): string {
  return findStore(inputs).root;
}

/**
 * The store by the root rule ({@link findRoot}), one per repository: in a linked worktree each
 * directory of the walk stands for the same directory of the main worktree
 * (lib/store/repository.ts `homeFor`), which holds the store; a store found inside the worktree
 * itself is `stranded`, to be moved there.
 */
export function findStore(inputs: RootInputs): Store {
  const cwd = absolute(inputs.cwd, "/");
  if (inputs.dir) {
    const root = absolute(inputs.dir, cwd);
    return placed(root, findCheckout(root));
  }
  let start = inputs.projectDir ? absolute(inputs.projectDir, cwd) : cwd;
  let checkout = findCheckout(start);
  if (checkout === undefined && start !== cwd && !exists(start)) {
    start = cwd;
    checkout = findCheckout(start);
  }
  if (checkout === undefined) return storeAt(start);
  for (let d: string | undefined = start; d !== undefined; d = parentDir(d)) {
    const home = homeFor(checkout, d);
    if (isDir(join(home, STORE_REL)) || (home !== d && isDir(join(d, STORE_REL)))) {
      return placed(d, checkout);
    }
    if (d === checkout.top) break;
  }
  return placed(checkout.top, checkout);
}

/** The store serving `root`, kept in its repository's home, with a stranded one noted. */
function placed(root: string, checkout: Checkout | undefined): Store {
  if (checkout === undefined || !isInside(root, checkout.top)) return storeAt(root);
  const home = homeFor(checkout, root);
  const store = storeAt(root, home);
  const label = worktreeLabel(checkout);
  if (label !== undefined) store.worktree = label;
  if (home !== root && isDir(join(root, STORE_REL))) store.stranded = join(root, STORE_REL);
  return store;
}

function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir.replace(/[\\/]+$/, "")}/`);
}

/** The git top-level above `cwd` (by `.git`), or undefined outside a repository. */
export function findGitTop(cwd: string): string | undefined {
  return findCheckout(cwd)?.top;
}
