/**
 * PARKED.md and dropped.jsonl on disk: reading for display, and locked, atomic edits. The
 * parsing itself is lib/parked.ts; this file is only the IO edge around it.
 * @module
 */

import { writeFileAtomicSync } from "./atomic.ts";
import { withLock } from "./lock.ts";
import {
  emptyParked,
  type ParkedDoc,
  type ParkedItem,
  parseParkedBytes,
  renderParkedBytes,
} from "./parked.ts";
import { ensureStore, type Store } from "./store.ts";

/** Sync on purpose: a CLI run does one read and one write in a row, and the async machinery
 * costs more than the IO itself. */
function readBytes(path: string): Uint8Array | undefined {
  try {
    return Deno.readFileSync(path);
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
export function readParked(store: Store): ParkedDoc {
  const bytes = readBytes(store.parked);
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
    const out = await edit(readParked(store));
    if (out.log?.length) {
      const old = readBytes(store.dropped) ?? new Uint8Array(0);
      const sep = old.length && old[old.length - 1] !== 10 ? "\n" : "";
      const add = new TextEncoder().encode(sep + out.log.map((l) => l + "\n").join(""));
      const log = new Uint8Array(old.length + add.length);
      log.set(old);
      log.set(add, old.length);
      writeFileAtomicSync(store.dropped, log);
    }
    if (out.doc) writeFileAtomicSync(store.parked, renderParkedBytes(out.doc));
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
