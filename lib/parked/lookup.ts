/**
 * Finding items by slug in a PARKED.md without building them: a canonical bullet's slug is
 * compared byte by byte where it lies, and only a bullet that could still match is parsed. This
 * is what keeps `park` and an exact `drop` on a 10,000-item file to one pass over its bytes.
 * Pure, no IO.
 * @module
 */

import type { ParkedDoc, ParkedItem } from "./grammar.ts";
import { asDoc, type Doc } from "./scanner.ts";

/** 1 for the bytes of `[a-z0-9]` (a table: this runs for every bullet of a large file). */
const ALNUM = new Uint8Array(256);
for (let c = 48; c <= 57; c++) ALNUM[c] = 1;
for (let c = 97; c <= 122; c++) ALNUM[c] = 1;

/** Matches `[a-z0-9]+(?:-[a-z0-9]+)*\*\*` at `q`: the index of the closing `**`, or -1. */
function simpleSlugEnd(b: Uint8Array, q: number): number {
  let i = q;
  for (;;) {
    if (ALNUM[b[i]] !== 1) return -1;
    while (ALNUM[b[i]] === 1) i++;
    if (b[i] !== 45) break;
    i++;
  }
  return b[i] === 42 && b[i + 1] === 42 ? i : -1;
}

/** The index of the first item with `slug`, or -1 (canonical bullets are compared in place). */
export function findParked(doc: ParkedDoc, slug: string): number {
  return slugIndexes(asDoc(doc), slug, "first")[0] ?? -1;
}

/** Every item whose slug is `slug` (normally one; hand edits can repeat a slug). */
export function itemsWithSlug(doc: ParkedDoc, slug: string): ParkedItem[] {
  const d = asDoc(doc);
  return slugIndexes(d, slug, "all").map((i) => d.item(i));
}

/** {@link compareSlugAt}: the slug surely differs. */
const SLUG_NO = -1;
/** {@link compareSlugAt}: the slug is exactly the one asked for. */
const SLUG_FULL = -2;
/** {@link compareSlugAt}: only a parse can tell. */
const SLUG_UNKNOWN = -3;

/**
 * Compares the slug of the canonical bullet at `s` (`- **…**`) with the ASCII `slug` in place,
 * byte by byte. Returns {@link SLUG_FULL} when the slug is exactly `slug`; the index of the first
 * extra byte when it is `slug` followed by more; {@link SLUG_NO} when it surely differs;
 * {@link SLUG_UNKNOWN} when only a parse can tell. Surely: a first differing byte that is a
 * lowercase letter or digit stays as it is under slugify, so the slugs differ there; any other
 * byte (a capital, a space, a second `-`) could be rewritten, so the bullet is parsed instead.
 * A number, not an object: this runs for every bullet of a large file.
 */
function compareSlugAt(b: Uint8Array, s: number, slug: string): number {
  if (b[s] !== 45 || b[s + 1] !== 32 || b[s + 2] !== 42 || b[s + 3] !== 42) return SLUG_UNKNOWN;
  const q = s + 4;
  const len = slug.length;
  let k = 0;
  while (k < len && b[q + k] === slug.charCodeAt(k)) k++;
  const c = b[q + k];
  if (k < len) return ALNUM[c] ? SLUG_NO : SLUG_UNKNOWN;
  if (c === 42 && b[q + k + 1] === 42) return SLUG_FULL;
  return ALNUM[c] || c === 45 ? q + k : SLUG_UNKNOWN;
}

const ASCII_SLUG = /^[a-z0-9-]+$/;

/** Whether the bytes from `k` up to `end` are `-<digits>`: a numbered sibling's suffix. */
function numberedAt(b: Uint8Array, k: number, end: number): boolean {
  if (b[k] !== 45 || k + 1 >= end) return false;
  for (k++; k < end; k++) if (b[k] < 48 || b[k] > 57) return false;
  return true;
}

/**
 * Indexes of the bullets whose slug is `slug` (canonical ones compared in place): the first only,
 * every one, or the family (also the slugs `slug-<n>`, see {@link slugFamily}).
 */
function slugIndexes(d: Doc, slug: string, which: "first" | "all" | "family"): number[] {
  const b = d.bytes;
  const starts = d.starts;
  const n = d.count;
  const ascii = ASCII_SLUG.test(slug);
  const firstOnly = which === "first";
  const family = which === "family"
    ? new RegExp(`^${slug.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:-\\d+)?$`)
    : undefined;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    if (ascii) {
      const r = compareSlugAt(b, starts[i], slug);
      if (r === SLUG_NO) continue;
      if (r === SLUG_FULL) {
        out.push(i);
        if (firstOnly) break;
        continue;
      }
      if (r >= 0) {
        // A longer plain slug differs, unless it is a family member; anything else is parsed.
        const end = simpleSlugEnd(b, starts[i] + 4);
        if (end >= 0) {
          if (family && numberedAt(b, r, end)) out.push(i);
          continue;
        }
      }
    }
    const other = d.item(i).slug;
    if (family ? family.test(other) : other === slug) {
      out.push(i);
      if (firstOnly) break;
    }
  }
  return out;
}

/** The items whose slug is `base` or `base-<n>` (the slugs `park` derives from one summary). */
export function slugFamily(doc: ParkedDoc, base: string): ParkedItem[] {
  const d = asDoc(doc);
  return slugIndexes(d, base, "family").map((i) => d.item(i));
}

/** A slug for a new item that does not collide with another item's: `-2`, `-3`, … appended. */
export function uniqueSlug(doc: ParkedDoc, base: string): string {
  if (findParked(doc, base) < 0) return base;
  const taken = new Set(slugFamily(doc, base).map((i) => i.slug));
  for (let n = 2;; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Whether `item`'s bullet stands in `doc` exactly as written, found by its slug in place. */
export function holdsBullet(doc: ParkedDoc, item: ParkedItem): boolean {
  return itemsWithSlug(doc, item.slug).some((i) => i.text === item.text);
}
