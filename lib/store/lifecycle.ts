/**
 * The handover's lifecycle: the only code that points `LATEST`, clears it, or flips a document's
 * `consumed`. A dump and a draft point it, the hook's restore and `recall` consume, `list` expires
 * documents and repairs a dangling pointer, and pointers lost in an older hook's claims come back.
 *
 * Each step is a pure decision (the store's state in, a plan out: `plan*`) and an applier that
 * reads the state and runs the plan holding the docs lock (lib/store/docs_lock.ts), re-reading
 * under it, so a writer that came meanwhile is newer and kept. Rules: docs/STORE.md, "LATEST".
 *
 * The hook loads this module on its pending path: it imports nothing beyond the store's own files.
 * @module
 */

import { TEMP_PREFIX, writeFileAtomicSync } from "../fs/atomic.ts";
import { acquireLockSync, docsLockTarget, type Lock } from "../fs/lock.ts";
import { exists, join, readUtf8, removeQuietly } from "../fs/path.ts";
import { withDocsLock } from "./docs_lock.ts";
import { markConsumed, splitFrontMatter } from "./front_matter.ts";
import { readLatest, restoredMarker } from "./latest.ts";
import { docPath, isSafeSlug, readDoc, type Store } from "./store.ts";

// ---------------------------------------------------------------------------------------------
// Consume: the hook's restore and `recall`.

/** What a consumer read and wants consumed. */
export interface ConsumeIntent {
  slug: string;
  /** The document's text as the consumer read it (and showed it, or will). */
  text: string;
  /** Chosen because LATEST named it: a LATEST that moved meanwhile means a newer dump, kept. */
  viaLatest: boolean;
  /**
   * Already shown (`recall` prints first): a LATEST naming it is cleared even when there is no
   * `consumed: false` to flip. The hook shows only what it flipped, so it passes false.
   */
  shown: boolean;
  /** The session's `.restored-<id>` marker to leave (lib/store/latest.ts `restoredMarker`). */
  marker?: string;
}

/** The store as a consume sees it. */
export interface ConsumeState {
  /** The slug LATEST names now. */
  latest?: string;
  /** The document's text now (undefined: gone). */
  current?: string;
}

/** What a consume ends in, as `recall` reports it. */
export type ConsumeStatus =
  /** flipped, and re-read as consumed */
  | "written"
  /** flipped, but the document does not read back as consumed */
  | "unread"
  /** consumed already: nothing to flip */
  | "before"
  /** no `consumed: false` line to flip */
  | "unmarked"
  /** a newer dump replaced the document (or moved LATEST) meanwhile: nothing written */
  | "replaced";

/** The plan of a consume. */
export type ConsumePlan =
  | { kind: "replaced" }
  | { kind: "keep"; status: "before" | "unmarked"; clearLatest: boolean }
  | { kind: "flip"; text: string; clearLatest: boolean; marker?: string };

/**
 * Decides a consume (pure): nothing when the document or the LATEST it was chosen by changed
 * meanwhile; else the byte-exact flip of `consumed` (lib/store/front_matter.ts `markConsumed`),
 * LATEST cleared only when it names the target, and the restored marker left.
 */
export function planConsume(intent: ConsumeIntent, state: ConsumeState): ConsumePlan {
  if (state.current !== intent.text || (intent.viaLatest && state.latest !== intent.slug)) {
    return { kind: "replaced" };
  }
  const named = state.latest === intent.slug;
  const flipped = markConsumed(intent.text);
  if (flipped === undefined) {
    const before = splitFrontMatter(intent.text)?.fields.consumed === "true";
    return {
      kind: "keep",
      status: before ? "before" : "unmarked",
      clearLatest: intent.shown && named,
    };
  }
  return { kind: "flip", text: flipped, clearLatest: named, marker: intent.marker };
}

/** Whether a plan writes anything (else no lock is needed to run it). */
function writes(plan: ConsumePlan): boolean {
  return plan.kind === "flip" || (plan.kind === "keep" && plan.clearLatest);
}

function consumeState(store: Store, slug: string): ConsumeState {
  return { latest: readLatest(store), current: readDoc(store, slug) };
}

