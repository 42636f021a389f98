/**
 * The stored handovers as a catalog: which documents the store holds (temp files, non-`.md`
 * files and reserved names skipped), what their front matter says, how old, stale or expired
 * they are (by `created`, never mtime). Reads only the head of each file, and keeps what it read
 * in a cache (`.cache/catalog.json` in the store) that is valid while the store directory is
 * unchanged, so a store of thousands of documents lists fast.
 * @module
 */

import { PRIVATE_DIR, TEMP_PREFIX, writeFileAtomicSync } from "../fs/atomic.ts";
import { splitFrontMatter } from "./front_matter.ts";
import { docPath, isSafeSlug, type Store } from "./store.ts";
import { join } from "../fs/path.ts";
import { ageMs, EXPIRY_MS, STALE_MS } from "./time.ts";

/** One stored handover, as its front matter describes it. */
export interface DocEntry {
  slug: string;
  /** `created` as written; undefined when missing. */
  created?: string;
  branch?: string;
  /** `worktree:`: the linked worktree it was written in. */
  worktree?: string;
  /** `session:`: the agent session the document came from (dump, SessionEnd draft). */
  session?: string;
  /** `parent:`: the handover the writing session started from. */
  parent?: string;
  /** `consumed: true|false`; undefined when the field is missing or odd. */
  consumed?: boolean;
  /** Age from `created`; undefined when it does not parse (such documents never expire). */
  ageMs?: number;
  /** Older than 14 days. */
  stale: boolean;
  /** Older than 30 days: `list` removes it. */
  expired: boolean;
}

/** The slugs of the documents in a store, sorted; a missing store has none. */
export function listSlugs(store: Store): string[] {
  const out: string[] = [];
  try {
    for (const e of Deno.readDirSync(store.dir)) {
      if (!e.isFile && !e.isSymlink) continue;
      if (e.name.startsWith(TEMP_PREFIX) || !e.name.endsWith(".md")) continue;
      const slug = e.name.slice(0, -3);
      if (isSafeSlug(slug)) out.push(slug);
    }
  } catch { /* no store yet, or unreadable: nothing stored */ }
  return out.sort();
}

/** Bytes read from the start of a document for its front matter (longer heads are read whole). */
const HEAD_BYTES = 2048;

/** The front matter fields of a document, reading only its head; undefined when unreadable. */
export function readHead(path: string): Record<string, string> | undefined {
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(path, { read: true });
    const buf = new Uint8Array(HEAD_BYTES);
    const n = file.readSync(buf) ?? 0;
    const text = new TextDecoder().decode(buf.subarray(0, n));
    const split = splitFrontMatter(text);
    if (split || n < HEAD_BYTES) return split?.fields ?? {};
    return splitFrontMatter(Deno.readTextFileSync(path))?.fields ?? {};
  } catch {
    return undefined;
  } finally {
    file?.close();
  }
}

/** A catalog entry from front matter fields at `now` (pure). */
export function entryOf(slug: string, fields: Record<string, string>, now: Date): DocEntry {
  const age = ageMs(fields.created, now);
  const entry: DocEntry = {
    slug,
    stale: age !== undefined && age > STALE_MS,
    expired: age !== undefined && age > EXPIRY_MS,
  };
  if (fields.created !== undefined) entry.created = fields.created;
  if (fields.branch !== undefined) entry.branch = fields.branch;
  if (fields.session !== undefined) entry.session = fields.session;
  if (fields.worktree !== undefined) entry.worktree = fields.worktree;
  if (fields.parent !== undefined) entry.parent = fields.parent;
  if (fields.consumed === "true" || fields.consumed === "false") {
    entry.consumed = fields.consumed === "true";
  }
  if (age !== undefined) entry.ageMs = age;
  return entry;
}

