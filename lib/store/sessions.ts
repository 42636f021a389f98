/**
 * Which agent session a handover belongs to, when several sessions work in one project: the
 * store's documents written by one session (front matter `session:`), and the short-lived mark
 * `.clearing-<session id>` that SessionEnd (`reason: "clear"`) leaves for the SessionStart that
 * follows it, so the new session knows which session it succeeds (docs/HOOK.md, "Two sessions in
 * one project").
 * @module
 */

import { TEMP_PREFIX, writeFileAtomicSync } from "../fs/atomic.ts";
import { exists, isDir, join, readUtf8, removeQuietly } from "../fs/path.ts";
import { safeSessionId, splitFrontMatter } from "./front_matter.ts";
import type { Store } from "./store.ts";
import { FUTURE_SKEW_MS, isoStamp, parseStamp } from "./time.ts";

/** A document of the store that came from one session. */
export interface SessionDoc {
  slug: string;
  fields: Record<string, string>;
  /** `created` in ms, NaN when it is missing or not a stamp. */
  created: number;
  /** The document's text as read. */
  text: string;
}

/**
 * The store's documents that say they came from `session` (front matter `session:`), newest
 * first. Hidden files and other names are never documents; a symlinked or unreadable one is
 * passed over (readDoc's confinement applies when it is read whole).
 */
export function sessionDocs(dir: string, session: string): SessionDoc[] {
  const found: SessionDoc[] = [];
  for (const [name, kind] of listFiles(dir)) {
    // Regular files only; hidden names (temp files, marks, the compaction card) are no documents.
    if (kind !== "file" || !name.endsWith(".md") || name.startsWith(".")) continue;
    const slug = name.slice(0, -3);
    const text = readUtf8(join(dir, name));
    // A cheap test first: most documents are other sessions'.
    if (text === undefined || !text.includes(session)) continue;
    const fields = splitFrontMatter(text)?.fields;
    if (fields?.session !== session) continue;
    found.push({ slug, fields, created: parseStamp(fields.created) ?? NaN, text });
  }
  return found.sort((a, b) => (b.created || 0) - (a.created || 0));
}

/** The prefix of the mark a session's SessionEnd (`/clear`) leaves: `.clearing-<session id>`. */
export const CLEARING_PREFIX = ".clearing-";

/**
 * How long a clearing mark links its session to the next SessionStart. The agent starts the new
 * session right after SessionEnd finishes (Claude Code waits for it), so a minute is ample; an
 * older mark is some session's `/clear` whose SessionStart never came, and links nothing.
 */
export const CLEARING_MS = 60_000;

/**
 * Leaves the mark "session `session` is clearing, at `now`" in the store (atomic); nothing for a
 * session id a file name cannot carry plainly, or when the store does not exist (then it holds no
 * handover to link).
 */
export function markClearing(store: Store, session: string, now: Date): boolean {
  return leaveMark(store, CLEARING_PREFIX, session, now);
}

/** `<prefix><session>` holding `now`, written atomically; false when it cannot be left. */
function leaveMark(store: Store, prefix: string, session: string, now: Date): boolean {
  if (!safeSessionId(session)) return false;
  if (!isDir(store.dir)) return false;
  writeFileAtomicSync(join(store.dir, `${prefix}${session}`), `${isoStamp(now)}\n`);
  return true;
}

/**
 * Takes the newest clearing mark younger than {@link CLEARING_MS} at `now` (a minute of clock skew
 * allowed ahead): the session the starting one succeeds. Each mark is taken by renaming it to a
 * private claim (of two hooks racing, one gets it); marks too old to link anything are removed.
 * Undefined when there is none.
 */
export function takeClearing(store: Store, now: Date): string | undefined {
  const marks: { session: string; at: number }[] = [];
  for (const [name, kind] of listFiles(store.dir)) {
    if (kind !== "file" || !name.startsWith(CLEARING_PREFIX)) continue;
    const session = name.slice(CLEARING_PREFIX.length);
    const path = join(store.dir, name);
    const at = markedAt(path);
    const age = now.getTime() - at;
    if (age >= -FUTURE_SKEW_MS && age <= CLEARING_MS) marks.push({ session, at });
    else removeQuietly(path); // stale, unreadable or from a wrong clock: it links nothing
  }
  for (const mark of marks.sort((a, b) => b.at - a.at)) {
    const path = join(store.dir, `${CLEARING_PREFIX}${mark.session}`);
    const claim = join(store.dir, `${TEMP_PREFIX}clearing.claim.${crypto.randomUUID()}`);
    try {
      Deno.renameSync(path, claim);
    } catch {
      continue; // another hook took it
    }
    removeQuietly(claim);
    return mark.session;
  }
  return undefined;
}

/**
 * The prefix of the mark a session's SessionEnd for good (exit, logout: any reason but `clear`)
 * leaves: `.ended-<session id>`. Such a session has no successor, so its pending handover is no
 * longer held for one: the next `/clear` of any session may take it.
 */
export const ENDED_PREFIX = ".ended-";

/**
 * How long an ended mark is kept: a handover is written before its session ends, so once the end
 * is older than any restore window the handover it frees is out of every window too.
 */
export const ENDED_MS = 24 * 60 * 60 * 1000;

/**
 * Leaves the mark "session `session` ended for good, at `now`" (atomic), and removes ended marks
 * older than {@link ENDED_MS}; nothing for a session id a file name cannot carry plainly, or when
 * the store does not exist.
 */
export function markEnded(store: Store, session: string, now: Date): boolean {
  if (!safeSessionId(session) || !isDir(store.dir)) return false;
  for (const [name, kind] of listFiles(store.dir)) {
    if (kind !== "file" || !name.startsWith(ENDED_PREFIX)) continue;
    const path = join(store.dir, name);
    if (!(now.getTime() - markedAt(path) <= ENDED_MS)) removeQuietly(path);
  }
  return leaveMark(store, ENDED_PREFIX, session, now);
}

/** Whether session `session` ended for good ({@link markEnded}). */
export function hasEnded(store: Store, session: string): boolean {
  return safeSessionId(session) && exists(join(store.dir, `${ENDED_PREFIX}${session}`));
}

/** The moment a mark at `path` holds (NaN when it is unreadable or no stamp). */
function markedAt(path: string): number {
  return parseStamp(readUtf8(path)?.trim()) ?? NaN;
}

/** A directory's entries (a regular file or other), or none when it cannot be listed. */
function listFiles(dir: string): [string, "file" | "other"][] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => [e.name, e.isFile ? "file" : "other"]);
  } catch {
    return [];
  }
}

/** A session's own files (`.restored-`, `.compact-`, `.nudged-`, `.fill-` …) untouched this long
 * belong to a session long over. */
export const SESSION_FILES_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Removes the store's per-session files whose name starts with one of `prefixes` and that nothing
 * has touched for {@link SESSION_FILES_KEEP_MS}. Best effort: a store that cannot be listed keeps
 * its files.
 */
export function pruneSessionFiles(store: Store, prefixes: string[], now: Date): void {
  try {
    for (const e of Deno.readDirSync(store.dir)) {
      if (!e.isFile || !prefixes.some((p) => e.name.startsWith(p))) continue;
      const path = join(store.dir, e.name);
      const mtime = Deno.statSync(path).mtime?.getTime();
      if (mtime !== undefined && now.getTime() - mtime > SESSION_FILES_KEEP_MS) removeQuietly(path);
    }
  } catch { /* best effort */ }
}