/**
 * Runs a consume plan; the caller holds the docs lock. The flip is written first, and LATEST is
 * cleared only after it: a failed write (a full disk) throws with the store as it was.
 */
function applyConsume(store: Store, slug: string, plan: ConsumePlan): ConsumeStatus {
  if (plan.kind === "replaced") return "replaced";
  if (plan.kind === "keep") {
    if (plan.clearLatest) removeQuietly(store.latest);
    return plan.status;
  }
  writeFileAtomicSync(docPath(store, slug), plan.text);
  // LATEST becomes the marker when it names this one (one rename: it holds the slug already),
  // else the marker is written. A LATEST left behind names a consumed document: harmless.
  if (plan.clearLatest) takeLatestAs(store.latest, plan.marker);
  else if (plan.marker !== undefined) writeFileAtomicSync(plan.marker, `${slug}\n`);
  const reread = readDoc(store, slug);
  return reread !== undefined && splitFrontMatter(reread)?.fields.consumed === "true"
    ? "written"
    : "unread";
}

/** Decides on the store as it is now and runs the plan (under the lock, when it writes). */
function settle(store: Store, intent: ConsumeIntent): ConsumeStatus {
  return applyConsume(store, intent.slug, planConsume(intent, consumeState(store, intent.slug)));
}

/** Whether the consume would write: else it is settled without the lock. */
function needsLock(store: Store, intent: ConsumeIntent): boolean {
  return writes(planConsume(intent, consumeState(store, intent.slug)));
}

/**
 * Consumes `intent` for the hook: the docs lock waited for at most `waitMs` (a hook must not hang
 * a session); `{ lock }` says why it could not be had. Two hooks firing together consume once.
 */
export function consumeSync(
  store: Store,
  intent: ConsumeIntent,
  waitMs: number,
): ConsumeStatus | { lock: string } {
  if (!needsLock(store, intent)) return settle(store, intent);
  let lock: Lock;
  try {
    lock = acquireLockSync(docsLockTarget(store.dir), { waitMs });
  } catch (err) {
    return { lock: (err as Error).message };
  }
  try {
    return settle(store, intent);
  } finally {
    lock.release();
  }
}

/** Consumes `intent` for `recall`, under the docs lock (and legacy recovery, {@link underLock}). */
export async function consume(store: Store, intent: ConsumeIntent): Promise<ConsumeStatus> {
  if (!needsLock(store, intent)) return settle(store, intent);
  return await underLock(store, () => settle(store, intent));
}

/**
 * Records that session `sessionId` started from `slug` because `recall` printed it there (the
 * hook's restore leaves the same record in its consume): the first record stands — a session that
 * later looks another handover up still continues the one it started from. Whether it was written.
 */
