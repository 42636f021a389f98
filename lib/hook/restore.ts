/**
 * The SessionStart restore: decide whether to inject, redact what it will print, build the
 * context, claim the pointer exactly once and mark the document consumed. Light: it runs on every
 * `/clear` the fast path hands over; the redaction rules load only for a text that may hold a
 * secret (lib/secrets/lazy.ts), and only the consume writes, synchronously under the docs lock.
 * @module
 */

import { utf8Length, writeFileAtomicSync } from "../fs/atomic.ts";
import { acquireLockSync, docsLockTarget, type Lock } from "../fs/lock.ts";
import { cliCommand } from "../agents/command.ts";
import { markConsumed, splitFrontMatter } from "../store/front_matter.ts";
import { buildDigest, capLines } from "../handover/document.ts";
import {
  docPath,
  findRoot,
  isSafeSlug,
  readDoc,
  type Store,
  storeAt,
  storeOutside,
} from "../store/store.ts";
import { buildNotice, noticeBanner, summarizeDraft } from "../continuity/notice.ts";
import { readLatest } from "../store/latest.ts";
import { ageMs, formatAge } from "../store/time.ts";
import { redactionNoteLazily, redactLazily } from "../secrets/lazy.ts";
import {
  bannerLine,
  type Budget,
  frameCost,
  framed,
  gate,
  inWindow,
  longestBacktickRun,
  MAX_BODY_RUN,
  type Payload,
  restoredMarker,
  type RestoreOptions,
  takeLatestAs,
} from "./fast.ts";

// The hook's input (payload, flags, budgets, gates) lives in lib/hook/fast.ts, with the fast path
// that settles the common `/clear` without loading this module; re-exported for its callers.
export {
  type Agent,
  type Budget,
  BUDGETS,
  DEFAULT_OPTIONS,
  gate,
  hookOutput,
  parseHookArgs,
  parsePayload,
  type Payload,
  type RestoreOptions,
} from "./fast.ts";

/**
 * Why the hook stayed silent, or that it injected: for stderr diagnostics and tests. `slug` is the
 * slug as printed ({@link Pending} `label`); `redacted` the note of what was redacted, if anything.
 */
export type Outcome =
  | { injected: true; slug: string; context: string; redacted?: string; handover?: boolean }
  | { injected: false; reason: string };

/** The context the agent receives: a one-line banner, then the body or its digest, fenced. */
export function buildContext(
  doc: { slug: string; created?: string; branch?: string; body: string },
  now: Date,
  budget: Budget,
): string {
  const recall = cliCommand("recall", doc.slug);
  const ms = ageMs(doc.created, now);
  // A `created` slightly ahead of this clock passed the window's skew: it was dumped just now.
  const age = formatAge(ms === undefined ? undefined : Math.max(0, ms));
  const banner = bannerLine(doc.slug, age, doc.branch, recall);
  return fitFramed(banner, shortenRuns(doc.body.replace(/\r\n?/g, "\n").trim()), recall, budget);
}

/**
 * `banner` and `body` framed within `budget`: the body whole, or its digest when it is over
 * `digestOver` or the room, then capped; with a byte cap (Codex), digested smaller until it fits.
 */
export function fitFramed(banner: string, body: string, recall: string, budget: Budget): string {
  // Digest and cap only shorten lines and add single backticks: the body's fence is the widest.
  const room = budget.limit - frameCost(banner, longestBacktickRun(body));
  return withinBytes(room, budget, (room, again) => {
    const text = again || body.length > budget.digestOver ? buildDigest(body, recall, room) : body;
    return framed(banner, capLines(text, room));
  });
}

/**
 * `build(room)`, then — with a byte cap (Codex) — built again with the room shrunk by the
 * overshoot's ratio (`again` set) until it fits, at most 8 times.
 */
