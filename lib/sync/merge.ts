/**
 * The merge rules of `push` / `pull`, pure (no IO): what the store and the remote's ref become
 * when both changed. docs/STORE.md "Sync" states them; tests/sync/merge_test.ts holds them.
 *
 * - **Handovers**: a union by slug. The same document on both sides is one document, compared
 *   with its personal parts left out (`consumed`, which says whether *this* machine read it, and
 *   `from`). The same slug with other content keeps both: the incoming one is renamed
 *   `<slug>-from-<user-host>` (`-2`, `-3`, … when that is taken too) and the rename is reported.
 *   Nothing is ever deleted or overwritten by a sync.
 * - **Parked items**: a three-way merge by slug against the last state both sides agreed on (the
 *   base). Added on one side: added. Removed on one side (a drop): removed, even when the other
 *   side edited it — a drop wins. Edited on one side: the edit. Edited differently on both: the
 *   newer edit, the other one logged to dropped.jsonl as `superseded`. Without a base (first sync,
 *   a ref rewritten by hand), nothing is removed but what the other side's dropped.jsonl records
 *   as dropped with exactly that text (the log is the tombstone list).
 * - **dropped.jsonl**: the union of both logs, lines appended, never rewritten.
 *
 * Every text is compared redacted (lib/secrets/): bullets, drop entries, log lines, documents'
 * content keys. What travels is redacted (sync.ts), so a store holding a secret (written before
 * redaction, or edited by hand) and the ref holding its redacted copy agree: nothing is pulled
 * back as "edited elsewhere" or renamed as another document, and nothing raw is ever added.
 * @module
 */

import { redact } from "../secrets/redact.ts";
import { slugify } from "../store/slug.ts";

/** A parked item, as the merge sees it: a key (its slug, `slug#2`… for a repeat) and its text. */
export interface Bullet {
  key: string;
  slug: string;
  /** The bullet's full text (lines joined with `\n`). */
  text: string;
}

/**
 * Keys items by slug, numbering repeats of a slug (`slug`, `slug#2`, …) in file order; each text
 * redacted, as the merge compares and writes it.
 */
export function keyBullets(items: readonly { slug: string; text: string }[]): Bullet[] {
  const seen = new Map<string, number>();
  return items.map(({ slug, text }) => {
    const n = (seen.get(slug) ?? 0) + 1;
    seen.set(slug, n);
    return { key: n === 1 ? slug : `${slug}#${n}`, slug, text: redact(text).text };
  });
}

/** One side of a parked-items merge. */
export interface ParkedSide {
  items: Bullet[];
  /** Tombstones from this side's dropped.jsonl ({@link tombstoneKey} of each drop). */
  dropped: ReadonlySet<string>;
}

/** What a parked-items merge decided, as edits of the local file plus the log lines to add. */
export interface ParkedMerge {
  /** Local keys to remove (dropped elsewhere). */
  remove: Set<string>;
  /** Local keys whose bullet text changes (edited elsewhere, or the newer edit). */
  replace: Map<string, string>;
  /** Items to add after the last local item, in the remote's order. */
  add: Bullet[];
  /** The losing side of each edit conflict, to log as superseded. */
  superseded: Bullet[];
  /** The merged items in order (local order, then the additions). */
  result: Bullet[];
}

/** A drop's identity in the tombstone set: its slug and exact text. */
export function tombstoneKey(slug: string, text: string): string {
  return `${slug}\u0000${text}`;
}

/**
 * The three-way merge of parked items (see the module doc). `base` undefined: no common state is
 * known. `localNewer` decides an edit conflict.
 */
export function mergeParked(
  base: Bullet[] | undefined,
  local: ParkedSide,
  remote: ParkedSide,
  localNewer: boolean,
): ParkedMerge {
  const b = base && new Map(base.map((i) => [i.key, i.text]));
  const r = new Map(remote.items.map((i) => [i.key, i]));
  const out: ParkedMerge = {
    remove: new Set(),
    replace: new Map(),
    add: [],
    superseded: [],
    result: [],
  };
  const localKeys = new Set<string>();
  for (const l of local.items) {
    localKeys.add(l.key);
    const theirs = r.get(l.key);
    const was = b?.get(l.key);
    if (theirs === undefined) {
      // Gone on the remote: dropped there when the base had it, or when its log says so.
      if (was !== undefined || remote.dropped.has(tombstoneKey(l.slug, l.text))) {
        out.remove.add(l.key);
      } else out.result.push(l);
      continue;
    }
    if (theirs.text === l.text || theirs.text === was) {
      out.result.push(l);
    } else if (l.text === was) {
      out.replace.set(l.key, theirs.text);
      out.result.push({ ...l, text: theirs.text });
    } else if (localNewer) {
      out.superseded.push(theirs);
      out.result.push(l);
    } else {
      out.superseded.push(l);
      out.replace.set(l.key, theirs.text);
      out.result.push({ ...l, text: theirs.text });
    }
  }
  for (const item of remote.items) {
    if (localKeys.has(item.key)) continue;
    // Missing here: dropped here when the base had it, or when the local log says so.
    if (b?.has(item.key) || local.dropped.has(tombstoneKey(item.slug, item.text))) continue;
    out.add.push(item);
    out.result.push(item);
  }
  return out;
}

