/**
 * Dropping the parked item a query names: found exactly in one locked edit, or fuzzily on a
 * snapshot outside the lock and then removed only if still there unchanged; each drop logged
 * to dropped.jsonl with the bullet's full text, redacted (PARKED.md may have been edited by hand
 * since `park` redacted it). The matching rule is ./match.ts.
 * @module
 */

import { exists } from "../fs/path.ts";
import { removeParked } from "./edit.ts";
import { type Edit, editParked } from "./file.ts";
import type { ParkedDoc, ParkedItem } from "./grammar.ts";
import { itemsWithSlug } from "./lookup.ts";
import { matchExact, matchParked, type MatchResult } from "./match.ts";
import { emptyParked } from "./scanner.ts";
import type { Store } from "../store/store.ts";
import { redactDeepLazily } from "../secrets/lazy.ts";
import type { RedactionCounts } from "../secrets/redact.ts";

/** One line of dropped.jsonl. */
export interface DroppedEntry {
  /** When, ISO 8601 UTC. */
  ts: string;
  /** The dropped item's slug. */
  item: string;
  action: "dropped";
  /**
   * The bullet's full text as it was in PARKED.md (lines joined with `\n`), every credential in
   * it redacted.
   */
  text: string;
}

/** What dropped.jsonl holds: its `dropped` entries, and how many lines were not one. */
export interface DroppedLog {
  entries: DroppedEntry[];
  /** Lines that are not a `dropped` entry (hand edits, a cut line, other actions excepted). */
  unreadable: number;
}

/**
 * Reads dropped.jsonl: every `dropped` entry with its bullet's text (a missing log is empty).
 * Entries of other actions (a sync's `superseded`) are skipped without counting as unreadable.
 */
export function readDropped(store: Store): DroppedLog {
  const log: DroppedLog = { entries: [], unreadable: 0 };
  let text: string;
  try {
    if (!Deno.statSync(store.dropped).isFile) return log; // a pipe would block the read
    text = Deno.readTextFileSync(store.dropped);
  } catch {
    return log;
  }
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const e = JSON.parse(line);
      if (e?.action !== "dropped") {
        if (typeof e?.action !== "string") log.unreadable++;
        continue;
      }
      if (typeof e.item !== "string" || typeof e.text !== "string" || typeof e.ts !== "string") {
        log.unreadable++;
        continue;
      }
      log.entries.push({ ts: e.ts, item: e.item, action: "dropped", text: e.text });
    } catch {
      log.unreadable++;
    }
  }
  return log;
}

/** The dropped.jsonl line for an item dropped at `ts`, before redaction. */
export function droppedLine(item: ParkedItem, ts: string): string {
  return JSON.stringify(droppedEntry(item, ts));
}

function droppedEntry(item: ParkedItem, ts: string): DroppedEntry {
  return { ts, item: item.slug, action: "dropped", text: item.text };
}

/** What {@link dropMatching} did. */
export type DropOutcome =
  /** `redacted`: what was taken out of the logged entry. */
  | { kind: "dropped"; item: ParkedItem; open: number; redacted: RedactionCounts }
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
  // The rules load (under the lock) only when the entry may hold a secret
  // (lib/secrets/lazy.ts `mayHoldSecret`); most entries cannot, and then nothing is loaded.
  const remove = async (doc: ParkedDoc, item: ParkedItem): Promise<Edit<DropOutcome>> => {
    const { doc: next, removed } = removeParked(doc, item);
    const gone = removed ?? item;
    const entry = await redactDeepLazily(droppedEntry(gone, ts));
    return {
      doc: next,
      log: [JSON.stringify(entry.value)],
      result: { kind: "dropped", item: gone, open: next.count, redacted: entry.counts },
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
