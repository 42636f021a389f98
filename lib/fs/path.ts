/**
 * Paths and small file-system queries every area shares: joining and walking paths (with `/`,
 * which Deno accepts everywhere), existence checks, strict UTF-8 reads, quiet removal, and
 * whether a path leads out of a root through a symlink. Sync and dependency-free: the hook uses it.
 * @module
 */

import { strictUtf8 } from "../text/utf8.ts";

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

/** Removes a file, ignoring every error. */
export function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch { /* already gone, or not ours to remove */ }
}

/** Reads a file that must be UTF-8, byte for byte (a BOM is kept); undefined when it is not. */
export function readUtf8(path: string): string | undefined {
  try {
    return strictUtf8(Deno.readFileSync(path));
  } catch {
    return undefined;
  }
}
