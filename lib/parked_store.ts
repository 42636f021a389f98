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
  parseParked,
  renderParked,
} from "./parked.ts";
import { ensureStore, type Store } from "./store.ts";

/** PARKED.md (or dropped.jsonl) cannot be edited safely; the message says what to do. */
export class ParkedFileError extends Error {
  override name = "ParkedFileError";
}

/**
 * Reads PARKED.md for display: a missing file is empty; bytes that are not UTF-8 are shown as
 * U+FFFD (never written back that way: {@link editParked} refuses such a file).
 */
export async function readParked(store: Store): Promise<ParkedDoc> {
  try {
    return parseParked(new TextDecoder().decode(await Deno.readFile(store.parked)));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return emptyParked();
    throw err;
  }
}

async function readStrict(path: string): Promise<string | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ParkedFileError(
      `${path} is not valid UTF-8, so editing it could corrupt it; ` +
        `fix or move the file, then try again`,
    );
  }
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
    const text = await readStrict(store.parked);
    const out = await edit(text === undefined ? emptyParked() : parseParked(text));
    if (out.log?.length) {
      let log = (await readStrict(store.dropped)) ?? "";
      if (log !== "" && !log.endsWith("\n")) log += "\n";
      await writeFileAtomic(store.dropped, log + out.log.map((l) => l + "\n").join(""));
    }
    if (out.doc) {
      await writeFileAtomic(store.parked, renderParked(out.doc));
    }
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
