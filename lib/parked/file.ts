/**
 * PARKED.md on disk: reading it, and the locked, atomic edit that every change goes through
 * (with the dropped.jsonl lines a drop logs). The IO edge of lib/parked/; the parsing is
 * ./scanner.ts, the edits ./edit.ts.
 * @module
 */

import { writeFileAtomicSync } from "../fs/atomic.ts";
import { withLock } from "../fs/lock.ts";
import type { ParkedDoc } from "./grammar.ts";
import { emptyParked, parseParkedBytes, renderParkedChunks } from "./scanner.ts";
import { ensureStore, type Store } from "../store/store.ts";

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
      writeFileAtomicSync(store.dropped, [old, add]);
    }
    if (out.doc) writeFileAtomicSync(store.parked, renderParkedChunks(out.doc));
    return out.result;
  });
}
