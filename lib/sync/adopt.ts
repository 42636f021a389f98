/**
 * Adoption: a store found inside a linked worktree (an older version's, or a sandboxed `dump` or
 * `park`'s: docs/STORE.md "Worktrees") moved into the repository's store by the rules `pull`
 * merges with (lib/sync/merge.ts): handovers a union by slug (nothing overwritten, nothing
 * doubled, a name taken by other content renamed `-from-<worktree>`), parked items merged with
 * no base (a drop logged on either side wins), the drop logs' union; LATEST follows the moved
 * pointer (lib/store/lifecycle.ts `pointAdopted`). Then the worktree's store is removed — unless it changed meanwhile, when the next run
 * takes it. Loaded only when a stranded store exists.
 * @module
 */

import { isFsRefusal } from "../errors.ts";
import { parentDir } from "../fs/path.ts";
import { parseParkedBytes } from "../parked/scanner.ts";
import { readLatest } from "../store/latest.ts";
import { pointAdopted } from "../store/lifecycle.ts";
import { docPath, isSafeSlug, readDoc, type Store, storeAt, storeOutside } from "../store/store.ts";
import { slugify } from "../store/slug.ts";
import { keyBullets, logLinesToAdd, mergeParked, placeDocs, tombstones } from "./merge.ts";
import { addDocs, docKey, editStoreParked, readSyncCache, spliceParked } from "./snapshot.ts";
import type { DocRef } from "./merge.ts";
import { listSlugs } from "../store/catalog.ts";

/** What an adoption did. */
export interface Adopted {
  /** The stranded store's directory. */
  from: string;
  /** Handovers brought in, by their name in the repository's store. */
  docs: string[];
  /** Parked items added. */
  parked: number;
  /** Whether the stranded store was removed. */
  removed: boolean;
  /** Files of the user's that keep it (none: it was removed, or it changed meanwhile). */
  kept: string[];
}

/** What a store directory holds, to tell whether it changed while it was being adopted. */
function fingerprint(dir: string): string {
  const out: string[] = [];
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (!e.isFile) continue;
      const s = Deno.statSync(`${dir}/${e.name}`);
      out.push(`${e.name}:${s.size}:${s.mtime?.getTime() ?? 0}`);
    }
  } catch { /* gone */ }
  return out.sort().join("\n");
}

/**
 * The worktree store's handovers that may move, by name: regular files inside it (not a link,
 * which could lead anywhere, nor a FIFO), read as text (lib/store/store.ts `readDoc`). Any other
 * stays, and keeps the store.
 */
function movableDocs(from: Store): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const slug of listSlugs(from)) {
    try {
      if (!Deno.lstatSync(docPath(from, slug)).isFile) continue;
    } catch {
      continue;
    }
    const text = readDoc(from, slug);
    if (text !== undefined) out.set(slug, new TextEncoder().encode(text));
  }
  return out;
}

/**
 * What the worktree's store holds besides what the adoption moves (its handovers, PARKED.md,
 * dropped.jsonl, LATEST) and the store's own hidden state (locks, marks, caches): a file a user
 * put there. Such a store is merged but kept, so nothing of theirs is deleted.
 */
function strangers(from: Store, moved: readonly { name: string }[]): string[] {
  const files = ["PARKED.md", "dropped.jsonl", "LATEST", ...moved.map((d) => `${d.name}.md`)];
  // Each with the lock file beside it (lib/fs/lock.ts).
  const known = new Set(files.flatMap((f) => [f, `${f}.lock`, `${f}.lock.held`]));
  try {
    // The store's own files count only as regular files: a link or a FIFO by that name is not read.
    return [...Deno.readDirSync(from.dir)].filter((e) =>
      !e.name.startsWith(".") && !(known.has(e.name) && (e.isFile || e.name.endsWith(".lock")))
    ).map((e) => e.name);
  } catch {
    return [];
  }
}

/** A regular file's bytes (empty when missing, or when a link or a FIFO stands there). */
function readOr(path: string): Uint8Array {
  try {
    return Deno.lstatSync(path).isFile ? Deno.readFileSync(path) : new Uint8Array();
  } catch {
    return new Uint8Array();
  }
}

/** Moves `store.stranded` into `store` (see the module doc); undefined when there is none. */
export async function adopt(store: Store): Promise<Adopted | undefined> {
  if (store.stranded === undefined) return undefined;
  const from = storeAt(store.root);
  // Never read or write through a link out of either project.
  if (storeOutside(from) !== undefined || storeOutside(store) !== undefined) return undefined;
  const before = fingerprint(from.dir);
  const cache = readSyncCache(store);
  const suffix = slugify(store.worktree ?? "worktree") || "worktree";
  const texts = movableDocs(from);
  const incoming: DocRef[] = [];
  for (const [name, bytes] of texts) incoming.push({ name, key: await docKey(bytes) });
  const placedAs = new Map<string, string>();
  const docs = await addDocs(store, cache, (local) => {
    const keyName = new Map(local.map((d) => [d.key, d.name]));
    for (const d of incoming) {
      const there = keyName.get(d.key);
      if (there !== undefined) placedAs.set(d.name, there);
    }
    const placed = placeDocs(local, incoming, () => suffix, isSafeSlug);
    for (const p of placed) placedAs.set(p.from, p.to);
    return Promise.resolve(placed.map((p) => ({ name: p.to, bytes: texts.get(p.from)! })));
  });
  const theirs = parseParkedBytes(readOr(from.parked));
  const theirLog = new TextDecoder().decode(readOr(from.dropped));
  const parked = await editStoreParked(store, (local) => {
    const mine = keyBullets(local.doc.items);
    const m = mergeParked(
      undefined,
      { items: mine, dropped: tombstones(local.log) },
      { items: keyBullets(theirs.items), dropped: tombstones(theirLog) },
      true,
    );
    const changed = m.remove.size > 0 || m.replace.size > 0 || m.add.length > 0;
    return {
      bytes: changed ? spliceParked(local.doc, mine, m) : undefined,
      log: logLinesToAdd(local.log, theirLog),
      result: m.add.length,
    };
  });
  // LATEST follows the moved pointer when it names a newer pending handover (lib/store/lifecycle.ts).
  const moved = readLatest(from);
  const name = moved === undefined ? undefined : placedAs.get(moved);
  if (name !== undefined) await pointAdopted(store, name);
  const whole = incoming.every((d) =>
    placedAs.has(d.name) &&
    (docs.includes(placedAs.get(d.name)!) || readDoc(store, placedAs.get(d.name)!) !== undefined)
  );
  let removed = false;
  const kept = strangers(from, incoming);
  if (whole && fingerprint(from.dir) === before && kept.length === 0) {
    try {
      Deno.removeSync(from.dir, { recursive: true });
      removed = true;
      // `.claude/state` when nothing else is in it; `.claude` holds the agent's settings: kept.
      const state = parentDir(from.dir);
      if (state !== undefined) Deno.removeSync(state);
    } catch (err) {
      if (!isFsRefusal(err)) throw err;
    }
  }
  return { from: from.dir, docs, parked, removed, kept };
}

/**
 * {@link adopt} for a hook, which never fails for it: the worktree's store stays where it is when
 * it cannot be moved (the event then says what is wrong with the store itself).
 */
export async function adoptQuietly(store: Store): Promise<void> {
  try {
    await adopt(store);
  } catch { /* stays for the next run, or `doctor` */ }
}
