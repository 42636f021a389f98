/**
 * The store as the ref holds it: a commit's `handovers/` documents (by blob id, with content keys
 * from the cache), PARKED.md and dropped.jsonl; and the merge's base, the commit this store last
 * agreed on with the remote.
 * @module
 */

import { parseParkedBytes } from "../parked/scanner.ts";
import { isSafeSlug } from "../store/store.ts";
import { commitTime, isAncestor, lsTree, readBlobs, revParse, syncedRef } from "./git.ts";
import { type Bullet, type DocRef, keyBullets } from "./merge.ts";
import { docKey, type SyncCache } from "./snapshot.ts";
import { remoteText } from "./text.ts";

const DECODER = new TextDecoder();

/** The store as the ref holds it. */
export interface RefState {
  commit?: string;
  docs: Map<string, string>; // name → blob id
  docsTree?: string;
  /** The blob ids of PARKED.md and dropped.jsonl (undefined: none). */
  parkedId?: string;
  logId?: string;
  parked: Uint8Array;
  log: string;
  time: number;
}

/**
 * The store as `commit` holds it (`withParked` false: without reading PARKED.md and the log).
 * Given the `remote` it came from, a PARKED.md or log that is not text is refused
 * (lib/sync/text.ts); a base, agreed on before, is read as it is.
 */
export async function refState(
  root: string,
  commit: string | undefined,
  withParked = true,
  remote?: string,
): Promise<RefState> {
  const state: RefState = { commit, docs: new Map(), parked: new Uint8Array(), log: "", time: 0 };
  if (commit === undefined) return state;
  state.time = await commitTime(root, commit);
  const top = await lsTree(root, commit);
  const blobOf = (name: string) => top.find((e) => e.name === name && e.type === "blob")?.id;
  const parked = blobOf("PARKED.md");
  const log = blobOf("dropped.jsonl");
  state.docsTree = top.find((e) => e.name === "handovers" && e.type === "tree")?.id;
  state.parkedId = parked;
  state.logId = log;
  if (state.docsTree) {
    for (const e of await lsTree(root, state.docsTree)) {
      // Only what could be a document here (a file, not a link): a hand-rewritten ref may hold
      // anything.
      if (
        e.type === "blob" && /^100(644|755)$/.test(e.mode) && e.name.endsWith(".md") &&
        isSafeSlug(e.name.slice(0, -3))
      ) {
        state.docs.set(e.name.slice(0, -3), e.id);
      }
    }
  }
  if (!withParked) return state;
  const blobs = await readBlobs(root, [parked, log].filter((x): x is string => x !== undefined));
  const text = (name: string, bytes: Uint8Array) =>
    remote === undefined ? bytes : remoteText(remote, name, bytes);
  if (parked) state.parked = text("PARKED.md", blobs.get(parked) ?? state.parked);
  if (log) state.log = DECODER.decode(text("dropped.jsonl", blobs.get(log) ?? new Uint8Array()));
  return state;
}

/**
 * The ref's documents with their content keys (from the cache; new blobs read once, and refused
 * unless they are text: the cache holds keys of text only).
 */
export async function refDocs(
  root: string,
  state: RefState,
  cache: SyncCache,
  remote: string,
): Promise<DocRef[]> {
  const missing = new Map<string, string>(); // blob id → a name it has
  for (const [name, id] of state.docs) if (cache.blobs[id] === undefined) missing.set(id, name);
  const blobs = await readBlobs(root, [...missing.keys()]);
  for (const [id, bytes] of blobs) {
    cache.blobs[id] = await docKey(remoteText(remote, `handovers/${missing.get(id)}.md`, bytes));
  }
  const out: DocRef[] = [];
  for (const [name, id] of state.docs) {
    if (cache.blobs[id] !== undefined) out.push({ name, key: cache.blobs[id] });
  }
  return out;
}

export function bulletsOf(bytes: Uint8Array): Bullet[] {
  return keyBullets(parseParkedBytes(bytes).items);
}

/**
 * The base of the merge: the commit last agreed on with `remote`, if the remote's history still
 * holds it. A ref rewritten by hand no longer contains it: then the merge runs without a base
 * (nothing is removed but what a drop log records) rather than read missing items as drops.
 */
export async function baseCommit(
  root: string,
  remote: string,
  tip: string | undefined,
): Promise<string | undefined> {
  const base = await revParse(root, `${syncedRef(remote)}^{commit}`);
  if (base === undefined || tip === undefined) return undefined;
  return base === tip || (await isAncestor(root, base, tip)) ? base : undefined;
}

export async function baseBullets(
  root: string,
  base: string | undefined,
): Promise<Bullet[] | undefined> {
  return base === undefined ? undefined : bulletsOf((await refState(root, base)).parked);
}
