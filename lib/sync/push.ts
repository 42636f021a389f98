/**
 * `push`: this store merged into the remote's, committed on top of the remote's commit and pushed
 * without force; when the remote moved meanwhile it fetches, merges and tries again
 * ({@link PUSH_ATTEMPTS} times, backing off). Only after the remote took it is the store brought up
 * to the pushed state, so a failed push leaves the store as it was. Each attempt builds the ref's
 * tree in memory and in git's object store ({@link pushTree}); what the store then becomes is
 * {@link pushedState} (pure).
 * @module
 */

import { FailureError } from "../errors.ts";
import { parseParkedBytes } from "../parked/scanner.ts";
import { isSafeSlug, type Store } from "../store/store.ts";
import { isoStamp } from "../store/time.ts";
import {
  commitTree,
  fetchStore,
  mkTree,
  pushStore,
  revParse,
  syncedRef,
  type TreeEntry,
  updateRef,
  writeBlobs,
} from "./git.ts";
import { fromLine, suffixOf } from "./identity.ts";
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
  localDocs,
  readDocBytes,
  readSyncCache,
  spliceParked,
  type SyncCache,
  writeSyncCache,
} from "./snapshot.ts";
import { clean, cleanBytes } from "./redaction.ts";
import { localText } from "./text.ts";
import { applyToStore, newReport, prepare, type SyncOptions, type SyncReport } from "./sync.ts";

/** How many times a push behind the remote fetches, merges and tries again. */
export const PUSH_ATTEMPTS = 10;

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

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

/** What one attempt puts in the ref: its tree, and what the tree was made of. */
interface PushTree {
  tree: string;
  docsTree: string;
  /** This store's handovers added to the ref (renamed on a slug collision), and their blobs. */
  placed: DocPlacement[];
  ids: string[];
  /** The blobs written, by id: what bringing the pushed state in need not read back. */
  known: Map<string, Uint8Array>;
  parked: Uint8Array;
  log: string;
  merge?: ParkedMerge;
}

/**
 * The ref's tree for one attempt (git objects written, the store untouched): the ref's handovers
 * plus this store's that it lacks, and PARKED.md and dropped.jsonl merged in memory, everything
 * redacted on the way. `base` undefined with `unmoved`: the remote has not moved since the last
 * sync, so the store's files are the merge.
 */
async function pushTree(
  store: Store,
  ref: { state: RefState; base: Bullet[] | undefined; unmoved: boolean },
  ctx: { cache: SyncCache; remote: string; from: string; suffix: string; now: Date },
  report: SyncReport,
): Promise<PushTree> {
  const root = store.root;
  const { state } = ref;
  const placed = placeDocs(
    await refDocs(root, state, ctx.cache, ctx.remote),
    await localDocs(store, ctx.cache),
    () => ctx.suffix,
    isSafeSlug,
  );
  const blobs = placed.map((p) => {
    const text = DECODER.decode(localText(`${p.from}.md`, readDocBytes(store, p.from)));
    return ENCODER.encode(clean(travelling(text, ctx.from), report));
  });
  const ids = await writeBlobs(root, blobs);
  let docsTree = state.docsTree;
  if (placed.length > 0 || docsTree === undefined) {
    const entries: TreeEntry[] = [...state.docs].map(([name, id]) => blob(id, `${name}.md`));
    placed.forEach((p, i) => entries.push(blob(ids[i], `${p.to}.md`)));
    docsTree = await mkTree(root, entries);
  }
  const merged = mergeLocal(store, ref.unmoved ? undefined : ref, ctx.now);
  const parked = cleanBytes(merged.bytes, report);
  const log = clean(merged.log, report);
  const [parkedId, logId] = await writeBlobs(root, [parked, ENCODER.encode(log)]);
  const tree = await mkTree(root, [
    blob(parkedId, "PARKED.md"),
    blob(logId, "dropped.jsonl"),
    { mode: "040000", type: "tree", id: docsTree, name: "handovers" },
  ]);
  const known = new Map(ids.map((id, i) => [id, blobs[i]]));
  return { tree, docsTree, placed, ids, known, parked, log, merge: merged.merge };
}

