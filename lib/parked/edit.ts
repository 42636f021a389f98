/**
 * Edits of a parsed PARKED.md: add, update and remove one bullet. Each returns a new document
 * whose bytes are the old ones with only that bullet spliced in or out (everything else — notes,
 * headings, prose, CRLF, bytes that are not UTF-8 — stays exactly as it was), held as pieces:
 * views of the old bytes around the new bullet, so writing a large file never copies it whole.
 * Its spans are shifted rather than re-scanned. Pure, no IO (the locked write is ./file.ts).
 * @module
 */

import {
  formatBullet,
  PARKED_HEADER,
  type ParkedDoc,
  type ParkedFields,
  type ParkedItem,
} from "./grammar.ts";
import { findParked } from "./lookup.ts";
import {
  asDoc,
  concat,
  countNewlines,
  DECODER,
  Doc,
  ENCODER,
  LazyItem,
  parseParked,
  scanParked,
} from "./scanner.ts";

/**
 * `doc` with bullet `i` replaced by `raw` (or removed when `raw` is undefined), without
 * re-scanning: edits only ever put whole bullets next to lines that end a bullet anyway, so the
 * other spans stay what a parse would find; they only move.
 */
function splice(doc: Doc, i: number, raw: Uint8Array | undefined): Doc {
  const s = doc.starts[i];
  const e = doc.ends[i];
  const replacement = raw ?? new Uint8Array(0);
  const delta = replacement.length - (e - s);
  const lineDelta = countNewlines(replacement) - countNewlines(doc.bytes.subarray(s, e));
  const bytes = [doc.bytes.subarray(0, s), replacement, doc.bytes.subarray(e)];
  const count = raw === undefined ? doc.count - 1 : doc.count;
  return new Doc(bytes, doc.eol, count, () => {
    const starts = doc.starts.slice();
    const ends = doc.ends.slice();
    const lines = doc.lines.slice();
    for (let j = i + 1; j < starts.length; j++) {
      starts[j] += delta;
      ends[j] += delta;
      lines[j] += lineDelta;
    }
    if (raw === undefined) {
      starts.splice(i, 1);
      ends.splice(i, 1);
      lines.splice(i, 1);
    } else {
      ends[i] = s + replacement.length;
    }
    return { starts, ends, lines };
  });
}

/** Result of {@link upsertParked}. */
export interface Upserted {
  doc: ParkedDoc;
  item: ParkedItem;
  /** True when an existing bullet with the slug was rewritten. */
  updated: boolean;
}

/**
 * Adds a bullet for `fields`, or rewrites the first bullet with the same slug (`known`: its index,
 * when the caller already found it). An update rewrites the bullet's first line only (its
 * fields): the notes below it stay byte for byte. The original `Raised` date is kept, and
 * `why`/`next` are kept unless new ones are given. A new bullet goes right after the last item
 * (or at the end; a new file gets the header).
 */
export function upsertParked(doc: ParkedDoc, fields: ParkedFields, known?: number): Upserted {
  const d = asDoc(doc);
  const i = known !== undefined && known >= 0 && d.item(known).slug === fields.slug
    ? known
    : findParked(d, fields.slug);
  if (i >= 0) {
    const old = d.item(i);
    const merged: ParkedFields = {
      slug: fields.slug,
      summary: fields.summary,
      raised: old.raised ?? fields.raised,
      why: fields.why || old.why,
      next: fields.next || old.next,
    };
    const raw = d.raw(i);
    // The first line's ending and everything after it (the notes) are kept as they are.
    const nl = raw.indexOf("\n");
    const cut = nl < 0 ? raw.length : nl > 0 && raw[nl - 1] === "\r" ? nl - 1 : nl;
    const bullet = formatBullet(merged) + raw.slice(cut);
    const out = splice(d, i, ENCODER.encode(bullet));
    // From its text, not `out.item(i)`: reading it back would join the new file's pieces.
    return { doc: out, item: new LazyItem(bullet, d.lines[i]), updated: true };
  }
  return appendParked(d, fields);
}

