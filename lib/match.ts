/**
 * Which parked item a `drop` query names.
 *
 * Algorithm: the query is cut into words (slugified, stop words ignored unless that leaves
 * none). An item is a match when **every** word is found, approximately, somewhere in the item's
 * slug or summary: Fuse.js's **Bitap** approximate-substring search (npm `fuse.js`, location
 * ignored, field-length norm off) with at most ⌊len/3⌋ edits per word (a swap of two letters
 * is two edits) — words of up to 3 characters must appear exactly. An item's **distance** is the total number of edits over all
 * words (an integer, read back from Fuse's score = edits / word length). A query equal to an
 * item's slug (slugified) is an **exact** match and beats any distance.
 *
 * **Equally close** means: the same tier (both exact slug matches, or neither) and the same
 * integer distance. Exactly one best item → it is the match; two or more equally close at the
 * top → ambiguous. Drop removes data, so ties are never broken by file order or field length.
 * @module
 */

import { itemsWithSlug, type ParkedDoc, type ParkedItem } from "./parked.ts";
import { slugify } from "./slug.ts";

/**
 * Fuse's import map name, imported by a computed specifier: a literal one puts the npm package in
 * the module graph Deno resolves before `drop` starts, which every drop paid for, exact or not.
 */
const FUSE = "fuse.js";

/** Most edits allowed in a query word of `length` characters. */
export function allowedEdits(length: number): number {
  return length < 4 ? 0 : Math.floor(length / 3);
}
/** How many of the closest items an ambiguous drop shows. */
export const CLOSEST = 4;

const IGNORED = new Set(["a", "an", "the", "to", "of", "for", "in", "on", "and", "is", "it"]);

/** One candidate with how close it is. */
export interface Ranked {
  item: ParkedItem;
  /** The query equals the item's slug. */
  exact: boolean;
  /** Total edits over the query's words (0 for exact). */
  distance: number;
}

/** The outcome of matching a query. */
export type MatchResult =
  | { kind: "one"; best: Ranked }
  | { kind: "none" }
  | {
    kind: "ambiguous";
    /** The closest items, at most {@link CLOSEST}, best first. */
    closest: Ranked[];
    /** How many items are equally close at the top (≥ 2). */
    tied: number;
  };

/** The words of a query that must each be found. */
export function queryWords(query: string): string[] {
  const words = [...new Set(slugify(query).split("-").filter((w) => w !== ""))];
  const telling = words.filter((w) => !IGNORED.has(w));
  return telling.length ? telling : words;
}

/** Whether `a` is closer than `b` (negative), equally close (0), or farther (positive). */
export function compareRanked(a: Ranked, b: Ranked): number {
  if (a.exact !== b.exact) return a.exact ? -1 : 1;
  return a.distance - b.distance;
}

/** Decides from a ranking (any order) whether there is one best, none, or a tie. */
export function decide(ranked: Ranked[]): MatchResult {
  if (ranked.length === 0) return { kind: "none" };
  const sorted = ranked.map((r, i) => ({ r, i })).sort((a, b) =>
    compareRanked(a.r, b.r) || a.i - b.i
  ).map((x) => x.r);
  const tied = sorted.filter((r) => compareRanked(r, sorted[0]) === 0).length;
  if (tied === 1) return { kind: "one", best: sorted[0] };
  return { kind: "ambiguous", closest: sorted.slice(0, CLOSEST), tied };
}

function haystack(item: ParkedItem): string {
  return `${item.slug} ${slugify(item.summary)}`.replaceAll("-", " ");
}

/** Matches `query` against the parked items (see the module doc for the exact rule). */
export async function matchParked(items: ParkedItem[], query: string): Promise<MatchResult> {
  const slug = slugify(query);
  const words = queryWords(query);
  if (!slug || words.length === 0) return { kind: "none" };
  const exact = items.filter((i) => i.slug === slug);
  // An exact slug needs no fuzzy search (and no Fuse import): the common, fast path.
  if (exact.length) return decide(exact.map((item) => ({ item, exact: true, distance: 0 })));
  const { default: Fuse } = await (import(FUSE) as Promise<typeof import("fuse.js")>);
  const fuse = new Fuse(items.map(haystack), {
    ignoreLocation: true,
    ignoreFieldNorm: true,
    includeScore: true,
    shouldSort: false,
    // Fuse's Bitap score is edits / length: let through up to a third, then apply allowedEdits.
    threshold: 0.34,
  });
  const distance = new Array<number>(items.length).fill(0);
  const found = new Array<number>(items.length).fill(0);
  for (const word of words) {
    for (const hit of fuse.search(word)) {
      const edits = Math.round((hit.score ?? 0) * word.length);
      if (edits > allowedEdits(word.length)) continue;
      found[hit.refIndex]++;
      distance[hit.refIndex] += edits;
    }
  }
  const ranked: Ranked[] = [];
  items.forEach((item, i) => {
    if (found[i] === words.length) ranked.push({ item, exact: false, distance: distance[i] });
  });
  return decide(ranked);
}

/**
 * Matches `query` against a whole PARKED.md: an exact slug is found in place (no item built, no
 * Fuse loaded); otherwise {@link matchParked} over every item.
 */
export async function matchDoc(doc: ParkedDoc, query: string): Promise<MatchResult> {
  const slug = slugify(query);
  const exact = slug ? itemsWithSlug(doc, slug) : [];
  if (exact.length) return decide(exact.map((item) => ({ item, exact: true, distance: 0 })));
  return await matchParked(doc.items, query);
}
