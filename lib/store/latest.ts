/**
 * The LATEST pointer and the restored marker, read side: what they are called and what they
 * name. Every write of them is lib/store/lifecycle.ts.
 * @module
 */

import { join } from "../fs/path.ts";
import { safeSessionId } from "./front_matter.ts";
import type { Store } from "./store.ts";

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
