/**
 * `pull`, and what `push` (lib/sync/push.ts) shares with it: the store through
 * `refs/session/store` of the project's own remote.
 *
 * The ref's tree: `handovers/<slug>.md`, `PARKED.md`, `dropped.jsonl` — never LATEST, locks,
 * temp files or caches. A pull fetches the ref into a private ref, merges it into the store
 * (lib/sync/merge.ts) and remembers the commit it agreed on (`refs/session/synced/<remote>`,
 * the next merge's base). A push does the same merge in memory, commits the result on top of the
 * remote's commit and pushes it without force; when the remote moved meanwhile it fetches,
 * merges and tries again ({@link PUSH_ATTEMPTS} times). Only after the remote took it is the store
 * brought up to the pushed state, so a failed push leaves the store as it was.
 *
 * Redaction runs again on the way (lib/secrets/): every handover, PARKED.md and dropped.jsonl is
 * redacted before it is committed to the ref, and what a pull brings in before it is written to
 * the store (a ref written by an older version, or by hand, may hold anything). The report counts
 * what was taken out.
 * @module
 */

import { FailureError } from "../errors.ts";
import { entryOf } from "../store/catalog.ts";
import { splitFrontMatter } from "../store/front_matter.ts";
import { isSafeSlug, type Store } from "../store/store.ts";
import { isoStamp } from "../store/time.ts";
import type { RedactionCounts } from "../secrets/redact.ts";
import { fetchStore, inRepo, readBlobs, resolveRemote, syncedRef, updateRef } from "./git.ts";
import { suffixOf, type Who } from "./identity.ts";
import {
  type Bullet,
  type DocPlacement,
  keyBullets,
  logLinesToAdd,
  mergeParked,
  placeDocs,
  supersededLine,
  tombstones,
} from "./merge.ts";
import {
  baseBullets,
  baseCommit,
  bulletsOf,
  refDocs,
  type RefState,
  refState,
} from "./ref_state.ts";
import {
  addDocs,
  editStoreParked,
  readSyncCache,
  spliceParked,
  type SyncCache,
  writeSyncCache,
} from "./snapshot.ts";
import { clean, cleanBytes } from "./redaction.ts";

const DECODER = new TextDecoder();

/** Options of {@link pull} and {@link push}. */
export interface SyncOptions {
  remote?: string;
  now: Date;
  who: Who;
}

/** What a sync did, for the mode to report. */
export interface SyncReport {
  remote: string;
  /** The remote had no store yet (pull: nothing to bring). */
  empty: boolean;
  /** Handovers written to the store, `from` → `to` (renamed when `to` differs). */
  docsIn: DocPlacement[];
  /** Handovers added to the ref (push), `from` → `to`. */
  docsOut: DocPlacement[];
  /** Parked items added, removed (dropped elsewhere) and changed in the store. */
  parked: { added: number; removed: number; changed: number };
  /** Slugs whose edit lost a conflict (logged to dropped.jsonl as superseded). */
  superseded: string[];
  /** Push: the commit the remote now has; undefined when nothing needed pushing. */
  pushed?: string;
  /** Push: how many attempts it took. */
  attempts: number;
  /** Secrets redacted from what went to the ref (push) or came from it (pull), by kind. */
  redacted: RedactionCounts;
}

/** The remote to sync with, once the store is known to be in a git repository. */
export async function prepare(store: Store, name: string | undefined): Promise<string> {
  if (!(await inRepo(store.root))) {
    throw new FailureError(
      `${store.root} is not in a git repository; push and pull carry the store through the ` +
        `project's git remote. Nothing was changed`,
    );
  }
  return await resolveRemote(store.root, name);
}

/**
 * Brings the ref's state into the store: new handovers (renamed on a collision; expired ones
 * left out, as `list` would remove them), and the merge of PARKED.md and dropped.jsonl.
 */
export async function applyToStore(
  store: Store,
  state: RefState,
  base: Bullet[] | undefined,
  cache: SyncCache,
  opts: SyncOptions,
  report: SyncReport,
  known: Map<string, Uint8Array> = new Map(),
  skip: { docs: boolean; parked: boolean } = { docs: false, parked: false },
): Promise<void> {
  if (!skip.docs) await applyDocs(store, state, cache, opts, report, known);
  if (!skip.parked) await applyParked(store, state, base, opts, report);
}