export function markRestored(store: Store, sessionId: string | undefined, slug: string): boolean {
  const marker = restoredMarker(store.dir, sessionId);
  if (marker === undefined || !isSafeSlug(slug) || exists(marker)) return false;
  writeFileAtomicSync(marker, `${slug}\n`);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Point: a dump or a SessionEnd draft.

/** What points LATEST: an agent's dump (or `recover`), or SessionEnd's automatic draft. */
export type Writer = "dump" | "draft";

/**
 * Whether a newly written document takes LATEST (pure): a dump always; a draft unless LATEST names
 * an unconsumed document the agent wrote (a draft never shadows a dump). `latest` is the document
 * LATEST names now, with its front matter.
 */
export function planPoint(
  writer: Writer,
  latest: { slug: string; fields?: Record<string, string> } | undefined,
): { point: true } | { point: false; keep: string } {
  if (writer === "draft" && latest?.fields?.consumed === "false" && !("draft" in latest.fields)) {
    return { point: false, keep: latest.slug };
  }
  return { point: true };
}

/**
 * Points LATEST at `slug`, just written by `writer`, when {@link planPoint} says so; returns the
 * slug LATEST keeps instead, if any. The caller holds the docs lock ({@link underLock}).
 */
export function pointLatest(store: Store, slug: string, writer: Writer): string | undefined {
  const current = readLatest(store);
  const text = current === undefined || !isSafeSlug(current) ? undefined : readDoc(store, current);
  const fields = text === undefined ? undefined : splitFrontMatter(text)?.fields;
  const plan = planPoint(writer, current === undefined ? undefined : { slug: current, fields });
  if (!plan.point) return plan.keep;
  writeLatest(store, slug);
  return undefined;
}

/**
 * Whether the pointer of a store moved in from a linked worktree (lib/sync/adopt.ts) takes LATEST
 * (pure): the document it names, under its name here, when unconsumed and not older than the one
 * LATEST names now (a sandboxed dump, waiting for its `/clear`).
 */
export function planAdopted(
  moved: Record<string, string> | undefined,
  current: Record<string, string> | undefined,
): boolean {
  if (moved?.consumed !== "false") return false;
  const ms = (f: Record<string, string> | undefined) => {
    const t = f?.created === undefined ? NaN : Date.parse(f.created);
    return Number.isNaN(t) ? 0 : t;
  };
  return current === undefined || ms(moved) >= ms(current);
}

/** Points LATEST at `slug`, a document just moved in from a worktree, when {@link planAdopted} says so. */
export async function pointAdopted(store: Store, slug: string): Promise<void> {
  await underLock(store, () => {
    const fields = (s: string | undefined) => {
      const text = s === undefined || !isSafeSlug(s) ? undefined : readDoc(store, s);
      return text === undefined ? undefined : splitFrontMatter(text)?.fields;
    };
    const current = readLatest(store);
    if (current !== slug && planAdopted(fields(slug), fields(current))) writeLatest(store, slug);
  });
}

// ---------------------------------------------------------------------------------------------
// Expire and repair: `list`.

/** What {@link tidy} did: the slugs removed, those it could not remove (with why), LATEST after. */
export interface Tidied {
  removed: string[];
  notRemoved: { slug: string; reason: string }[];
  latest?: string;
}

/**
 * What to do with LATEST once the expired documents are gone (pure): clear it when it names a
 * document that is missing or that no slug can be (a dangling pointer), else keep it.
 */
export function planRepair(latest: string | undefined, present: boolean): "keep" | "clear" {
  return latest !== undefined && !present ? "clear" : "keep";
}

/**
 * `list`'s housekeeping under the docs lock: removes the documents among `candidates` that
 * `stillExpired` confirms from the document itself (LATEST cleared first when it names one, and
 * put back when the document stays), then clears a dangling LATEST. `remove` is the removal
 * (tests inject a failing one). A dump landing meanwhile is never removed nor its pointer cleared.
 */
export async function tidy(
  store: Store,
  candidates: string[],
  stillExpired: (slug: string) => boolean,
  remove: (path: string) => void = Deno.removeSync,
): Promise<Tidied> {
  return await underLock(store, () => {
    const out: Tidied = { removed: [], notRemoved: [] };
    for (const slug of candidates) {
      if (!stillExpired(slug)) continue;
      const pointed = readLatest(store) === slug && takeLatest(store, slug) === slug;
      try {
        remove(docPath(store, slug));
        out.removed.push(slug);
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) continue; // removed meanwhile by another process
        if (pointed) {
          try {
            writeLatest(store, slug);
          } catch { /* cannot be put back: readers find no LATEST, never a wrong one */ }
        }
        out.notRemoved.push({ slug, reason: (err as Error).message });
      }
    }
    const latest = readLatest(store);
    const present = latest !== undefined && isSafeSlug(latest) && exists(docPath(store, latest));
    if (latest !== undefined && planRepair(latest, present) === "clear") takeLatest(store, latest);
    else out.latest = latest;
    return out;
  });
}

/**
 * The slug `recall` without a name consumes: LATEST's, else one recovered from an older hook's
 * claim ({@link recoverLegacyClaims}); undefined when there is none.
 */
export async function pendingSlug(
  store: Store,
): Promise<{ slug: string; via: "latest" | "claim" } | undefined> {
  const latest = readLatest(store);
  if (latest !== undefined) return { slug: latest, via: "latest" };
  const slug = await underLock(store, () => readLatest(store));
  return slug === undefined ? undefined : { slug, via: "claim" };
}

