/**
 * Which units (./corpus.ts) a `search` query matches, best first. Every query word must be found
 * in a unit. A word is found **exactly** when the unit holds it as a whole word (letters and
 * digits of any script, any case: the slug rule's words); else **fuzzily** when one of the unit's
 * words holds it within the edits `drop` allows (lib/parked/match.ts: Fuse.js's Bitap, at most
 * ⌊len/3⌋ edits, none for words of 3 letters or fewer; a word inside a longer one is 0 edits).
 *
 * Order: units where every word is exact first, then fewer edits in all, then newest, then
 * handovers before parked before dropped items, then by slug. The fuzzy search runs over the
 * store's distinct words, not its text, so its cost is the vocabulary's; the rest is one pass over
 * every unit's words: linear in the store.
 * @module
 */

import { allowedEdits, bitapEdits, fuzzyIndex } from "../parked/match.ts";
import { alnumWords } from "../store/slug.ts";
import { clip } from "../text/cut.ts";
import type { Unit } from "./corpus.ts";

/** One matching unit. */
export interface Hit {
  unit: Unit;
  /** Every query word found as a whole word. */
  exact: boolean;
  /** Edits over all query words (0 when exact). */
  distance: number;
  /** The unit's line holding the most query words, on one line. */
  line: string;
}

/** A hit's line is cut to this many characters. */
export const LINE_MAX = 200;

const KIND_ORDER = { handover: 0, parked: 1, dropped: 2 } as const;

/** Best first: exact, then fewer edits, then newest, then kind, then slug. */
export function compareHits(a: Hit, b: Hit): number {
  if (a.exact !== b.exact) return a.exact ? -1 : 1;
  return a.distance - b.distance ||
    (b.unit.dateMs ?? -Infinity) - (a.unit.dateMs ?? -Infinity) ||
    KIND_ORDER[a.unit.kind] - KIND_ORDER[b.unit.kind] ||
    (a.unit.slug < b.unit.slug ? -1 : a.unit.slug > b.unit.slug ? 1 : 0);
}

/**
 * For each query word, the store's words that hold it fuzzily (not the word itself), with their
 * edits: Fuse over the distinct words.
 */
async function fuzzyWords(vocabulary: string[], words: string[]): Promise<Map<string, number>[]> {
  const fuse = await fuzzyIndex(vocabulary);
  return words.map((word) => {
    const near = new Map<string, number>();
    for (const hit of fuse.search(word)) {
      const edits = bitapEdits(hit.score, word);
      const token = vocabulary[hit.refIndex];
      if (edits <= allowedEdits(word.length) && token !== word) near.set(token, edits);
    }
    return near;
  });
}

/** The line of `text` holding the most query words (exact ones count double), cut to one line. */
function bestLine(text: string, words: string[], near: Map<string, number>[]): string {
  let best = "";
  let bestScore = -1;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const tokens = new Set(alnumWords(line));
    let score = 0;
    words.forEach((w, i) => {
      if (tokens.has(w)) score += 2;
      else if ([...tokens].some((t) => near[i].has(t))) score += 1;
    });
    if (score > bestScore) [best, bestScore] = [line, score];
  }
  return clip(best.replace(/\s+/g, " ").trim(), LINE_MAX);
}

/** The units every word of `words` (lower-case, as `queryWords` gives them) matches, best first. */
export async function rankUnits(units: Unit[], words: string[]): Promise<Hit[]> {
  if (words.length === 0) return [];
  const tokens = units.map((u) => new Set(alnumWords(u.text)));
  const vocabulary = new Set<string>();
  for (const set of tokens) for (const t of set) vocabulary.add(t);
  const near = await fuzzyWords([...vocabulary], words);
  const hits: Hit[] = [];
  units.forEach((unit, i) => {
    let distance = 0;
    let exact = true;
    for (let w = 0; w < words.length; w++) {
      if (tokens[i].has(words[w])) continue;
      if (near[w].size === 0) return;
      let edits = Infinity;
      for (const t of tokens[i]) {
        const e = near[w].get(t);
        if (e !== undefined && e < edits) edits = e;
      }
      if (edits === Infinity) return;
      exact = false;
      distance += edits;
    }
    hits.push({ unit, exact, distance, line: "" });
  });
  hits.sort(compareHits);
  for (const h of hits) h.line = bestLine(h.unit.text, words, near);
  return hits;
}
