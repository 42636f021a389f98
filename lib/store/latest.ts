/**
 * The LATEST pointer: read it, point it at a dump, clear it under the docs lock
 * (lib/store/docs_lock.ts), and recover the claims that earlier versions of the hook could leave
 * behind when killed.
 * @module
 */

import { TEMP_PREFIX, writeFileAtomicSync } from "../fs/atomic.ts";
import { exists, join, readUtf8, removeQuietly } from "../fs/path.ts";
import { safeSessionId, splitFrontMatter } from "./front_matter.ts";
import { isSafeSlug, readDoc, type Store } from "./store.ts";

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

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
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

/** The marker of the handover a session started from: `.restored-<session id>` in the store. */
export const RESTORED_PREFIX = ".restored-";

/**
 * Where the restore leaves the record of which handover this session started from, for the
 * continuity card after a compaction (lib/continuity/material.ts reads its first line, the slug):
 * `.restored-<session id>` in the store `dir`; undefined for a session id a file name cannot carry
 * plainly (no record then).
 */
export function restoredMarker(dir: string, sessionId: string | undefined): string | undefined {
  return safeSessionId(sessionId) ? join(dir, `${RESTORED_PREFIX}${sessionId}`) : undefined;
}

/**
 * The handover session `sessionId` started from, as its `.restored-<id>` record names it (the
 * hook's restore, or `recall` in that session: {@link markRestored}); undefined when there is no
 * record, or it names no slug a document could have.
 */
export function restoredSlug(store: Store, sessionId: string | undefined): string | undefined {
  const marker = restoredMarker(store.dir, sessionId);
  // A named pipe would block the read: a regular file or nothing.
  const slug = marker !== undefined && isFile(marker)
    ? readUtf8(marker)?.split("\n", 1)[0].trim()
    : undefined;
  return slug !== undefined && isSafeSlug(slug) ? slug : undefined;
}

/**
 * Records that session `sessionId` started from `slug` because `recall` printed it there: the
 * first record stands (the handover a session started from does not change when it later looks
 * another one up). Whether it was written.
 */
export function markRestored(store: Store, sessionId: string | undefined, slug: string): boolean {
  const marker = restoredMarker(store.dir, sessionId);
  if (marker === undefined || !isSafeSlug(slug) || exists(marker)) return false;
  writeFileAtomicSync(marker, `${slug}\n`);
  return true;
}

/**
 * Takes LATEST away after the consume, holding the docs lock: renamed to `marker` when given (one
 * call; it holds the slug already), else — or when that fails — removed. A LATEST left behind
 * names a consumed document: harmless; a missing marker costs the card its handover, never the
 * restore.
 */
export function takeLatestAs(latest: string, marker: string | undefined): void {
  try {
    if (marker !== undefined) return Deno.renameSync(latest, marker);
  } catch { /* removed below */ }
  removeQuietly(latest);
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
