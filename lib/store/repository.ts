/**
 * Which git repository a directory belongs to, read from the files git keeps — a checkout's
 * `.git` (a directory, or a file `gitdir: <path>` in linked worktrees and submodules), a linked
 * worktree's `commondir`, the common dir's `config` and `worktrees/<id>/gitdir` — never by running
 * git, which would cost the hook its budget. One repository has one store, at its home: the main
 * worktree, or the common dir itself when the repository is bare (docs/STORE.md "Worktrees").
 * Sync and dependency-free: the hook uses it.
 * @module
 */

import { absolute, exists, isDir, join, parentDir } from "../fs/path.ts";

/** The checkout a directory is in, and the repository it belongs to. */
export interface Checkout {
  /** The checkout's top-level: the directory holding `.git`. */
  top: string;
  /** The repository's common git dir. */
  common: string;
  /** Set in a linked worktree: its git dir, `<common>/worktrees/<id>`. */
  linked?: string;
  /** Where the repository keeps its one store: the main worktree, or the common dir when bare. */
  home: string;
}

/** The most of a file git keeps that is read: a `.git`, `commondir` or `config` is far smaller. */
const MAX_GIT_FILE_BYTES = 64 * 1024;

/**
 * The text of a small regular file git keeps; undefined when it is missing, unreadable, too large,
 * or not a regular file (a FIFO planted as `.git` would block the read, and the hook with it).
 */
function smallText(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile || info.size > MAX_GIT_FILE_BYTES) return undefined;
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** The first line of a small file git keeps, without its line ending; undefined when unreadable. */
function firstLine(path: string): string | undefined {
  return smallText(path)?.split("\n")[0].replace(/\r$/, "").trim();
}

/**
 * The checkout whose top-level is `top` (a directory holding `.git`; one whose `.git` names nothing
 * readable is taken as its own repository). A `.git` file names the git dir (relative paths from the file's
 * directory); a git dir with `commondir` is a linked worktree's, any other (a submodule's
 * `.git/modules/<name>`, a `--separate-git-dir`) is its own repository's.
 */
export function checkoutAt(top: string): Checkout {
  const dotGit = join(top, ".git");
  const line = isDir(dotGit) ? undefined : firstLine(dotGit);
  const m = line === undefined ? null : /^gitdir:\s*(.+)$/.exec(line);
  if (!m) return { top, common: dotGit, home: top };
  const gitDir = absolute(m[1], top);
  const commonLine = firstLine(join(gitDir, "commondir"));
  if (!commonLine) return { top, common: gitDir, home: top };
  const common = absolute(commonLine, gitDir);
  return { top, common, linked: gitDir, home: homeOf(common) ?? common };
}

/**
 * The main worktree of the repository whose common dir is `common`: its parent when the common
 * dir is a `.git` directory; else `core.worktree` of its config (a submodule's worktrees); else
 * none — a bare repository.
 */
function homeOf(common: string): string | undefined {
  if (/[\\/]\.git$/.test(common)) return parentDir(common);
  const config = smallText(join(common, "config"));
  if (config === undefined) return undefined;
  if (/^\s*bare\s*=\s*true\s*$/mi.test(config)) return undefined;
  const m = /^\s*worktree\s*=\s*(.+?)\s*$/m.exec(config);
  return m ? absolute(m[1].replace(/^"(.*)"$/, "$1"), common) : undefined;
}

/** The checkout `dir` is in (walking up to the nearest `.git`), or undefined outside git. */
export function findCheckout(dir: string): Checkout | undefined {
  for (let d: string | undefined = absolute(dir, "/"); d !== undefined; d = parentDir(d)) {
    if (exists(join(d, ".git"))) return checkoutAt(d);
  }
  return undefined;
}

/**
 * The path in the repository's home that `dir` (inside `checkout`) stands for: the same path
 * relative to the main worktree, so a project below the top-level of a worktree keeps the store
 * the same project has in the main worktree. A bare repository has one place: its common dir.
 */
export function homeFor(checkout: Checkout, dir: string): string {
  if (checkout.linked === undefined) return dir;
  if (checkout.home === checkout.common) return checkout.common;
  const rel = dir.slice(checkout.top.length).replace(/^[\\/]+/, "");
  return rel === "" ? checkout.home : join(checkout.home, rel);
}

/**
 * What a handover records as the worktree it was written in: undefined outside a linked worktree;
 * the worktree's path relative to the main worktree when inside it (`.claude/worktrees/feat`),
 * else absolute.
 */
export function worktreeLabel(checkout: Checkout | undefined): string | undefined {
  return checkout?.linked === undefined ? undefined : labelOf(checkout.home, checkout.top);
}

/** The `worktree:` of a worktree at `top`: relative to `home` when inside it, else absolute. */
export function labelOf(home: string, top: string): string {
  const base = home.replace(/[\\/]+$/, "");
  // One front-matter line, read back as written (lib/store/front_matter.ts trims a value).
  return (top.startsWith(`${base}/`) ? top.slice(base.length + 1) : top).replace(/[\r\n]/g, " ")
    .trim();
}

/** A linked worktree git knows of: its id and top-level (which may no longer exist). */
export interface LinkedWorktree {
  id: string;
  top: string;
}

/**
 * The linked worktrees of the repository whose common dir is `common`, from
 * `<common>/worktrees/<id>/gitdir` (the path of the worktree's `.git` file); none when unreadable.
 */
export function linkedWorktrees(common: string): LinkedWorktree[] {
  const out: LinkedWorktree[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(join(common, "worktrees"))];
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!e.isDirectory) continue;
    const dir = join(common, "worktrees", e.name);
    const line = firstLine(join(dir, "gitdir"));
    if (!line) continue;
    const top = parentDir(absolute(line, dir));
    if (top !== undefined) out.push({ id: e.name, top });
  }
  return out.sort((a, b) => a.top < b.top ? -1 : a.top > b.top ? 1 : 0);
}
