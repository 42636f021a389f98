/**
 * The store: where it lives (the spec's `<root>` rule), its paths, and the LATEST pointer.
 * Sync and dependency-free because the SessionStart hook uses it on every `/clear`.
 * @module
 */

import { NAME_MAX_BYTES, TEMP_PREFIX, utf8Length, writeFileAtomicSync } from "../fs/atomic.ts";
import { splitFrontMatter } from "./front_matter.ts";

/** The store's place under the project root. */
export const STORE_REL = ".claude/state/session";
/** File names in the store that are not handover documents (and so are refused as slugs). */
export const RESERVED = ["LATEST", "PARKED", "dropped"] as const;

/** Inputs of the `<root>` rule. */
export interface RootInputs {
  /** `--dir DIR`, when given. */
  dir?: string;
  /** `CLAUDE_PROJECT_DIR`, when set. */
  projectDir?: string;
  /** The working directory (the hook: the payload's `cwd`). */
  cwd: string;
}

/** The paths of one store. */
export interface Store {
  /** The project root the store belongs to. */
  root: string;
  /** `<root>/.claude/state/session`. */
  dir: string;
  /** The LATEST pointer. */
  latest: string;
  /** The parked items. */
  parked: string;
  /** The drop log. */
  dropped: string;
}

/** Joins path parts with `/`, the separator Deno accepts on every platform. */
export function join(...parts: string[]): string {
  return parts.filter((p) => p !== "").join("/").replace(/(?<!^)\/{2,}/g, "/");
}

/** The parent directory of an absolute path, or undefined at the filesystem root. */
export function parentDir(path: string): string | undefined {
  const trimmed = path.replace(/[\\/]+$/, "");
  const i = Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\"));
  if (i < 0) return undefined;
  if (i === 0) return trimmed.length > 1 ? "/" : undefined;
  const parent = trimmed.slice(0, i);
  return /^[A-Za-z]:$/.test(parent) ? parent + "\\" : parent;
}

/** Makes `path` absolute against `base`. */
export function absolute(path: string, base: string): string {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\")) {
    return stripTrailing(path);
  }
  let out = stripTrailing(base);
  for (const part of path.split(/[\\/]+/)) {
    if (part === "" || part === ".") continue;
    if (part === "..") out = parentDir(out) ?? out;
    else out = join(out, part);
  }
  return out;
}

function stripTrailing(path: string): string {
  return path.length > 1 ? path.replace(/(?<=.)[\\/]+$/, "") : path;
}

