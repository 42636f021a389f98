/**
 * `pull` and `push`: the store through `refs/session/store` of the project's own remote.
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
import { parseParkedBytes } from "../parked/scanner.ts";
import { entryOf } from "../store/catalog.ts";
import { splitFrontMatter } from "../store/front_matter.ts";
import { isSafeSlug, type Store } from "../store/store.ts";
import { isoStamp } from "../store/time.ts";
import type { RedactionCounts } from "../secrets/redact.ts";
import {
  commitTree,
  fetchStore,
  inRepo,
  mkTree,
  pushStore,
  readBlobs,
  resolveRemote,
  revParse,
  syncedRef,
  type TreeEntry,
  updateRef,
  writeBlobs,
} from "./git.ts";
import { fromLine, suffixOf, type Who } from "./identity.ts";
import {
  type Bullet,
  type DocPlacement,
  keyBullets,
  logLinesToAdd,
  mergeParked,
  type ParkedMerge,
  placeDocs,
  supersededLine,
  tombstones,
  travelling,
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
  localDocs,
  readDocBytes,
  readSyncCache,
  spliceParked,
  type SyncCache,
  writeSyncCache,
} from "./snapshot.ts";
import { clean, cleanBytes } from "./redaction.ts";
import { localText } from "./text.ts";

/** How many times a push behind the remote fetches, merges and tries again. */
export const PUSH_ATTEMPTS = 10;

const ENCODER = new TextEncoder();
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

async function prepare(store: Store, name: string | undefined): Promise<string> {
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
async function applyToStore(
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

function readOr<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback; // not there yet
  }
}

/**
 * PARKED.md and dropped.jsonl merged with the ref's, in memory (`against` undefined: the remote
 * has not moved since the last sync, so the store's files are the merge, unparsed).
 */
function mergeLocal(
  store: Store,
  against: { base: Bullet[] | undefined; state: RefState } | undefined,
  now: Date,
): { bytes: Uint8Array; log: string; merge?: ParkedMerge } {
  const bytes = localText(
    "PARKED.md",
    readOr(() => Deno.readFileSync(store.parked), new Uint8Array()),
  );
  const log = DECODER.decode(
    localText("dropped.jsonl", readOr(() => Deno.readFileSync(store.dropped), new Uint8Array())),
  );
  if (against === undefined) return { bytes, log };
  const { base, state } = against;
  const mtime = readOr(() => Deno.statSync(store.parked).mtime?.getTime() ?? 0, 0);
  const doc = parseParkedBytes(bytes);
  const mine = keyBullets(doc.items);
  const m = mergeParked(
    base,
    { items: mine, dropped: tombstones(log) },
    { items: bulletsOf(state.parked), dropped: tombstones(state.log) },
    mtime > state.time,
  );
  const changed = m.remove.size > 0 || m.replace.size > 0 || m.add.length > 0;
  const ts = isoStamp(now);
  const add = [...logLinesToAdd(log, state.log), ...m.superseded.map((s) => supersededLine(s, ts))];
  const sep = log.length > 0 && !log.endsWith("\n") ? "\n" : "";
  return {
    bytes: changed ? spliceParked(doc, mine, m) : bytes,
    log: log + (add.length ? sep + add.map((l) => l + "\n").join("") : ""),
    merge: m,
  };
}