/**
 * Tombstones of a dropped.jsonl: every `dropped` entry's slug and text (redacted, as bullets are
 * compared). Bad lines are skipped.
 */
export function tombstones(log: string): Set<string> {
  const out = new Set<string>();
  for (const line of redact(log).text.split("\n")) {
    if (!line.includes('"dropped"')) continue;
    try {
      const e = JSON.parse(line);
      if (e?.action === "dropped" && typeof e.item === "string" && typeof e.text === "string") {
        out.add(tombstoneKey(e.item, e.text));
      }
    } catch { /* a hand-edited or torn line: not a tombstone */ }
  }
  return out;
}

/**
 * The lines of `incoming` (a dropped.jsonl) that `mine` lacks, in order, without line endings;
 * both compared redacted, and the lines returned redacted.
 */
export function logLinesToAdd(mine: string, incoming: string): string[] {
  const have = new Set(redact(mine).text.split("\n").map((l) => l.replace(/\r$/, "")));
  const out: string[] = [];
  for (const raw of redact(incoming).text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "" || have.has(line)) continue;
    have.add(line);
    out.push(line);
  }
  return out;
}

/** The dropped.jsonl line logging an edit that lost a conflict. */
export function supersededLine(item: Bullet, ts: string): string {
  return JSON.stringify({ ts, item: item.slug, action: "superseded", text: item.text });
}

/** A handover as the merge sees it: its slug and its content key (see {@link docKeyText}). */
export interface DocRef {
  name: string;
  key: string;
}

/** Where each incoming document goes: its name in the target (renamed on a slug collision). */
export interface DocPlacement {
  /** The incoming document's name. */
  from: string;
  /** Its name in the target. */
  to: string;
}

/**
 * The union of handovers by slug: each incoming document the target does not already hold (by
 * content key, under any name) is placed under its own name (redacted: {@link cleanName}), or — that name holding other
 * content — `<name>-from-<suffix>`, then `-2`, `-3`, … `usable` rejects names the caller cannot
 * use (too long, reserved).
 */
export function placeDocs(
  target: readonly DocRef[],
  incoming: readonly DocRef[],
  suffix: (doc: DocRef) => string,
  usable: (name: string) => boolean = () => true,
): DocPlacement[] {
  const keys = new Set(target.map((d) => d.key));
  const names = new Set(target.map((d) => d.name));
  const out: DocPlacement[] = [];
  for (const doc of incoming) {
    if (keys.has(doc.key)) continue;
    let to = cleanName(doc.name);
    if (names.has(to)) {
      const base = `${doc.name}-from-${suffix(doc)}`;
      to = base;
      for (let n = 2; names.has(to) || !usable(to); n++) to = `${base}-${n}`;
    }
    keys.add(doc.key);
    names.add(to);
    out.push({ from: doc.name, to });
  }
  return out;
}

/**
 * A document's name as it may travel and be stored: itself, or, when it holds a secret (a file
 * named by a token, by hand or by an older version), the slug of its redacted form
 * (`npm_…` → `redacted-npm-token`).
 */
export function cleanName(name: string): string {
  const clean = redact(name).text;
  return clean === name ? name : slugify(clean);
}

const FENCE = /^---[ \t]*\r?$/;

/**
 * The lines of a document's front matter block (fences included), or undefined when it has none.
 * A light split: the caller only rewrites `consumed` and `from` lines inside it.
 */
function headLines(text: string): { lines: string[]; rest: string } | undefined {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const lines: string[] = [];
  let pos = start;
  for (let n = 0; n < 66; n++) {
    const nl = text.indexOf("\n", pos);
    if (nl === -1) return undefined;
    const line = text.slice(pos, nl + 1);
    lines.push(line);
    pos = nl + 1;
    if (n === 0 && !FENCE.test(line.replace(/\n$/, ""))) return undefined;
    if (n > 0 && FENCE.test(line.replace(/\n$/, ""))) {
      return { lines: [text.slice(0, start) + lines[0], ...lines.slice(1)], rest: text.slice(pos) };
    }
  }
  return undefined;
}

/**
 * The text a document's content key is taken from: the document without its personal parts —
 * `consumed` read as `false` and no `from` line — and redacted, so a handover read on one
 * machine, or pulled to another, or redacted on its way, is still the same handover.
 */
export function docKeyText(raw: string): string {
  const text = redact(raw).text;
  const head = headLines(text);
  if (!head) return text;
  const lines = head.lines.filter((l) => !/^from:/.test(l))
    .map((l) => l.replace(/^consumed:([ \t]*["']?)true/, "consumed:$1false"));
  return lines.join("") + head.rest;
}

/**
 * The document as it travels: `consumed: false` (whether a machine read it is that machine's
 * business) and a `from: <user@host>, <time>` line before the closing fence, unless it already
 * says where it came from. A document without front matter gets one holding only `from`.
 */
export function travelling(text: string, from: string): string {
  const head = headLines(text);
  const line = `from: ${from}`;
  if (!head) return `---\n${line}\n---\n${text}`;
  const lines = head.lines.map((l) => l.replace(/^consumed:([ \t]*["']?)true/, "consumed:$1false"));
  if (!lines.some((l) => /^from:/.test(l))) {
    const eol = lines[0].endsWith("\r\n") ? "\r\n" : "\n";
    lines.splice(lines.length - 1, 0, line + eol);
  }
  return lines.join("") + head.rest;
}