/** Whether anything exists at `path`. */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether `path` is a directory (false when it is missing or unreadable). */
export function isDir(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/**
 * The project root by the spec's rule: `--dir`; else, walking up from the start directory
 * (`CLAUDE_PROJECT_DIR` when set, else `cwd`) to the git top-level, the nearest directory that
 * already has a store; else the git top-level; else the start directory. `CLAUDE_PROJECT_DIR`
 * only starts the walk: Claude Code started in a subdirectory sets it to that subdirectory, while
 * its Bash tool (and so the CLI) starts there without it, and both must find the same store.
 * The git top-level is found by looking for `.git` (a directory, or a file in worktrees and
 * submodules) rather than by running git, which would cost the hook its budget.
 */
export function findRoot(inputs: RootInputs): string {
  const cwd = absolute(inputs.cwd, "/");
  if (inputs.dir) return absolute(inputs.dir, cwd);
  const start = inputs.projectDir ? absolute(inputs.projectDir, cwd) : cwd;
  let nearestStore: string | undefined;
  for (let d: string | undefined = start; d !== undefined; d = parentDir(d)) {
    if (nearestStore === undefined && isDir(join(d, STORE_REL))) nearestStore = d;
    if (exists(join(d, ".git"))) return nearestStore ?? d;
  }
  return start;
}

/** The git top-level above `cwd` (by `.git`), or undefined outside a repository. */
export function findGitTop(cwd: string): string | undefined {
  for (let d: string | undefined = absolute(cwd, "/"); d !== undefined; d = parentDir(d)) {
    if (exists(join(d, ".git"))) return d;
  }
  return undefined;
}

/** The store of a project root. */
export function storeAt(root: string): Store {
  const dir = join(root, STORE_REL);
  return {
    root,
    dir,
    latest: join(dir, "LATEST"),
    parked: join(dir, "PARKED.md"),
    dropped: join(dir, "dropped.jsonl"),
  };
}

/** The file that arms Gemini CLI's deferred restore (lib/hook/answer.ts): the session id that may claim it. */
export function armPath(store: Store): string {
  return join(store.dir, ".gemini-armed");
}

/**
 * Whether `slug` may name a document: no separators, no `..`, not reserved, not hidden, and
 * `<slug>.md` a file name the file system takes (bytes, not characters: `日` is three). Readers
 * take every slug that can exist on disk; lib/store/slug.ts writes shorter ones.
 */
export function isSafeSlug(slug: string): boolean {
  if (!slug || utf8Length(slug) > NAME_MAX_BYTES - ".md".length) return false;
  if (/[\/\\\0\r\n]/.test(slug) || slug.includes("..") || slug.startsWith(".")) return false;
  return !(RESERVED as readonly string[]).includes(slug);
}

/**
 * Where the store really lives when that is outside its project — `.claude`, `.claude/state` or
 * the store itself is a symlink out — else undefined. Checks the deepest part of the store's path
 * that exists, so a store not created yet is judged by where it would be created.
 */
export function storeOutside(store: Store): string | undefined {
  return pathOutside(store.root, store.dir);
}

/**
 * Where `path` (below `root`) really leads when some part of it is a symlink out of `root`, else
 * undefined; judged by the deepest part that exists, so a path not created yet is judged by where
 * it would be created.
 */
export function pathOutside(root: string, path: string): string | undefined {
  let realRoot: string;
  try {
    realRoot = Deno.realPathSync(root);
  } catch {
    return undefined;
  }
  for (let d: string | undefined = path; d !== undefined; d = parentDir(d)) {
    let real: string;
    try {
      real = Deno.realPathSync(d);
    } catch {
      if (d.length <= root.length) return undefined;
      continue;
    }
    const inside = real === realRoot || real.startsWith(realRoot.replace(/[\\/]$/, "") + "/") ||
      real.startsWith(realRoot.replace(/[\\/]$/, "") + "\\");
    return inside ? undefined : real;
  }
  return undefined;
}

/** The path of a document in the store. The slug must already be checked by {@link isSafeSlug}. */
export function docPath(store: Store, slug: string): string {
  return join(store.dir, `${slug}.md`);
}

/** The slug LATEST names, or undefined when it is missing, blank or unreadable. */
export function readLatest(store: Store): string | undefined {
  let text: string;
  try {
    // A named pipe would block the read, and the hook with it: a regular file or nothing.
    if (!Deno.statSync(store.latest).isFile) return undefined;
    text = Deno.readTextFileSync(store.latest);
  } catch {
    return undefined;
  }
  const slug = text.split("\n", 1)[0].trim();
  return slug === "" ? undefined : slug;
}

/** Points LATEST at `slug`, atomically. */
export function writeLatest(store: Store, slug: string): void {
  writeFileAtomicSync(store.latest, slug + "\n");
}

/**
 * Clears LATEST when it names `expected` (any slug when not given); returns the slug it named.
 * Call it holding the store's docs lock (lib/fs/lock.ts `docsLockTarget`): every writer of LATEST
 * holds it, so what was read is still there when it is removed, and a newer pointer is never lost.
 */
export function takeLatest(store: Store, expected?: string): string | undefined {
  const slug = readLatest(store);
  if (slug === undefined || (expected !== undefined && slug !== expected)) return undefined;
  try {
    Deno.removeSync(store.latest);
  } catch {
    return undefined;
  }
  return slug;
}

/** Prefix of the claims earlier versions renamed LATEST to while consuming it. */
export const CLAIM_PREFIX = `${TEMP_PREFIX}LATEST.claim.`;
/** A claim younger than this may belong to a hook still running: it is left alone. */
export const CLAIM_STALE_MS = 10_000;

/**
 * Recovers the pointer from claims a killed hook of an earlier version left behind (it renamed
 * LATEST to a claim, then died): when LATEST is missing and a claim names a document that is still
 * unconsumed, that claim becomes LATEST again (the newest such claim); a claim whose document was
 * consumed or is gone is only removed, so a consumed pointer never comes back. Returns the slug put
 * back, if any. With `restore` false (a dump, whose pointer supersedes them) every stale claim is
 * only removed. Call it holding the docs lock.
 */
export function recoverClaims(
  store: Store,
  nowMs = Date.now(),
  restore = true,
): string | undefined {
  const claims: { path: string; mtime: number }[] = [];
  try {
    for (const e of Deno.readDirSync(store.dir)) {
      if (!e.isFile || !e.name.startsWith(CLAIM_PREFIX)) continue;
      const path = join(store.dir, e.name);
      const mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
      if (nowMs - mtime >= CLAIM_STALE_MS) claims.push({ path, mtime });
    }
  } catch {
    return undefined;
  }
  let restored: string | undefined;
  for (const c of claims.sort((a, b) => b.mtime - a.mtime)) {
    const slug = readUtf8(c.path)?.split("\n", 1)[0].trim() ?? "";
    const doc = isSafeSlug(slug) ? readDoc(store, slug) : undefined;
    if (
      restore && restored === undefined && doc !== undefined &&
      splitFrontMatter(doc)?.fields.consumed === "false" && !exists(store.latest)
    ) {
      try {
        Deno.linkSync(c.path, store.latest); // a link never overwrites a pointer written meanwhile
        restored = slug;
      } catch { /* a newer LATEST exists: it wins */ }
    }
    removeQuietly(c.path);
  }
  return restored;
}

/** Removes a file, ignoring every error. */
export function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch { /* already gone, or not ours to remove */ }
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

/** Reads a file that must be UTF-8, byte for byte (a BOM is kept); undefined when it is not. */
export function readUtf8(path: string): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
      Deno.readFileSync(path),
    );
  } catch {
    return undefined;
  }
}

/** Ensures the store directory exists. */
export function ensureStore(store: Store): void {
  Deno.mkdirSync(store.dir, { recursive: true });
}