function newReport(remote: string): SyncReport {
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

/**
 * {@link applyToStore} after the remote took a push. A failure here (a full disk, a lock held too
 * long) says that the push landed, and that the base was kept, so the next pull finishes the merge.
 */
async function applyPushed(...args: Parameters<typeof applyToStore>): Promise<void> {
  const report = args[5];
  try {
    await applyToStore(...args);
  } catch (err) {
    if (report.pushed === undefined) throw err;
    throw new FailureError(
      `pushed to "${report.remote}" (${report.pushed.slice(0, 12)}), but bringing its items into ` +
        `this store failed (${(err as Error).message}); run "session.ts pull" to bring them in`,
      { cause: err },
    );
  }
}

/** `push`: this store merged into the remote's, then the store brought up to what was pushed. */
export async function push(store: Store, opts: SyncOptions): Promise<SyncReport> {
  const remote = await prepare(store, opts.remote);
  const root = store.root;
  const report = newReport(remote);
  const cache = readSyncCache(store);
  const from = fromLine(opts.who, opts.now);
  const suffix = suffixOf(from, "here");
  let lastWhy = "";
  for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt++) {
    report.attempts = attempt;
    const tip = await fetchStore(root, remote);
    const baseId = await baseCommit(root, remote, tip);
    // The remote has not moved since the last sync: the merge is this store as it is.
    const unmoved = tip !== undefined && baseId === tip;
    const state = await refState(root, tip, !unmoved, remote);
    const base = unmoved ? undefined : await baseBullets(root, baseId);
    // Handovers: the ref's, plus this store's that it lacks (renamed on a slug collision).
    const placed = placeDocs(
      await refDocs(root, state, cache, remote),
      await localDocs(store, cache),
      () => suffix,
      isSafeSlug,
    );
    // Counted afresh on each attempt: the last one is what the ref got.
    report.redacted = {};
    const blobs = placed.map((p) =>
      ENCODER.encode(
        clean(
          travelling(DECODER.decode(localText(`${p.from}.md`, readDocBytes(store, p.from))), from),
          report,
        ),
      )
    );
    const ids = await writeBlobs(root, blobs);
    const known = new Map(ids.map((id, i) => [id, blobs[i]]));
    let docsTree = state.docsTree;
    if (placed.length > 0 || docsTree === undefined) {
      const entries: TreeEntry[] = [...state.docs].map(([name, id]) => ({
        mode: "100644",
        type: "blob",
        id,
        name: `${name}.md`,
      }));
      placed.forEach((p, i) =>
        entries.push({ mode: "100644", type: "blob", id: ids[i], name: `${p.to}.md` })
      );
      docsTree = await mkTree(root, entries);
    }
    // Parked items and the log: merged in memory; the store is not touched before the push.
    const merged = mergeLocal(store, unmoved ? undefined : { base, state }, opts.now);
    const m = merged.merge;
    const mergedParked = cleanBytes(merged.bytes, report);
    const mergedLog = clean(merged.log, report);
    const [parkedId, logId] = await writeBlobs(root, [mergedParked, ENCODER.encode(mergedLog)]);
    const tree = await mkTree(root, [
      { mode: "100644", type: "blob", id: parkedId, name: "PARKED.md" },
      { mode: "100644", type: "blob", id: logId, name: "dropped.jsonl" },
      { mode: "040000", type: "tree", id: docsTree, name: "handovers" },
    ]);
    let commit = tip;
    const sameTree = tip !== undefined && (await revParse(root, `${tip}^{tree}`)) === tree;
    if (!sameTree) {
      commit = await commitTree(
        root,
        tree,
        tip,
        `session push from ${opts.who.user}@${opts.who.host}`,
        { name: `${opts.who.user}@${opts.who.host}`, email: `${opts.who.user}@${opts.who.host}` },
        opts.now,
      );
      const outcome = await pushStore(root, remote, commit);
      if (outcome.kind === "behind") {
        lastWhy = outcome.why;
        // Another machine pushed first: back off (exponential, with jitter, so pushers racing
        // each other spread out rather than collide again), then merge theirs.
        const ms = Math.random() * Math.min(2_000, 50 * 2 ** attempt);
        await new Promise((r) => setTimeout(r, ms));
        continue;
      }
      report.pushed = commit;
    }
    report.docsOut = placed;
    // The remote has it: bring the store up to the pushed state (the same merge, now applied).
    const pushedState: RefState = {
      commit,
      docs: new Map([...state.docs, ...placed.map((p, i) => [p.to, ids[i]] as [string, string])]),
      docsTree,
      parked: mergedParked,
      log: mergedLog,
      time: opts.now.getTime(),
    };
    // Unmoved: the store already is what was pushed (no merge brought anything in). The pushed
    // state is clean: bringing it in counts nothing more.
    // Nothing committed: nothing was sent, so nothing was redacted from it.
    const sent = report.pushed === undefined ? {} : report.redacted;
    if (!unmoved) await applyPushed(store, pushedState, base, cache, opts, report, known);
    // The base follows the store: it moves only once the store holds the pushed state.
    if (commit !== undefined) await updateRef(root, syncedRef(remote), commit);
    report.redacted = sent;
    report.docsIn = report.docsIn.filter((d) => !placed.some((p) => p.to === d.from));
    const lost = m?.superseded.map((s) => s.slug) ?? [];
    report.superseded = [...new Set([...lost, ...report.superseded])];
    writeSyncCache(store, cache);
    return report;
  }
  throw new FailureError(
    `the remote "${remote}" kept moving: ${PUSH_ATTEMPTS} pushes in a row found newer items ` +
      `there (last: ${lastWhy}); nothing was forced and the store is unchanged. Try again`,
  );
}