async function applyDocs(
  store: Store,
  state: RefState,
  cache: SyncCache,
  opts: SyncOptions,
  report: SyncReport,
  known: Map<string, Uint8Array>,
): Promise<void> {
  const root = store.root;
  const remoteDocs = await refDocs(root, state, cache, report.remote);
  const written = await addDocs(store, cache, async (local) => {
    const have = new Set(local.map((d) => d.key));
    const wanted = remoteDocs.filter((d) => !have.has(d.key));
    const ids = wanted.map((d) => state.docs.get(d.name)!).filter((id) => !known.has(id));
    const blobs = new Map([...known, ...(await readBlobs(root, ids))]);
    const texts = new Map<string, Uint8Array>();
    const suffix = new Map<string, string>();
    for (const d of wanted) {
      const bytes = blobs.get(state.docs.get(d.name)!);
      if (!bytes) continue;
      const fields = splitFrontMatter(DECODER.decode(bytes))?.fields ?? {};
      if (entryOf(d.name, fields, opts.now).expired) continue;
      texts.set(d.name, cleanBytes(bytes, report));
      suffix.set(d.name, suffixOf(fields.from, "elsewhere"));
    }
    const placed = placeDocs(
      local,
      wanted.filter((d) => texts.has(d.name)),
      (d) => suffix.get(d.name)!,
      isSafeSlug,
    );
    report.docsIn = placed;
    return placed.map((p) => ({ name: p.to, bytes: texts.get(p.from)! }));
  });
  report.docsIn = report.docsIn.filter((p) => written.includes(p.to));
}

async function applyParked(
  store: Store,
  state: RefState,
  base: Bullet[] | undefined,
  opts: SyncOptions,
  report: SyncReport,
): Promise<void> {
  // Bullets and log lines are merged redacted (lib/sync/merge.ts); counted here, once.
  clean(DECODER.decode(state.parked), report);
  clean(state.log, report);
  const remote = { items: bulletsOf(state.parked), dropped: tombstones(state.log) };
  const result = await editStoreParked(store, (local) => {
    const mine = keyBullets(local.doc.items);
    const m = mergeParked(
      base,
      { items: mine, dropped: tombstones(local.log) },
      remote,
      local.mtimeMs > state.time,
    );
    const log = logLinesToAdd(local.log, state.log);
    const ts = isoStamp(opts.now);
    log.push(
      ...logLinesToAdd(
        local.log + "\n" + log.join("\n"),
        m.superseded.map((s) => supersededLine(s, ts)).join("\n"),
      ),
    );
    const changed = m.remove.size > 0 || m.replace.size > 0 || m.add.length > 0;
    return { bytes: changed ? spliceParked(local.doc, mine, m) : undefined, log, result: m };
  });
  report.parked = {
    added: result.add.length,
    removed: result.remove.size,
    changed: result.replace.size,
  };
  report.superseded.push(...result.superseded.map((s) => s.slug));
}

/** A report of nothing done yet, for `remote`. */
export function newReport(remote: string): SyncReport {
  return {
    remote,
    empty: false,
    docsIn: [],
    docsOut: [],
    parked: { added: 0, removed: 0, changed: 0 },
    superseded: [],
    attempts: 0,
    redacted: {},
  };
}

/** `pull`: the remote's store into this one. */
export async function pull(store: Store, opts: SyncOptions): Promise<SyncReport> {
  const remote = await prepare(store, opts.remote);
  const report = newReport(remote);
  const tip = await fetchStore(store.root, remote);
  if (tip === undefined) {
    report.empty = true;
    return report;
  }
  const base = await baseCommit(store.root, remote, tip);
  // The remote has not moved since this store last agreed with it: nothing to bring in.
  if (base === tip) return report;
  const cache = readSyncCache(store);
  const state = await refState(store.root, tip, true, remote);
  // What did not change on the remote since the base needs no merge (cost follows the change).
  const was = base === undefined ? undefined : await refState(store.root, base, false);
  const skip = {
    docs: was !== undefined && was.docsTree === state.docsTree,
    parked: was !== undefined && was.parkedId === state.parkedId && was.logId === state.logId,
  };
  const bullets = skip.parked ? undefined : await baseBullets(store.root, base);
  await applyToStore(store, state, bullets, cache, opts, report, new Map(), skip);
  await updateRef(store.root, syncedRef(remote), tip);
  writeSyncCache(store, cache);
  return report;
}
