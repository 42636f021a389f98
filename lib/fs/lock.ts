/**
 * A cross-process lock around read-modify-write edits of one file (PARKED.md), so 50 concurrent
 * `park` calls keep 50 items and a `drop` racing a `park` loses neither.
 *
 * Two kinds, chosen automatically:
 * - **flock** (the default): an advisory OS lock (`flock`/`LockFileEx`) on `<file>.lock`. The
 *   kernel releases it the moment its holder exits or is killed, so a dead holder can never leave
 *   a stale lock behind. The lock file itself stays (empty) — deleting it would race.
 * - **file** (fallback where the filesystem refuses OS locks, and on a Deno without the
 *   non-blocking `FsFile.tryLockSync`, 2.0 and 2.2 among them): `<file>.lock.held` created
 *   exclusively, holding `{pid, boot, ts}`. It is stale, and taken over, when its holder is a
 *   dead process on this machine (same boot id, no `/proc/<pid>`); when it cannot be judged by
 *   pid (no `--allow-all`, so no boot id; another machine) and its holder has not touched it for
 *   {@link LOCK_SILENT_MS} (a live holder touches it every {@link LOCK_BEAT_MS}); or when it is
 *   older than {@link LOCK_STALE_MS}. Takeover renames the stale file away first, so of several waiters only
 *   one wins, and a fresh lock captured by mistake is put back.
 *
 * A waiter gives up after {@link LOCK_WAIT_MS} with a {@link LockTimeoutError}; it never steals
 * an OS lock from a live holder.
 * @module
 */

import { FailureError } from "../errors.ts";
import { PRIVATE_FILE, TEMP_PREFIX } from "./atomic.ts";
import { parentDir } from "./path.ts";

/** How long a waiter waits for the lock before giving up (ms). */
export const LOCK_WAIT_MS = 30_000;
/** A fallback lock file older than this is stale whoever holds it (ms). Edits take milliseconds. */
export const LOCK_STALE_MS = 60_000;

/** How often a holder touches its fallback lock file, saying it is alive (ms). */
export const LOCK_BEAT_MS = 1_000;
/** A fallback lock untouched this long, whose holder cannot be judged by pid, is stale (ms). */
export const LOCK_SILENT_MS = 10_000;
/**
 * A fallback lock file still empty this long is stale (ms): its creator writes the holder right
 * after creating it, so an empty one this old is a crash mid-write, not a holder at work.
 */
export const LOCK_EMPTY_GRACE_MS = 2_000;

/** Whether this Deno can try an OS lock without blocking (else every lock is the file kind). */
export const OS_LOCKS = typeof Deno.FsFile.prototype.tryLockSync === "function";

/** The lock could not be had within the wait time. */
export class LockTimeoutError extends FailureError {
  override name = "LockTimeoutError";
}

/** Options of {@link acquireLock}. */
export interface LockOptions {
  /** Give up after this many ms (default {@link LOCK_WAIT_MS}). */
  waitMs?: number;
  /** Fallback lock files older than this are stale (default {@link LOCK_STALE_MS}). */
  staleMs?: number;
  /** Untouched fallback locks are stale after this (default {@link LOCK_SILENT_MS}). */
  silentMs?: number;
  /** Force a kind (tests); default: `flock`, falling back to `file` where unsupported. */
  kind?: "flock" | "file";
}

/** A held lock. */
export interface Lock {
  kind: "flock" | "file";
  /** The lock file's path. */
  path: string;
  /** Releases the lock (idempotent). */
  release(): void;
}

