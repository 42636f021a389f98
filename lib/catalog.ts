/**
 * The stored handovers as a catalog: which documents the store holds (temp files, non-`.md`
 * files and reserved names skipped), what their front matter says, how old, stale or expired
 * they are (by `created`, never mtime). Reads only the head of each file, so a store of
 * thousands of documents lists fast.
 * @module
 */

import { TEMP_PREFIX } from "./atomic.ts";
import { splitFrontMatter } from "./front_matter.ts";
import { docPath, isSafeSlug, type Store } from "./store.ts";
import { ageMs, EXPIRY_MS, STALE_MS } from "./time.ts";

/** One stored handover, as its front matter describes it. */
export interface DocEntry {
  slug: string;
  /** `created` as written; undefined when missing. */
  created?: string;
  branch?: string;
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
  return listSlugs(store)
    .map((slug) => entryOf(slug, readHead(docPath(store, slug)) ?? {}, now))
    .sort(byNewest);
}
