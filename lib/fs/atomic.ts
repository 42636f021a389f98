/**
 * Atomic file writes: a temp file in the same directory, then a rename over the target,
 * so a reader (or a process killed mid-write) sees the old file or the new one, never half.
 *
 * Modes (POSIX; Windows has none to keep). The temp file is created 0600, so no other user can
 * read it while it is written, and then takes its final mode before the rename:
 * - replacing a file: that file's mode (a user's settings.json stays 0644, or whatever it was);
 * - a new file in a private directory (no group or other bits: the store, 0700, lib/store/store.ts
 *   `ensureStore`): 0600, readable by the user only;
 * - a new file elsewhere (a new .gitignore or settings.json): the usual mode (0666 less the umask).
 * The rule sits here, not in each caller, so every writer of the store gets it, hooks included.
 * @module
 */

import { truncateUtf8 } from "../text/bytes.ts";

/** Prefix of every temp file this project writes; readers of the store skip these names. */
export const TEMP_PREFIX = ".tmp-";

/** The longest file name (one path component) the file systems we run on take, in bytes. */
export const FILE_NAME_MAX_BYTES = 255;

function tempPathFor(path: string): string {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const dir = slash >= 0 ? path.slice(0, slash + 1) : "";
  const base = path.slice(slash + 1);
  const tail = `.${Deno.pid}.${Math.random().toString(36).slice(2, 10)}`;
  // A target name near the limit must still get a temp name the file system takes: its base is
  // cut (readers skip every TEMP_PREFIX name whatever follows).
  const room = FILE_NAME_MAX_BYTES - TEMP_PREFIX.length - tail.length;
  return `${dir}${TEMP_PREFIX}${truncateUtf8(base, room)}${tail}`;
}

/**
 * A file's content: text, bytes, or bytes in pieces written one after another (an edit of a large
 * file writes its unchanged parts from where they are, never copied into one new buffer first).
 */
export type FileData = string | Uint8Array | readonly Uint8Array[];

/** A new file in a private directory: readable and writable by the user only. */
export const PRIVATE_FILE = 0o600;
/** A directory of the store: the user's only. */
export const PRIVATE_DIR = 0o700;

const POSIX = Deno.build.os !== "windows";

/** The permission bits of `path` (following symlinks); undefined when it does not exist. */
function modeOf(path: string): number | undefined {
  try {
    const mode = Deno.statSync(path).mode;
    return mode === null ? undefined : mode & 0o777;
  } catch {
    return undefined;
  }
}

function dirOf(path: string): string {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".";
}

/**
 * The mode the file at `path` should end with (see the module doc), or undefined for the usual
 * one (0666 less the umask, what creating it gives).
 */
export function targetMode(path: string): number | undefined {
  if (!POSIX) return undefined;
  const kept = modeOf(path);
  if (kept !== undefined) return kept;
  const dir = modeOf(dirOf(path));
  return dir !== undefined && (dir & 0o077) === 0 ? PRIVATE_FILE : undefined;
}

/** How a temp file is created: 0600 whenever the final mode is known, else the usual mode. */
function createOptions(mode: number | undefined): Deno.WriteFileOptions {
  return mode === undefined ? { createNew: true } : { createNew: true, mode: PRIVATE_FILE };
}

/** Gives the written temp file its final mode (the umask may have narrowed a kept one). */
function settleSync(tmp: string, mode: number | undefined): void {
  if (mode !== undefined && mode !== PRIVATE_FILE) Deno.chmodSync(tmp, mode);
}

/** The test fault this process injects (see {@link setFault}); none in production. */
let fault: string | undefined;

/**
 * Sets the test fault point, checked only where a write happens (never on a read-only path):
 * `short-write` writes half of the new file and fails as a full disk does; `pause` writes half,
 * says `session fault: paused mid-write` on stderr and waits to be killed. Tests use it to prove
 * that a write cut short leaves the store as it was. Set from `SESSION_FAULT` by the CLI and from
 * `--test-fault` by the hook (whose grant names only the variables it reads for users).
 */