/** The content of a fallback lock file. */
interface Holder {
  pid: number;
  boot?: string;
  ts: number;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Backoff with jitter so many waiters do not wake in lockstep. */
function backoff(attempt: number): number {
  return Math.min(25, 1 + attempt) * (0.5 + Math.random());
}

function timeoutError(path: string, waitMs: number): LockTimeoutError {
  return new LockTimeoutError(
    `another session process has held ${path} for over ${Math.round(waitMs / 1000)} s; ` +
      `try again, or look for a hung "session.ts" process`,
  );
}

/**
 * The lock every writer of a store's documents and LATEST holds (dump, recall, list's expiry, the
 * hook): each re-reads what it decided on under the lock, so none writes back an older version over
 * a newer one.
 */
export function docsLockTarget(storeDir: string): string {
  return `${storeDir}/.docs`;
}

/** Acquires the lock guarding `target` (lock file `<target>.lock`), waiting as needed. */
export async function acquireLock(target: string, opts: LockOptions = {}): Promise<Lock> {
  const waitMs = opts.waitMs ?? LOCK_WAIT_MS;
  if (opts.kind === "flock" || (opts.kind === undefined && OS_LOCKS)) {
    const lock = await acquireFlock(`${target}.lock`, waitMs, opts.kind === "flock");
    if (lock) return lock;
  }
  return await acquireFileLock(`${target}.lock.held`, waitMs, staleAges(opts));
}

/** Runs `fn` holding the lock guarding `target`; always releases it. */
export async function withLock<T>(
  target: string,
  fn: () => Promise<T> | T,
  opts: LockOptions = {},
): Promise<T> {
  const lock = await acquireLock(target, opts);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/**
 * {@link acquireLock} for sync callers (the hook): the same lock files, waiting by
 * blocking sleeps. A hook must never hang a session, so callers pass a short `waitMs`.
 */
export function acquireLockSync(target: string, opts: LockOptions = {}): Lock {
  const waitMs = opts.waitMs ?? LOCK_WAIT_MS;
  const ages = staleAges(opts);
  const start = performance.now();
  if (opts.kind === "flock" || (opts.kind === undefined && OS_LOCKS)) {
    const path = `${target}.lock`;
    const file = Deno.openSync(path, { read: true, write: true, create: true, mode: PRIVATE_FILE });
    try {
      for (let attempt = 0; !file.tryLockSync(true); attempt++) {
        if (performance.now() - start > waitMs) throw timeoutError(path, waitMs);
        sleepSync(backoff(attempt));
      }
      return flockHeld(path, file);
    } catch (err) {
      file.close();
      if (err instanceof LockTimeoutError || opts.kind === "flock") throw err;
    }
  }
  const path = `${target}.lock.held`;
  const boot = bootId();
  for (let attempt = 0;; attempt++) {
    const lock = tryFileLock(path, ages, boot);
    if (lock) return lock;
    if (performance.now() - start > waitMs) throw timeoutError(path, waitMs);
    sleepSync(backoff(attempt));
  }
}

/** The ages after which a fallback lock is stale (see {@link isStale}). */
interface StaleAges {
  staleMs: number;
  silentMs: number;
}

function staleAges(opts: LockOptions): StaleAges {
  return { staleMs: opts.staleMs ?? LOCK_STALE_MS, silentMs: opts.silentMs ?? LOCK_SILENT_MS };
}

/** Blocks the thread for `ms` (no event loop turns): the sync lock's wait between tries. */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The OS lock; undefined when the filesystem does not support it (and `strict` is off). */
async function acquireFlock(
  path: string,
  waitMs: number,
  strict: boolean,
): Promise<Lock | undefined> {
  const file = Deno.openSync(path, { read: true, write: true, create: true, mode: PRIVATE_FILE });
  const start = performance.now();
  try {
    for (let attempt = 0;; attempt++) {
      if (file.tryLockSync(true)) break;
      if (performance.now() - start > waitMs) throw timeoutError(path, waitMs);
      await sleep(backoff(attempt));
    }
  } catch (err) {
    file.close();
    if (err instanceof LockTimeoutError || strict) throw err;
    return undefined;
  }
  return flockHeld(path, file);
}

/** A held lock whose `release` runs `free` the first time only (release is idempotent). */
function heldLock(kind: Lock["kind"], path: string, free: () => void): Lock {
  let held = true;
  return {
    kind,
    path,
    release() {
      if (!held) return;
      held = false;
      free();
    },
  };
}

function flockHeld(path: string, file: Deno.FsFile): Lock {
  return heldLock("flock", path, () => {
    try {
      file.unlockSync();
    } finally {
      file.close();
    }
  });
}

function readTextOr(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** This machine's boot id (Linux); undefined elsewhere. Tells our pids from another host's. */
function bootId(): string | undefined {
  return readTextOr("/proc/sys/kernel/random/boot_id")?.trim() || undefined;
}

function parseHolder(text: string | undefined): Holder | undefined {
  if (!text) return undefined;
  try {
    const h = JSON.parse(text);
    return typeof h?.pid === "number" && typeof h?.ts === "number" ? h : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a fallback lock is stale: its holder died here, or (not judged by pid) it went
 * untouched for `silentMs`, or it is simply older than `staleMs`.
 */
export function isStale(
  holder: Holder | undefined,
  mtimeMs: number | undefined,
  nowMs: number,
  { staleMs, silentMs }: StaleAges,
  here: { boot?: string; alive: (pid: number) => boolean },
): boolean {
  const since = holder?.ts ?? mtimeMs;
  if (since === undefined || nowMs - since > staleMs) return true;
  if (holder && holder.boot && holder.boot === here.boot) return !here.alive(holder.pid);
  return mtimeMs !== undefined && nowMs - mtimeMs > silentMs;
}

function pidAlive(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

async function acquireFileLock(path: string, waitMs: number, ages: StaleAges): Promise<Lock> {
  const start = performance.now();
  const boot = bootId();
  for (let attempt = 0;; attempt++) {
    const lock = tryFileLock(path, ages, boot);
    if (lock) return lock;
    if (performance.now() - start > waitMs) throw timeoutError(path, waitMs);
    await sleep(backoff(attempt));
  }
}

/**
 * One attempt at the fallback lock (taking a stale one over) by this process on machine `boot`;
 * undefined while another holds it.
 */
function tryFileLock(
  path: string,
  ages: StaleAges,
  boot: string | undefined,
): Lock | undefined {
  // Stamped at each try: the age rule counts from when the lock was taken, not waited for.
  const mine = JSON.stringify({ pid: Deno.pid, boot, ts: Date.now() } satisfies Holder);
  try {
    Deno.writeTextFileSync(path, mine, { createNew: true, mode: PRIVATE_FILE });
    // Touch only our own lock, remove only our own lock: a takeover may have replaced it.
    const beat = setInterval(() => {
      try {
        if (readTextOr(path) === mine) Deno.utimeSync(path, new Date(), new Date());
      } catch { /* released or taken over meanwhile */ }
    }, LOCK_BEAT_MS);
    Deno.unrefTimer(beat);
    return heldLock("file", path, () => {
      clearInterval(beat);
      if (readTextOr(path) === mine) Deno.removeSync(path);
    });
  } catch (err) {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
  }
  const seen = readTextOr(path);
  let mtime: number | undefined;
  try {
    mtime = Deno.statSync(path).mtime?.getTime();
  } catch {
    return undefined; // released meanwhile: the caller tries again
  }
  const alive = boot ? pidAlive : () => true;
  // A lock file still being written has no content yet: give its creator a moment.
  const grace = seen
    ? ages
    : { staleMs: Math.min(ages.staleMs, LOCK_EMPTY_GRACE_MS), silentMs: ages.silentMs };
  if (isStale(parseHolder(seen), mtime, Date.now(), grace, { boot, alive })) takeOver(path, seen);
  return undefined;
}

/** Moves a stale lock file away; puts it back if it turned out to be a fresh one. */
function takeOver(path: string, seen: string | undefined): void {
  const dir = parentDir(path) ?? ".";
  const aside = `${dir}/${TEMP_PREFIX}lock.stale.${Deno.pid}.${
    Math.random().toString(36).slice(2, 10)
  }`;
  try {
    Deno.renameSync(path, aside);
  } catch {
    return; // another waiter took it over first
  }
  if (readTextOr(aside) !== seen) {
    try {
      Deno.linkSync(aside, path); // never overwrites a lock created meanwhile
    } catch { /* a newer lock exists: it wins */ }
  }
  try {
    Deno.removeSync(aside);
  } catch { /* gone already */ }
}
