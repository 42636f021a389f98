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
 *
 * Bounded work: a query has at most {@link QUERY_LIMITS} (characters, words, letters a word);
 * a longer one is refused before any matching ({@link queryProblem}). Each word costs a Bitap
 * search over every item, so the search also stops at a time budget ({@link MATCH_BUDGET_MS})
 * between words and says so (`slow`) rather than guess.
 * @module
 */

import type { ParkedDoc, ParkedItem } from "./grammar.ts";
import { itemsWithSlug } from "./lookup.ts";
import { slugify } from "../store/slug.ts";
import { head } from "../text/cut.ts";

/**
 * Fuse's import map name, imported by a computed specifier: a literal one puts the npm package in
 * the module graph Deno resolves before `drop` starts, which every drop would pay for, exact or not.
 */
const FUSE = "fuse.js";

/**
 * Fuse.js, loaded when a fuzzy search runs, with the options every fuzzy search of the project
 * uses (`drop` here, `search` in lib/search/rank.ts): location ignored, field-length norm off,
 * Bitap scores kept; a third of a word's length let through, then {@link allowedEdits} applied to
 * {@link bitapEdits}.
 */
export async function fuzzyIndex(texts: string[]) {
  const { default: Fuse } = await (import(FUSE) as Promise<typeof import("fuse.js")>);
  return new Fuse(texts, {
    ignoreLocation: true,
    ignoreFieldNorm: true,
    includeScore: true,
    shouldSort: false,
    // Fuse's Bitap score is edits / length: let through up to a third, then apply allowedEdits.
    threshold: 0.34,
  });
}

/** The edits a Fuse hit of `word` stands for (its Bitap score is edits / word length). */
export function bitapEdits(score: number | undefined, word: string): number {
  return Math.round((score ?? 0) * word.length);
}

/** Most edits allowed in a query word of `length` characters. */
export function allowedEdits(length: number): number {
  return length < 4 ? 0 : Math.floor(length / 3);
}
/** How many of the closest items an ambiguous drop shows. */
export const CLOSEST = 4;

const IGNORED = new Set(["a", "an", "the", "to", "of", "for", "in", "on", "and", "is", "it"]);

/**
 * The most a `drop` query may hold. A word costs one Bitap search over every item (~0.1 s for
 * 10,000 items; a long word several times that), so these keep a query within a few seconds;
 * a slug or a few summary words fit easily.
 */
export const QUERY_LIMITS = { chars: 200, words: 8, wordChars: 32 } as const;

/** How long the fuzzy search may run before it gives up (ms), checked between words. */
export const MATCH_BUDGET_MS = 5_000;

/** Why `query` is refused (over {@link QUERY_LIMITS}), or undefined when it may be matched. */
export function queryProblem(query: string): string | undefined {
  const { chars, words, wordChars } = QUERY_LIMITS;
  if (query.length > chars) {
    return `the query has ${query.length} characters; at most ${chars} are matched`;
  }
  const w = queryWords(query);
  if (w.length > words) return `the query has ${w.length} words; at most ${words} are matched`;
  const long = w.find((x) => x.length > wordChars);
  if (long) return `the word "${head(long, 40)}…" is over ${wordChars} letters`;
  return undefined;
}

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
  /** The search ran out of its time budget; nothing was decided. */
  | { kind: "slow" }
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

/** Options of {@link matchParked}. */
export interface MatchOptions {
  /** Give up after this many ms (default {@link MATCH_BUDGET_MS}). */
  budgetMs?: number;
  /** The clock, in ms (default `performance.now`). */
  clock?: () => number;
}

/**
 * Matches `query` against the parked items (see the module doc for the exact rule). A query over
 * {@link QUERY_LIMITS} is never searched (the caller refuses it: {@link queryProblem}).
 */
export async function matchParked(
  items: ParkedItem[],
  query: string,
  opts: MatchOptions = {},
): Promise<MatchResult> {
  const clock = opts.clock ?? (() => performance.now());
  const deadline = clock() + (opts.budgetMs ?? MATCH_BUDGET_MS);
  const slug = slugify(query);
  const words = queryWords(query);
  if (!slug || words.length === 0) return { kind: "none" };
  if (queryProblem(query)) return { kind: "slow" };
  const exact = items.filter((i) => i.slug === slug);
  // An exact slug needs no fuzzy search (and no Fuse import): the common case.
  if (exact.length) return decide(exact.map((item) => ({ item, exact: true, distance: 0 })));
  const fuse = await fuzzyIndex(items.map(haystack));
  const distance = new Array<number>(items.length).fill(0);
  const found = new Array<number>(items.length).fill(0);
  for (const word of words) {
    if (clock() > deadline) return { kind: "slow" };
    for (const hit of fuse.search(word)) {
      const edits = bitapEdits(hit.score, word);
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
 * The exact-slug match of `query` in a whole PARKED.md, found in place (no item built, no Fuse
 * loaded); undefined when no item has that slug (then {@link matchParked} decides).
 */
export function matchExact(doc: ParkedDoc, query: string): MatchResult | undefined {
  const slug = slugify(query);
  const exact = slug ? itemsWithSlug(doc, slug) : [];
  if (!exact.length) return undefined;
  return decide(exact.map((item) => ({ item, exact: true, distance: 0 })));
}

/** Matches `query` against a whole PARKED.md: {@link matchExact}, else {@link matchParked}. */
export async function matchDoc(
  doc: ParkedDoc,
  query: string,
  opts: MatchOptions = {},
): Promise<MatchResult> {
  return matchExact(doc, query) ?? await matchParked(doc.items, query, opts);
}
