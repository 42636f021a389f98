/**
 * The LATEST pointer and the restored marker, read side: what they are called and what they
 * name. Every write of them is lib/store/lifecycle.ts.
 * @module
 */

import { join, readUtf8 } from "../fs/path.ts";
import { safeSessionId } from "./front_matter.ts";
import { isSafeSlug, type Store } from "./store.ts";

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
 * hook's restore, or `recall` in that session: lib/store/lifecycle.ts); undefined when there is no
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

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
