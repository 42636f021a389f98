/**
 * PARKED.md and dropped.jsonl on disk: reading for display, and locked, atomic edits. The
 * parsing itself is lib/parked/parked.ts; this file is only the IO edge around it.
 * @module
 */

import { writeFileAtomicSync } from "../fs/atomic.ts";
import { withLock } from "../fs/lock.ts";
import { matchExact, matchParked, type MatchResult } from "./match.ts";
import {
  emptyParked,
  itemsWithSlug,
  type ParkedDoc,
  type ParkedItem,
  parseParkedBytes,
  removeParked,
  renderParkedBytes,
} from "./parked.ts";
import { ensureStore, type Store } from "../store/store.ts";
import { exists } from "../fs/path.ts";

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

/** What {@link dropMatching} did. */
export type DropOutcome =
  | { kind: "dropped"; item: ParkedItem; open: number }
  | { kind: "empty" }
  | { kind: "none"; items: ParkedItem[] }
  | { kind: "ambiguous"; match: Extract<MatchResult, { kind: "ambiguous" }> }
  /** The fuzzy search ran out of time: nothing dropped. */
  | { kind: "slow" }
  /** The chosen bullet changed under every attempt: nothing dropped. */
  | { kind: "changed" };

/** How often a drop matches again when its chosen bullet changed before it could remove it. */
export const DROP_ATTEMPTS = 3;

/** The fuzzy matcher a drop uses (a parameter, so a test can act while it runs). */
export type Matcher = (items: ParkedItem[], query: string) => Promise<MatchResult>;

/**
 * Drops the one item `query` names, logging it at `ts`. An exact slug is found and removed in one
 * locked edit (found in place, bounded, no Fuse). A fuzzy match runs on a snapshot **outside**
 * the lock — it can take seconds on a large file, and a `park` waiting behind it must not time
 * out and lose its item — then, under the lock, the chosen bullet is looked up again by its slug
 * and exact text in the file as it is now and removed only if still there, unchanged (nearest
 * its old line if repeated). If it changed, the match runs again on the new file, at most
 * {@link DROP_ATTEMPTS} times.
 */
export async function dropMatching(
  store: Store,
  query: string,
  ts: string,
  match: Matcher = matchParked,
): Promise<DropOutcome> {
  // No PARKED.md: nothing to drop, and no store is created just to say so.
  if (!exists(store.parked)) return { kind: "empty" };
  const remove = (doc: ParkedDoc, item: ParkedItem): Edit<DropOutcome> => {
    const { doc: next, removed } = removeParked(doc, item);
    const gone = removed ?? item;
    return {
      doc: next,
      log: [droppedLine(gone, ts)],
      result: { kind: "dropped", item: gone, open: next.count },
    };
  };
  let snapshot = emptyParked();
  const exact = await editParked<DropOutcome | undefined>(store, (doc) => {
    if (doc.count === 0) return { result: { kind: "empty" } };
    const m = matchExact(doc, query);
    if (m === undefined) {
      snapshot = doc;
      return { result: undefined };
    }
    if (m.kind === "one") return remove(doc, m.best.item);
    return { result: m.kind === "ambiguous" ? { kind: "ambiguous", match: m } : { kind: "empty" } };
  });
  if (exact) return exact;
  for (let attempt = 0; attempt < DROP_ATTEMPTS; attempt++) {
    const m = await match(snapshot.items, query);
    if (m.kind === "none") return { kind: "none", items: snapshot.items };
    if (m.kind === "ambiguous") return { kind: "ambiguous", match: m };
    if (m.kind === "slow") return m;
    const chosen = m.best.item;
    const done = await editParked<DropOutcome | undefined>(store, (doc) => {
      const same = itemsWithSlug(doc, chosen.slug).filter((i) => i.text === chosen.text)
        .sort((a, b) => Math.abs(a.line - chosen.line) - Math.abs(b.line - chosen.line));
      if (same.length) return remove(doc, same[0]);
      snapshot = doc;
      return { result: undefined };
    });
    if (done) return done;
    if (snapshot.count === 0) return { kind: "empty" };
  }
  return { kind: "changed" };
}
