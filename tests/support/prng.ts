/**
 * A small seeded PRNG (mulberry32) for property, fuzz and crash tests: random but reproducible.
 * @module
 */

/** Returns a generator of numbers in [0, 1) determined by `seed`. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A text of fewer than `most` pieces, each picked from `pieces` by `next` (a {@link prng}): the
 * generated inputs of the property tests that hold a shortcut to the reading it replaces.
 */
export function textOf(next: () => number, pieces: readonly string[], most: number): string {
  let text = "";
  for (let n = Math.floor(next() * most); n > 0; n--) {
    text += pieces[Math.floor(next() * pieces.length)];
  }
  return text;
}