// ---------------------------------------------------------------------------------------------
// The lock, and what runs under it first.

/**
 * Runs `fn` holding the docs lock, after {@link recoverLegacyClaims}: every asynchronous applier
 * of this module (dump, draft, recall, list) goes through here, so the recovery runs in this one
 * place. A dump's pointer supersedes what a claim held (`writer: "dump"`: claims only removed).
 */
export async function underLock<T>(
  store: Store,
  fn: () => Promise<T> | T,
  writer?: Writer,
): Promise<T> {
  return await withDocsLock(store, () => {
    recoverLegacyClaims(store, Date.now(), writer !== "dump");
    return fn();
  });
}

// ---------------------------------------------------------------------------------------------
// The pointer's writes: private to this module.

function writeLatest(store: Store, slug: string): void {
  writeFileAtomicSync(store.latest, slug + "\n");
}

/** Clears LATEST when it names `expected`; returns the slug it named. Hold the docs lock. */
function takeLatest(store: Store, expected: string): string | undefined {
  if (readLatest(store) !== expected) return undefined;
  try {
    Deno.removeSync(store.latest);
  } catch {
    return undefined;
  }
  return expected;
}

/**
 * Takes LATEST away after the consume: renamed to `marker` when given, else — or when that fails
 * — removed. A missing marker costs the compaction card its handover, never the restore.
 */
function takeLatestAs(latest: string, marker: string | undefined): void {
  try {
    if (marker !== undefined) return Deno.renameSync(latest, marker);
  } catch { /* removed below */ }
  removeQuietly(latest);
}

// ---------------------------------------------------------------------------------------------
// Legacy recovery.

/** Prefix of the claims an older hook renamed LATEST to while consuming it. */
export const CLAIM_PREFIX = `${TEMP_PREFIX}LATEST.claim.`;

/** A claim younger than this may belong to a hook still running: it is left alone. */
export const CLAIM_STALE_MS = 10_000;

/**
 * Legacy recovery: the pointer from claims a killed hook of an older version left behind (it
 * renamed LATEST to a claim, then died). When LATEST is missing and a claim names a document still
 * unconsumed, that claim becomes LATEST again (the newest such); a claim whose document was
 * consumed or is gone is only removed, so a consumed pointer never comes back. With `restore`
 * false (a dump, whose pointer supersedes them) every stale claim is only removed. Returns the
 * slug put back, if any. Hold the docs lock.
 *
 * When it can go: no current writer creates a claim (the hook consumes under the docs lock), so
 * once no store can still hold one — every supported upgrade path has run a `list`, `recall` or
 * `dump` since — this function, {@link CLAIM_PREFIX} and its call in {@link underLock} are
 * removed together (docs/DECISIONS.md, "Legacy claims").
 */
export function recoverLegacyClaims(
  store: Store,
  nowMs = Date.now(),
  restore = true,
): string | undefined {
  const claims: { path: string; mtime: number }[] = [];
  try {
    for (const e of Deno.readDirSync(store.dir)) {
      if (!e.isFile || !e.name.startsWith(CLAIM_PREFIX)) continue;
      const path = join(store.dir, e.name);
      const mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
      if (nowMs - mtime >= CLAIM_STALE_MS) claims.push({ path, mtime });
    }
  } catch {
    return undefined;
  }
  let restored: string | undefined;
  for (const c of claims.sort((a, b) => b.mtime - a.mtime)) {
    const slug = readUtf8(c.path)?.split("\n", 1)[0].trim() ?? "";
    const doc = isSafeSlug(slug) ? readDoc(store, slug) : undefined;
    if (
      restore && restored === undefined && doc !== undefined &&
      splitFrontMatter(doc)?.fields.consumed === "false" && !exists(store.latest)
    ) {
      try {
        Deno.linkSync(c.path, store.latest); // a link never overwrites a pointer written meanwhile
        restored = slug;
      } catch { /* a newer LATEST exists: it wins */ }
    }
    removeQuietly(c.path);
  }
  return restored;
}
