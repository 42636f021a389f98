/**
 * PARKED.md and dropped.jsonl on disk: reading for display, and locked, atomic edits. The
 * parsing itself is lib/parked.ts; this file is only the IO edge around it.
 * @module
 */

import { writeFileAtomic } from "./atomic.ts";
import { withLock } from "./lock.ts";
import {
  emptyParked,
  type ParkedDoc,
  type ParkedItem,
  parseParkedBytes,
  renderParkedBytes,
} from "./parked.ts";
import { ensureStore, type Store } from "./store.ts";

async function readBytes(path: string): Promise<Uint8Array | undefined> {
  try {
    return await Deno.readFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/**
 * Reads PARKED.md: a missing file is empty. Worked on as bytes: an edit re-encodes only the
 * bullet it writes, so bytes that are not UTF-8 elsewhere in the file survive exactly (they read
 * as U+FFFD in items).
 */
export async function readParked(store: Store): Promise<ParkedDoc> {
  const bytes = await readBytes(store.parked);
  return bytes === undefined ? emptyParked() : parseParkedBytes(bytes);
}

/** What an edit decided: the new document (when it changed) and lines for dropped.jsonl. */
export interface Edit<T> {
  result: T;
  /** The new PARKED.md; undefined leaves the file untouched. */
  doc?: ParkedDoc;
  /** JSON lines to append to dropped.jsonl (each one object, no line ending). */
  log?: string[];
}

/**
 * Reads PARKED.md, lets `edit` decide, and writes the outcome — all under the PARKED.md lock,
 * each file replaced atomically. dropped.jsonl is written before PARKED.md, so a process killed
 * in between leaves the item logged *and* still parked: nothing is ever lost.
 */
export async function editParked<T>(
  store: Store,
  edit: (doc: ParkedDoc) => Edit<T> | Promise<Edit<T>>,
): Promise<T> {
  ensureStore(store);
  return await withLock(store.parked, async () => {
    const out = await edit(await readParked(store));
    if (out.log?.length) {
      const old = (await readBytes(store.dropped)) ?? new Uint8Array(0);
      const sep = old.length && old[old.length - 1] !== 10 ? "\n" : "";
      const add = new TextEncoder().encode(sep + out.log.map((l) => l + "\n").join(""));
      const log = new Uint8Array(old.length + add.length);
      log.set(old);
      log.set(add, old.length);
      await writeFileAtomic(store.dropped, log);
    }
    if (out.doc) await writeFileAtomic(store.parked, renderParkedBytes(out.doc));
    return out.result;
  });
}

/** One line of dropped.jsonl. */
export interface DroppedEntry {
  /** When, ISO 8601 UTC. */
  ts: string;
  /** The dropped item's slug. */
  item: string;
  action: "dropped";
  /** The bullet's full text, exactly as it was in PARKED.md (lines joined with `\n`). */
  text: string;
}

/** The dropped.jsonl line for an item dropped at `ts`. */
export function droppedLine(item: ParkedItem, ts: string): string {
  const entry: DroppedEntry = { ts, item: item.slug, action: "dropped", text: item.text };
  return JSON.stringify(entry);
}
