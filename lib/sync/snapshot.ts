/**
 * The store's side of a sync: what it holds (its handovers by content key, cheaply: a cache of
 * name → (mtime, size, key) so only changed files are read), and applying a merge to it through
 * the store's own locks and atomic writes — new documents under the docs lock, created
 * exclusively (never overwriting one); PARKED.md and dropped.jsonl in one `editParked` under the
 * PARKED.md lock, the log first. A concurrent park, drop, dump or hook so loses nothing, and a
 * sync killed at any point leaves every file whole.
 * @module
 */

import { createFileAtomic, PRIVATE_DIR, writeFileAtomicSync } from "../fs/atomic.ts";
import { docsLockTarget, withLock } from "../fs/lock.ts";
import { join } from "../fs/path.ts";
import { editParked } from "../parked/file.ts";
import { PARKED_HEADER, type ParkedDoc } from "../parked/grammar.ts";
import { parseParkedBytes } from "../parked/scanner.ts";
import { listSlugs } from "../store/catalog.ts";
import { docPath, ensureStore, type Store } from "../store/store.ts";
import { FailureError } from "../errors.ts";
import { type Bullet, docKeyText, type DocRef, type ParkedMerge } from "./merge.ts";

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

/** What a sync remembers between runs (a cache: safe to delete, never carried). */
export interface SyncCache {
  /** Document name → [mtime ms, size, content key]. */
  files: Record<string, [number, number, string]>;
  /** Blob id → content key (a blob never changes, so this never goes stale). */
  blobs: Record<string, string>;
}

function cachePath(store: Store): string {
  return join(store.dir, ".cache", "sync.json");
}

/** The cache, or an empty one when missing or not ours. */
export function readSyncCache(store: Store): SyncCache {
  try {
    const data = JSON.parse(Deno.readTextFileSync(cachePath(store)));
    // Version 3: content keys of redacted text (lib/sync/merge.ts docKeyText), and blob keys of
    // text only (lib/sync/text.ts); an older cache is stale.
    if (data?.version === 3 && typeof data.files === "object" && typeof data.blobs === "object") {
      return { files: data.files, blobs: data.blobs };
    }
  } catch { /* missing or unreadable: start afresh */ }
  return { files: {}, blobs: {} };
}

/** Saves the cache (atomically); a store that cannot be written simply goes uncached. */
export function writeSyncCache(store: Store, cache: SyncCache): void {
  try {
    Deno.mkdirSync(join(store.dir, ".cache"), { recursive: true, mode: PRIVATE_DIR });
    writeFileAtomicSync(cachePath(store), JSON.stringify({ version: 3, ...cache }));
  } catch { /* uncached */ }
}