export function setFault(value: string | undefined): void {
  fault = value === "short-write" || value === "pause" ? value : undefined;
}

/** The fault point itself: a no-op unless {@link setFault} armed it. */
function injectFault(path: string, data: FileData, mode: number | undefined): void {
  if (fault === undefined) return;
  const chunks = typeof data === "string"
    ? [new TextEncoder().encode(data)]
    : data instanceof Uint8Array
    ? [data]
    : data;
  const size = chunks.reduce((sum, c) => sum + c.length, 0);
  writeChunksSync(path, chunks, mode, size >> 1);
  if (fault === "short-write") throw new Error("No space left on device (os error 28)");
  console.error("session fault: paused mid-write");
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
}

/**
 * Writes `chunks` one after another to a new file, at most `limit` bytes (the fault point's half).
 * Joining them first would cost a fresh buffer of the file's size and its page faults.
 */
function writeChunksSync(
  path: string,
  chunks: readonly Uint8Array[],
  mode: number | undefined,
  limit = Infinity,
): void {
  const file = Deno.openSync(path, { write: true, ...createOptions(mode) });
  try {
    let left = limit;
    for (const chunk of chunks) {
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
      for (let at = 0; at < part.length;) {
        const n = file.writeSync(part.subarray(at));
        // A file system that takes nothing and reports no error would loop here forever.
        if (n <= 0) throw new Error(`wrote nothing to ${path} (the disk may be full)`);
        at += n;
      }
      left -= part.length;
    }
  } finally {
    file.close();
  }
}

/**
 * The complete temp file beside `path` that the atomic writers rename or link into place, created
 * with the mode `path` will end up with; on a failure it is gone again and the error rethrown.
 * Written synchronously by every writer: the files are small, and one way is easier to keep right.
 */
function writeTemp(path: string, data: FileData): string {
  const tmp = tempPathFor(path);
  const mode = targetMode(path);
  try {
    injectFault(tmp, data, mode);
    if (typeof data === "string") Deno.writeTextFileSync(tmp, data, createOptions(mode));
    else if (data instanceof Uint8Array) Deno.writeFileSync(tmp, data, createOptions(mode));
    else writeChunksSync(tmp, data, mode);
    settleSync(tmp, mode);
    return tmp;
  } catch (err) {
    discardSync(tmp);
    throw err;
  }
}

/** Removes a temp file a failed write leaves, if any: the write's own error is the one to report. */
function discardSync(tmp: string): void {
  try {
    Deno.removeSync(tmp);
  } catch { /* never created, or already gone */ }
}

/** Writes `data` to `path` atomically (sync: the hook's hot path avoids the async machinery). */
export function writeFileAtomicSync(path: string, data: FileData): void {
  const tmp = writeTemp(path, data);
  try {
    Deno.renameSync(tmp, path);
  } catch (err) {
    discardSync(tmp);
    throw err;
  }
}

/** Writes `data` to `path` atomically. */
export async function writeFileAtomic(path: string, data: FileData): Promise<void> {
  const tmp = writeTemp(path, data);
  try {
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/**
 * Writes `data` to a new file at `path`, atomically and only if `path` does not exist: the complete
 * temp file is hard-linked into place (a link never overwrites), so of two writers racing for one
 * name exactly one wins. Returns false when the name was already taken.
 */
export async function createFileAtomic(path: string, data: FileData): Promise<boolean> {
  // A new file only: the directory decides its mode (an existing one is never replaced).
  const tmp = writeTemp(path, data);
  try {
    try {
      await Deno.link(tmp, path);
      return true;
    } catch (err) {
      if (err instanceof Deno.errors.AlreadyExists) return false;
      // No hard links here (some network or FUSE filesystems): the best a rename can do.
      if (await Deno.lstat(path).then(() => true, () => false)) return false;
      await Deno.rename(tmp, path);
      return true;
    }
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
}