export function withinBytes(
  room: number,
  budget: Budget,
  build: (room: number, again: boolean) => string,
): string {
  let context = build(room, false);
  for (let i = 0; budget.maxBytes !== undefined && i < 8; i++) {
    const bytes = utf8Length(context);
    if (bytes <= budget.maxBytes) break;
    // From the context's own length, not the room: a text far under the room (emoji: 4 bytes per
    // 2 UTF-16 units) would otherwise shrink by a few percent a round and never fit.
    room = Math.max(0, Math.floor((Math.min(room, context.length) * budget.maxBytes) / bytes) - 64);
    context = build(room, true);
  }
  return context;
}

/** Backtick runs longer than {@link MAX_BODY_RUN} cut to it (a hostile body cannot widen the fence). */
export function shortenRuns(text: string): string {
  return longestBacktickRun(text) > MAX_BODY_RUN
    ? text.replace(new RegExp(`\`{${MAX_BODY_RUN + 1},}`, "g"), "`".repeat(MAX_BODY_RUN))
    : text;
}

/** The short notice of an automatic draft (lib/continuity/notice.ts). */
export function draftNotice(
  doc: { slug: string; created?: string; branch?: string; body: string },
  now: Date,
): string {
  const ms = ageMs(doc.created, now);
  const age = formatAge(ms === undefined ? undefined : Math.max(0, ms));
  const banner = noticeBanner(doc.slug, age, doc.branch, cliCommand("recall", doc.slug));
  return buildNotice(summarizeDraft(doc.body), banner);
}

/**
 * A handover that passed every gate and may be injected now; nothing is claimed yet. What the hook
 * may print of it — `label`, `branch`, `body` — is redacted (lib/secrets/); `slug` and `text` are
 * the store's, as stored: the consume flips `consumed` in those bytes and nothing else.
 */
export interface Pending {
  store: Store;
  slug: string;
  /** The slug as printed: `slug` redacted (itself unless it holds a secret). */
  label: string;
  /** The document's full text, as stored. */
  text: string;
  created?: string;
  /** The branch field, redacted. */
  branch?: string;
  /** The body without front matter, redacted. */
  body: string;
  /** What the redaction took out ({@link redactionNoteLazily}); "" when nothing. */
  redacted: string;
  /** An automatic draft (`draft: auto`): announced by the short notice, not injected whole. */
  draft?: boolean;
}

/** What the hook knows of its environment: CLAUDE_PROJECT_DIR. */
export interface HookEnv {
  projectDir?: string;
}

/**
 * Every gate of the restore, claiming nothing: the pending handover, or why there is none. The one
 * place the general path reads a document to print it, so where it redacts: before any digest,
 * cap or notice is computed, so their budgets hold on the redacted text. A document written
 * before redaction existed, pulled, or edited by hand reaches the model with `[redacted:<kind>]`
 * where a secret was; the store keeps the bytes as they are (only `consumed` is flipped).
 */