/**
 * Adds a bullet for `fields` without looking for its slug (the caller knows it is new): right
 * after the last item, or at the end; a new file gets the header.
 */
export function appendParked(doc: ParkedDoc, fields: ParkedFields): Upserted {
  const d = asDoc(doc);
  const eol = d.eol;
  const bullet = formatBullet(fields) + eol;
  if (d.count > 0) {
    // Right after the last item; a last bullet without a line ending gets one first.
    const last = d.count - 1;
    const lastEnd = d.ends[last];
    const grown = d.bytes[lastEnd - 1] === 10
      ? d
      : splice(d, last, concat(d.bytes.subarray(d.starts[last], lastEnd), ENCODER.encode(eol)));
    const pos = grown.ends[last];
    const add = ENCODER.encode(bullet);
    const bytes = [grown.bytes.subarray(0, pos), add, grown.bytes.subarray(pos)];
    const lastLines = countNewlines(grown.bytes.subarray(grown.starts[last], pos));
    const line = grown.lines[last] + lastLines;
    const out = new Doc(bytes, eol, grown.count + 1, () => ({
      starts: [...grown.starts, pos],
      ends: [...grown.ends, pos + add.length],
      lines: [...grown.lines, line],
    }));
    const item = new LazyItem(DECODER.decode(add), line);
    return { doc: out, item, updated: false };
  }
  if (d.bytes.length === 0) {
    const out = parseParked(`${PARKED_HEADER}${eol}${eol}${bullet}`) as Doc;
    return { doc: out, item: out.item(0), updated: false };
  }
  // No items yet: append at the end, re-parsing to be sure the bullet is not swallowed by a
  // fence the file leaves open (then the fence is closed first).
  const last = d.bytes.lastIndexOf(10, d.bytes.length - 2);
  const lastLine = DECODER.decode(d.bytes.subarray(last + 1));
  let sep = d.bytes[d.bytes.length - 1] === 10 ? "" : eol;
  if (lastLine.trim() !== "" || sep) sep += eol;
  let out = scanParked(concat(d.bytes, ENCODER.encode(sep + bullet)));
  if (out.count === 0) {
    out = scanParked(concat(d.bytes, ENCODER.encode(`${sep}\`\`\`${eol}${eol}${bullet}`)));
  }
  const fixed = new Doc(out.bytes, eol, out.count, out);
  return { doc: fixed, item: fixed.item(fixed.count - 1), updated: false };
}

/** Result of {@link removeParked}. */
export interface Removed {
  doc: ParkedDoc;
  /** The removed item, or undefined when no bullet had the slug. */
  removed?: ParkedItem;
}

/**
 * Removes one bullet (all its lines): the given item of this doc, or the first with the given
 * slug. Everything else stays exactly as it was.
 */
export function removeParked(doc: ParkedDoc, which: string | ParkedItem): Removed {
  const d = asDoc(doc);
  let i = -1;
  if (typeof which === "string") i = findParked(d, which);
  else {
    const at = d.lines.indexOf(which.line);
    if (at >= 0 && d.item(at) === which) i = at;
  }
  if (i < 0) return { doc };
  const removed = d.item(i);
  const s = d.starts[i];
  const e = d.ends[i];
  // A last bullet without a line ending leaves the previous line's ending dangling: drop it.
  if (d.bytes[e - 1] !== 10 && e === d.bytes.length && s > 0) {
    const cut = s >= 2 && d.bytes[s - 2] === 13 ? 2 : 1;
    const ends = d.ends.slice(0, i);
    if (i > 0 && ends[i - 1] === s) ends[i - 1] = s - cut;
    const out = new Doc(d.bytes.slice(0, s - cut), d.eol, i, {
      starts: d.starts.slice(0, i),
      ends,
      lines: d.lines.slice(0, i),
    });
    return { doc: out, removed };
  }
  return { doc: splice(d, i, undefined), removed };
}
