/**
 * The docs lock of one store, which every writer of a document or LATEST holds (`dump`, `recover`,
 * `recall`, `list`'s expiry, SessionEnd, the hook's consume): none of them can write an older
 * version of a document back over a newer one.
 * @module
 */

import { acquireLock, docsLockTarget, type Lock, LockTimeoutError } from "../fs/lock.ts";
import { isDir } from "../fs/path.ts";
import type { Store } from "./store.ts";

/**
 * Runs `fn` holding the store's docs lock (lib/fs/lock.ts `docsLockTarget`). Where it cannot be
 * had because the store is missing or cannot be written (read-only), no write can happen either
 * and `fn` runs without it; a timeout is an error.
 */
export async function withDocsLock<T>(store: Store, fn: () => Promise<T> | T): Promise<T> {
  let lock: Lock | undefined;
  try {
    if (isDir(store.dir)) lock = await acquireLock(docsLockTarget(store.dir));
  } catch (err) {
    if (err instanceof LockTimeoutError) throw err;
  }
  try {
    return await fn();
  } finally {
    lock?.release();
  }
}
