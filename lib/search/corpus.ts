/**
 * What `search` searches: every stored handover's sections, every parked item and every dropped
 * item (dropped.jsonl keeps the bullet's text), read once each as {@link Unit}s with their dates,
 * and what could not be read, for the Confidence block. The IO edge of lib/search/; ranking is
 * ./rank.ts.
 * @module
 */

import { parseSections } from "../handover/document.ts";
import { readDropped } from "../parked/drop.ts";
import { readParked } from "../parked/file.ts";
import { listSlugs } from "../store/catalog.ts";
import { splitFrontMatter } from "../store/front_matter.ts";
import { readDoc, type Store } from "../store/store.ts";
import { parseStamp } from "../store/time.ts";

/** One searchable piece of the store. */
export interface Unit {
  kind: "handover" | "parked" | "dropped";
  /** The handover's slug, or the item's. */
  slug: string;
  /** The handover's section title; `parked` or `dropped` for items. */
  section: string;
  /** The section's content, or the item's bullet (all its lines). */
  text: string;
  /** Its date as written: `created`, `Raised:`, or the drop's `ts`. */
  date?: string;
  /** That date in ms since the epoch, when it parses. */
  dateMs?: number;
}

/** The units of a store, and what was read to make them. */
export interface Corpus {
  units: Unit[];
  /** Handover documents in the store. */
  handovers: number;
  /** Documents that could not be read (not UTF-8, not a regular file inside the store). */
  unreadable: string[];
  /** Documents without our front matter: searched whole, their age unknown. */
  noFrontMatter: string[];
  parked: number;
  /** Whether PARKED.md could not be read (its items then not searched). */
  parkedUnreadable: boolean;
  dropped: number;
  /** dropped.jsonl lines that are no entry. */
  droppedUnreadable: number;
}

/** A parked item's `Raised:` day as a stamp (midnight UTC), when it is one. */
function raisedStamp(raised: string | undefined): string | undefined {
  const day = raised?.match(/^\d{4}-\d{2}-\d{2}/)?.[0];
  return day === undefined ? undefined : `${day}T00:00:00Z`;
}

function unit(u: Omit<Unit, "dateMs">, stamp = u.date): Unit {
  const ms = parseStamp(stamp);
  return ms === undefined ? u : { ...u, dateMs: ms };
}

/** Reads every document, PARKED.md and dropped.jsonl of `store` once: linear in the store. */
export function gatherCorpus(store: Store): Corpus {
  const c: Corpus = {
    units: [],
    handovers: 0,
    unreadable: [],
    noFrontMatter: [],
    parked: 0,
    parkedUnreadable: false,
    dropped: 0,
    droppedUnreadable: 0,
  };
  for (const slug of listSlugs(store)) {
    c.handovers++;
    const text = readDoc(store, slug);
    if (text === undefined) {
      c.unreadable.push(slug);
      continue;
    }
    const split = splitFrontMatter(text);
    if (split === undefined) c.noFrontMatter.push(slug);
    const date = split?.fields.created;
    for (const s of parseSections(split?.body ?? text)) {
      if (!s.content.trim()) continue;
      const section = s.title || "(before the first heading)";
      c.units.push(unit({ kind: "handover", slug, section, text: s.content, date }));
    }
  }
  try {
    for (const item of readParked(store).items) {
      c.parked++;
      const u = { kind: "parked" as const, slug: item.slug, section: "parked", text: item.text };
      c.units.push(unit(item.raised ? { ...u, date: item.raised } : u, raisedStamp(item.raised)));
    }
  } catch {
    c.parkedUnreadable = true;
  }
  const log = readDropped(store);
  c.droppedUnreadable = log.unreadable;
  for (const e of log.entries) {
    c.dropped++;
    c.units.push(
      unit({ kind: "dropped", slug: e.item, section: "dropped", text: e.text, date: e.ts }),
    );
  }
  return c;
}