export async function findPending(
  payload: Payload,
  options: RestoreOptions,
  env: HookEnv,
  now: Date,
): Promise<Pending | { reason: string }> {
  const closed = gate(payload, options);
  if (closed) return { reason: closed };
  const store = storeAt(findRoot({ projectDir: env.projectDir, cwd: payload.cwd }));
  // Deno's --allow-read/--allow-write check paths as given, so a store symlinked out of the
  // project would let the hook read and write outside it: refuse before touching anything.
  if (storeOutside(store) !== undefined) return { reason: "the store leads outside the project" };
  // A store the root rule found outside this hook's grant (a nested store below an installed
  // project) would fail at the claim as if another hook had it: say what is wrong instead.
  for (const name of ["read", "write"] as const) {
    if (Deno.permissions.querySync({ name, path: store.dir }).state !== "granted") {
      return {
        reason: `this hook may not ${name} the store ${store.dir}: ` +
          `run session.ts install --dir ${store.root}`,
      };
    }
  }
  const slug = readLatest(store);
  if (slug === undefined) return { reason: "no LATEST pointer" };
  if (!isSafeSlug(slug)) return { reason: "LATEST names an unsafe slug" };
  const text = readDoc(store, slug);
  if (text === undefined || text.includes("\0")) {
    return { reason: `document "${slug}" is missing or unreadable` };
  }
  const split = splitFrontMatter(text);
  if (!split) return { reason: `document "${slug}" has no front matter` };
  if (split.fields.consumed !== "false") {
    return { reason: `document "${slug}" is already consumed` };
  }
  if (!inWindow(ageMs(split.fields.created, now) ?? NaN, options.windowMs)) {
    return { reason: `document "${slug}" is outside the restore window` };
  }
  const { created, branch } = split.fields;
  const draft = split.fields.draft !== undefined;
  // The notice switched off: nothing injected and nothing claimed, so recall and list still see
  // the draft as the pending one.
  if (draft && options.noNotice) return { reason: `document "${slug}" is a draft; --no-notice` };
  const body = await redactLazily(split.body);
  const field = branch === undefined ? undefined : await redactLazily(branch);
  const label = await redactLazily(slug);
  const redacted = await redactionNoteLazily(body.counts, field?.counts ?? {}, label.counts);
  return {
    store,
    slug,
    label: label.text,
    text,
    created,
    branch: field?.text,
    body: body.text,
    redacted,
    draft,
  };
}

/** How long the hook waits for the store's docs lock (a dump or recall holds it for milliseconds). */
export const HOOK_LOCK_WAIT_MS = 2_000;

/**
 * Runs the restore for one payload against the store of its project: every gate, then
 * {@link consumePending}. Never throws for bad data; a failed write throws with the store as it was.
 */
export async function restore(
  payload: Payload,
  options: RestoreOptions,
  env: HookEnv,
  now: Date,
): Promise<Outcome> {
  const found = await findPending(payload, options, env, now);
  if ("reason" in found) return { injected: false, reason: found.reason };
  return consumePending(found, now, options.budget, payload.session_id);
}

/**
 * Consumes a pending handover exactly once, holding the store's docs lock (every writer of a
 * document or LATEST holds it): LATEST and the document must still be what the gates read — a
 * dump that replaced either meanwhile is newer, and is left as it is, unconsumed — then the
 * byte-exact flip of `consumed` (atomic) and only then LATEST cleared. So a failed write (a full
 * disk) leaves the store as it was, and two hooks firing together inject once.
 */
export function consumePending(
  found: Pending,
  now: Date,
  budget: Budget,
  sessionId?: string,
): Outcome {
  const { store, slug, text } = found;
  let lock: Lock;
  try {
    lock = acquireLockSync(docsLockTarget(store.dir), { waitMs: HOOK_LOCK_WAIT_MS });
  } catch (err) {
    return { injected: false, reason: `the store's lock: ${(err as Error).message}` };
  }
  try {
    if (readLatest(store) !== slug || readDoc(store, slug) !== text) {
      return { injected: false, reason: "the store changed meanwhile" };
    }
    const consumed = markConsumed(text);
    if (consumed === undefined) {
      return {
        injected: false,
        reason: `document "${slug}": its consumed field cannot be flipped`,
      };
    }
    writeFileAtomicSync(docPath(store, slug), consumed);
    // LATEST becomes the session's `.restored-<id>` marker, as on the fast path (a draft's notice
    // is no handover the session started from: its LATEST is removed).
    takeLatestAs(store.latest, found.draft ? undefined : restoredMarker(store.dir, sessionId));
    // The banner names the slug as printed; the recall command too (it only differs, and then
    // does not work, for a slug that holds a secret).
    const shown = { ...found, slug: found.label };
    const context = found.draft ? draftNotice(shown, now) : buildContext(shown, now, budget);
    return {
      injected: true,
      slug: found.label,
      context,
      redacted: found.redacted || undefined,
      handover: !found.draft,
    };
  } finally {
    lock.release();
  }
}