/** SHA-1 of `data`, hex. */
export async function sha1Hex(data: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", data as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The content key of a document's bytes: the hash of its text without its personal parts. */
export async function docKey(bytes: Uint8Array): Promise<string> {
  return await sha1Hex(ENCODER.encode(docKeyText(DECODER.decode(bytes))));
}

/**
 * The store's handovers with their content keys. Only files whose mtime or size changed since the
 * cache saw them are read, so the cost follows what changed, not the store's size.
 */
export async function localDocs(store: Store, cache: SyncCache): Promise<DocRef[]> {
  const out: DocRef[] = [];
  const files: SyncCache["files"] = {};
  for (const name of listSlugs(store)) {
    const path = docPath(store, name);
    let stat: Deno.FileInfo;
    try {
      stat = Deno.statSync(path);
    } catch {
      continue; // removed meanwhile
    }
    const mtime = stat.mtime?.getTime() ?? 0;
    const seen = cache.files[name];
    let key: string;
    if (seen && seen[0] === mtime && seen[1] === stat.size && mtime !== 0) key = seen[2];
    else {
      try {
        key = await docKey(Deno.readFileSync(path));
      } catch {
        continue;
      }
    }
    files[name] = [mtime, stat.size, key];
    out.push({ name, key });
  }
  cache.files = files;
  return out;
}

/** The local document's bytes. */
export function readDocBytes(store: Store, name: string): Uint8Array {
  return Deno.readFileSync(docPath(store, name));
}

/**
 * Runs `decide` on the store's handovers under the docs lock and creates the documents it returns,
 * each exclusively (a name taken meanwhile is skipped, never overwritten). Returns the names
 * written.
 */
export async function addDocs(
  store: Store,
  cache: SyncCache,
  decide: (local: DocRef[]) => Promise<{ name: string; bytes: Uint8Array }[]>,
): Promise<string[]> {
  ensureStore(store);
  return await withLock(docsLockTarget(store.dir), async () => {
    const writes = await decide(await localDocs(store, cache));
    const done: string[] = [];
    for (const w of writes) {
      if (await createFileAtomic(docPath(store, w.name), w.bytes)) done.push(w.name);
    }
    return done;
  });
}

/** What the merge of PARKED.md needs from the store, read under its lock. */
export interface LocalParked {
  doc: ParkedDoc;
  /** dropped.jsonl as text ("" when missing). */
  log: string;
  /** PARKED.md's mtime (ms), the local side's edit time; 0 when missing. */
  mtimeMs: number;
}

/** Reads dropped.jsonl and PARKED.md's mtime for a merge of `doc`. */
function localParked(store: Store, doc: ParkedDoc): LocalParked {
  let log = "";
  try {
    log = Deno.readTextFileSync(store.dropped);
  } catch { /* no drops yet */ }
  let mtimeMs = 0;
  try {
    mtimeMs = Deno.statSync(store.parked).mtime?.getTime() ?? 0;
  } catch { /* no PARKED.md yet */ }
  return { doc, log, mtimeMs };
}

/**
 * Merges into PARKED.md and dropped.jsonl under the PARKED.md lock: `merge` sees the files as
 * they are now and returns the new PARKED.md bytes (undefined: unchanged) and log lines to append.
 */
export async function editStoreParked<T>(
  store: Store,
  merge: (local: LocalParked) => { bytes?: Uint8Array; log: string[]; result: T },
): Promise<T> {
  return await editParked(store, (doc) => {
    const out = merge(localParked(store, doc));
    return { result: out.result, log: out.log, doc: out.bytes && parseParkedBytes(out.bytes) };
  });
}

/**
 * PARKED.md after a merge, as bytes: bullets removed or replaced in place and additions after the
 * last item, everything else (headings, notes, CRLF, bytes that are not UTF-8) as it was.
 * `local` holds the keys of `doc.items`, in order. Checked by parsing it back: a result that does
 * not read as the merged items is refused.
 */
export function spliceParked(doc: ParkedDoc, local: Bullet[], m: ParkedMerge): Uint8Array {
  const b = doc.bytes;
  const eol = doc.eol;
  const lineStarts = [0];
  for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) lineStarts.push(i + 1);
  const chunks: Uint8Array[] = [];
  let pos = 0;
  let insertAt = -1;
  const items = doc.items;
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const s = lineStarts[it.line - 1];
    const e = lineStarts[it.line - 1 + it.text.split("\n").length] ?? b.length;
    insertAt = e;
    const key = local[i].key;
    const text = m.replace.get(key);
    if (!m.remove.has(key) && text === undefined) continue;
    chunks.push(b.subarray(pos, s));
    if (text !== undefined) {
      const ending = b[e - 1] !== 10 ? "" : b[e - 2] === 13 ? "\r\n" : "\n";
      chunks.push(ENCODER.encode(text.split("\n").join(eol) + ending));
    }
    pos = e;
  }
  if (m.add.length > 0) {
    const adds = m.add.map((a) => a.text.split("\n").join(eol) + eol).join("");
    if (insertAt < 0) {
      // No items: after the file's text, one blank line between; a new file gets the header.
      insertAt = b.length;
      chunks.push(b.subarray(pos, insertAt));
      pos = insertAt;
      const lastNl = b.lastIndexOf(10, b.length - 2);
      const lastLine = DECODER.decode(b.subarray(lastNl + 1)).trim();
      let sep = b.length === 0 ? `${PARKED_HEADER}${eol}${eol}` : b[b.length - 1] === 10 ? "" : eol;
      if (b.length > 0 && lastLine !== "") sep += eol;
      chunks.push(ENCODER.encode(sep + adds));
    } else {
      if (pos < insertAt) chunks.push(b.subarray(pos, insertAt));
      pos = Math.max(pos, insertAt);
      const emitted = chunks.length ? chunks[chunks.length - 1] : new Uint8Array();
      const needsEol = emitted.length > 0 && emitted[emitted.length - 1] !== 10;
      chunks.push(ENCODER.encode((needsEol ? eol : "") + adds));
    }
  }
  chunks.push(b.subarray(pos));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) out.set(c, at), at += c.length;
  const check = parseParkedBytes(out);
  if (check.count !== m.result.length) {
    throw new FailureError(
      `PARKED.md could not be merged safely (its layout confused the merge: ${check.count} ` +
        `items instead of ${m.result.length}); PARKED.md is unchanged`,
    );
  }
  return out;
}