/** Newest first by `created`; undated documents last, by slug. */
export function byNewest(a: DocEntry, b: DocEntry): number {
  if (a.ageMs === undefined || b.ageMs === undefined) {
    if (a.ageMs !== b.ageMs) return a.ageMs === undefined ? 1 : -1;
    return a.slug < b.slug ? -1 : 1;
  }
  return a.ageMs - b.ageMs || (a.slug < b.slug ? -1 : 1);
}

/** Every stored handover, newest first. Unreadable files are listed with what is known. */
export function catalog(store: Store, now: Date): DocEntry[] {
  return [...heads(store)].map(([slug, fields]) => entryOf(slug, fields, now)).sort(byNewest);
}

/** Where the catalog cache lives: inside the store, in a directory no reader takes for a document. */
export function cachePath(store: Store): string {
  return join(store.dir, ".cache", "catalog.json");
}

/** The front-matter fields the catalog keeps. */
const KEPT = ["created", "branch", "consumed", "session", "parent", "worktree"] as const;

/** The cache's format: a cache of an older one (without a field now kept) is read afresh. */
const CACHE_VERSION = 2;

/**
 * How long after the store's last change a cache may be written. A directory's mtime has a clock
 * tick's resolution (a few ms on Linux, finer elsewhere; whole seconds on old file systems), so a
 * change in the same tick as the one the cache saw would go unnoticed; waiting this long after
 * the last change rules that out.
 */
function settleMs(mtimeMs: number): number {
  return mtimeMs % 1000 === 0 ? 2_500 : 250;
}

/**
 * The front matter of every document, from the cache when the store directory has not changed
 * since it was written, else read afresh (and cached when the store has been still a while).
 * Every write to the store is a rename or a removal in its directory, which moves the directory's
 * mtime, so an unchanged mtime means unchanged documents (hand edits in place are the exception).
 */
export function heads(store: Store): Map<string, Record<string, string>> {
  let mtime: number | undefined;
  try {
    mtime = Deno.statSync(store.dir).mtime?.getTime();
  } catch {
    return new Map(); // no store
  }
  const cached = mtime === undefined ? undefined : readCache(store, mtime);
  if (cached) return cached;
  const fresh = new Map<string, Record<string, string>>();
  for (const slug of listSlugs(store)) {
    const fields = readHead(docPath(store, slug)) ?? {};
    const kept: Record<string, string> = {};
    for (const k of KEPT) if (fields[k] !== undefined) kept[k] = fields[k];
    fresh.set(slug, kept);
  }
  if (mtime !== undefined && Date.now() - mtime >= settleMs(mtime)) writeCache(store, mtime, fresh);
  return fresh;
}

function readCache(store: Store, mtime: number): Map<string, Record<string, string>> | undefined {
  try {
    const data = JSON.parse(Deno.readTextFileSync(cachePath(store)));
    if (
      data?.version !== CACHE_VERSION || data.dirMtimeMs !== mtime || typeof data.docs !== "object"
    ) {
      return undefined;
    }
    const out = new Map<string, Record<string, string>>();
    for (const [slug, fields] of Object.entries(data.docs ?? {})) {
      if (!isSafeSlug(slug) || typeof fields !== "object" || fields === null) return undefined;
      const kept: Record<string, string> = {};
      for (const k of KEPT) {
        const v = (fields as Record<string, unknown>)[k];
        if (typeof v === "string") kept[k] = v;
      }
      out.set(slug, kept);
    }
    return out;
  } catch {
    return undefined; // missing, unreadable or not ours: read afresh
  }
}

function writeCache(store: Store, mtime: number, docs: Map<string, Record<string, string>>): void {
  try {
    Deno.mkdirSync(join(store.dir, ".cache"), { recursive: true, mode: PRIVATE_DIR });
    const data = { version: CACHE_VERSION, dirMtimeMs: mtime, docs: Object.fromEntries(docs) };
    writeFileAtomicSync(cachePath(store), JSON.stringify(data));
  } catch { /* a read-only store simply goes uncached */ }
}
