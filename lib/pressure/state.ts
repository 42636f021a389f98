/**
 * The context-pressure state of each session, kept in the store as two hidden files per session
 * (two writers, so neither can lose the other's update):
 * - `.nudged-<session id>`: the thresholds the nudge has fired at (the UserPromptSubmit hook);
 * - `.fill-<session id>`: the client's exact context figures (`session.ts statusline`).
 * Both are written atomically; files of sessions quiet for a week are removed when a nudge fires.
 * @module
 */

import { writeFileAtomicSync } from "../fs/atomic.ts";
import { join, readUtf8 } from "../fs/path.ts";
import { safeSessionId } from "../store/front_matter.ts";
import { ensureStore, type Store } from "../store/store.ts";
import { isoStamp } from "../store/time.ts";
import { pruneSessionFiles } from "../store/sessions.ts";
import type { Fill } from "./fill.ts";

/** The prefix of a session's nudge mark. */
export const NUDGED_PREFIX = ".nudged-";
/** The prefix of a session's statusline figures. */
export const FILL_PREFIX = ".fill-";

function pathOf(store: Store, prefix: string, session: string): string | undefined {
  return safeSessionId(session) ? join(store.dir, `${prefix}${session}`) : undefined;
}

/** The thresholds already fired for `session` (none when there is no readable mark). */
export function readMarked(store: Store, session: string): number[] {
  const path = pathOf(store, NUDGED_PREFIX, session);
  const text = path === undefined ? undefined : readUtf8(path);
  if (text === undefined) return [];
  return text.trim().split(",").map(Number).filter((n) => Number.isInteger(n) && n > 0);
}

/**
 * Records that the nudge fired at `thresholds` for `session` (with those already marked), creating
 * the store when it is missing, and removes the pressure files of sessions quiet for a week.
 * False when the mark cannot be written (then the nudge says nothing: it would repeat).
 */
export function mark(store: Store, session: string, thresholds: number[], now: Date): boolean {
  const path = pathOf(store, NUDGED_PREFIX, session);
  if (path === undefined) return false;
  try {
    ensureStore(store);
    const all = [...new Set([...readMarked(store, session), ...thresholds])].sort((a, b) => a - b);
    writeFileAtomicSync(path, `${all.join(",")}\n`);
  } catch {
    return false;
  }
  pruneSessionFiles(store, [NUDGED_PREFIX, FILL_PREFIX], now);
  return true;
}

/** The statusline's figures for `session`, when it has recorded any. */
export function readStatusFill(store: Store, session: string): Fill | undefined {
  const path = pathOf(store, FILL_PREFIX, session);
  const text = path === undefined ? undefined : readUtf8(path);
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text);
    const ok = (n: unknown) => typeof n === "number" && Number.isFinite(n) && n >= 0;
    if (!ok(v?.used) || !ok(v?.size) || v.size === 0) return undefined;
    return { used: v.used, size: v.size, source: "statusline" };
  } catch {
    return undefined;
  }
}

/**
 * Records the statusline's figures for `session`, only when they changed, in an existing store;
 * with `create` (a project an install names: lib/agents/installed.ts), creating it first. A status
 * line runs in every project of a user-wide install: there it never creates one.
 */
export function recordStatusFill(
  store: Store,
  session: string,
  fill: Fill,
  now: Date,
  create = false,
): boolean {
  const path = pathOf(store, FILL_PREFIX, session);
  if (path === undefined) return false;
  const before = readStatusFill(store, session);
  if (before && before.used === fill.used && before.size === fill.size) return false;
  try {
    if (create) ensureStore(store);
    else if (!Deno.statSync(store.dir).isDirectory) return false;
    writeFileAtomicSync(
      path,
      `${JSON.stringify({ used: fill.used, size: fill.size, at: isoStamp(now) })}\n`,
    );
    return true;
  } catch {
    return false;
  }
}