function blob(id: string, name: string): TreeEntry {
  return { mode: "100644", type: "blob", id, name };
}

/**
 * How long to wait before attempt `attempt + 1` after the remote moved (pure): exponential, capped
 * at 2 s, with jitter (`random` in [0, 1)), so pushers racing each other spread out rather than
 * collide again.
 */
export function pushBackoffMs(attempt: number, random: number): number {
  return random * Math.min(2_000, 50 * 2 ** attempt);
}

/** The ref's state once the remote took `t` at `commit` (pure): what the store is brought to. */
function pushedState(
  state: RefState,
  t: PushTree,
  commit: string | undefined,
  now: Date,
): RefState {
  const added = t.placed.map((p, i) => [p.to, t.ids[i]] as [string, string]);
  return {
    commit,
    docs: new Map([...state.docs, ...added]),
    docsTree: t.docsTree,
    parked: t.parked,
    log: t.log,
    time: now.getTime(),
  };
}

/**
 * The report of a push that landed (pure): the handovers it carried out are not also "in", and an
 * edit superseded by the merge in memory is named with those the store's merge superseded.
 */
function finishPushReport(report: SyncReport, t: PushTree): void {
  report.docsIn = report.docsIn.filter((d) => !t.placed.some((p) => p.to === d.from));
  const lost = t.merge?.superseded.map((s) => s.slug) ?? [];
  report.superseded = [...new Set([...lost, ...report.superseded])];
}

/** `push`: this store merged into the remote's, then the store brought up to what was pushed. */
export async function push(store: Store, opts: SyncOptions): Promise<SyncReport> {
  const remote = await prepare(store, opts.remote);
  const root = store.root;
  const report = newReport(remote);
  const cache = readSyncCache(store);
  const from = fromLine(opts.who, opts.now);
  const ctx = { cache, remote, from, suffix: suffixOf(from, "here"), now: opts.now };
  const who = `${opts.who.user}@${opts.who.host}`;
  let lastWhy = "";
  for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt++) {
    report.attempts = attempt;
    const tip = await fetchStore(root, remote);
    const baseId = await baseCommit(root, remote, tip);
    // The remote has not moved since the last sync: the merge is this store as it is.
    const unmoved = tip !== undefined && baseId === tip;
    const state = await refState(root, tip, !unmoved, remote);
    const base = unmoved ? undefined : await baseBullets(root, baseId);
    // Counted afresh on each attempt: the last one is what the ref got.
    report.redacted = {};
    const t = await pushTree(store, { state, base, unmoved }, ctx, report);
    let commit = tip;
    const sameTree = tip !== undefined && (await revParse(root, `${tip}^{tree}`)) === t.tree;
    if (!sameTree) {
      const message = `session push from ${who}`;
      commit = await commitTree(root, t.tree, tip, message, { name: who, email: who }, opts.now);
      const outcome = await pushStore(root, remote, commit);
      if (outcome.kind === "behind") {
        lastWhy = outcome.why;
        // Another machine pushed first: back off, then merge theirs.
        await new Promise((r) => setTimeout(r, pushBackoffMs(attempt, Math.random())));
        continue;
      }
      report.pushed = commit;
    }
    report.docsOut = t.placed;
    // Unmoved: the store already is what was pushed (no merge brought anything in). The pushed
    // state is clean: bringing it in counts nothing more.
    // Nothing committed: nothing was sent, so nothing was redacted from it.
    const sent = report.pushed === undefined ? {} : report.redacted;
    if (!unmoved) {
      const pushed = pushedState(state, t, commit, opts.now);
      await applyPushed(store, pushed, base, cache, opts, report, t.known);
    }
    // The base follows the store: it moves only once the store holds the pushed state.
    if (commit !== undefined) await updateRef(root, syncedRef(remote), commit);
    report.redacted = sent;
    finishPushReport(report, t);
    writeSyncCache(store, cache);
    return report;
  }
  throw new FailureError(
    `the remote "${remote}" kept moving: ${PUSH_ATTEMPTS} pushes in a row found newer items ` +
      `there (last: ${lastWhy}); nothing was forced and the store is unchanged. Try again`,
  );
}
