/**
 * The SessionStart restore: decide whether to inject, redact what it will print, build the
 * context, claim the pointer exactly once and mark the document consumed. It runs on every
 * `/clear`, so what is rare is loaded only when needed: the redaction rules only for a text that
 * may hold a secret (lib/secrets/lazy.ts). Only the consume writes, under the docs lock.
 * @module
 */

import { writeFileAtomicSync } from "../fs/atomic.ts";
import { acquireLockSync, docsLockTarget, type Lock } from "../fs/lock.ts";
import { markConsumed, splitFrontMatter } from "../store/front_matter.ts";
import {
  docPath,
  findRoot,
  isSafeSlug,
  readDoc,
  type Store,
  storeAt,
  storeOutside,
} from "../store/store.ts";
import { readLatest, restoredMarker, takeLatestAs } from "../store/latest.ts";
import { sessionDocs, takeClearing } from "../store/sessions.ts";
import { ageMs, inWindow } from "../store/time.ts";
import { redactionNoteLazily, redactLazily } from "../secrets/lazy.ts";
import { injectedBody, restoreBanner, wholeContext } from "./frame.ts";
import type * as Built from "./context.ts";
import { type Budget, gate, type Payload, type RestoreOptions } from "./input.ts";

/**
 * Why the hook stayed silent, or that it injected: for stderr diagnostics and tests. `slug` is the
 * slug as printed ({@link Pending} `label`); `redacted` the note of what was redacted, if anything.
 */
export type Outcome =
  | { injected: true; slug: string; context: string; redacted?: string; handover?: boolean }
  | { injected: false; reason: string };

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
  /** Chosen because LATEST names it (else: the predecessor session's own handover). */
  viaLatest: boolean;
}

/** What the hook knows of its environment: CLAUDE_PROJECT_DIR. */
export interface HookEnv {
  projectDir?: string;
}

/**
 * Every gate of the restore, claiming nothing: the pending handover, or why there is none. The one
 * place the hook reads a document to print it, so where it redacts: before any digest,
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
  // The session this one succeeds, when the agent's `/clear` said (SessionEnd's clearing mark);
  // Gemini registers no SessionEnd, and a compaction or a startup succeeds no session.
  const clearing = options.agent !== "gemini" &&
    (payload.source === undefined || payload.source === "clear");
  const choice = choose(store, clearing ? takeClearing(store, now) : undefined, now, options);
  if ("reason" in choice) return choice;
  const { slug, viaLatest } = choice;
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
    viaLatest,
    draft,
  };
}

/**
 * Which handover the starting session may restore. With no `predecessor` known (no SessionEnd
 * registered, or not a `/clear`): the one LATEST names. With one: that session's newest
 * unconsumed handover within the window, wherever LATEST points; else LATEST's, unless another
 * known session wrote it — that one waits for its own session's successor.
 */
function choose(
  store: Store,
  predecessor: string | undefined,
  now: Date,
  options: RestoreOptions,
): { slug: string; viaLatest: boolean } | { reason: string } {
  const latest = readLatest(store);
  if (predecessor !== undefined) {
    const own = sessionDocs(store.dir, predecessor).find((d) =>
      d.fields.consumed === "false" && inWindow(now.getTime() - d.created, options.windowMs)
    );
    if (own !== undefined) return { slug: own.slug, viaLatest: own.slug === latest };
  }
  if (latest === undefined) return { reason: "no LATEST pointer" };
  const text = predecessor === undefined || !isSafeSlug(latest)
    ? undefined
    : readDoc(store, latest);
  const writer = text === undefined ? undefined : splitFrontMatter(text)?.fields.session;
  if (writer !== undefined && writer !== predecessor) {
    return {
      reason: `LATEST names "${latest}", session ${writer}'s handover: it waits for that ` +
        `session's successor (this one succeeds ${predecessor})`,
    };
  }
  return { slug: latest, viaLatest: true };
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
  return await consumePending(found, now, options.budget, payload.session_id);
}

/**
 * What the agent is given for a pending handover: the body whole when it fits the budget, else
 * its digest; a draft's short notice. The digest and the notice (lib/hook/context.ts) are loaded
 * only when needed. The banner names the slug as printed; the recall command too (it only
 * differs, and then does not work, for a slug that holds a secret).
 */
export async function contextFor(found: Pending, now: Date, budget: Budget): Promise<string> {
  const shown = { ...found, slug: found.label };
  if (!found.draft) {
    const whole = wholeContext(restoreBanner(shown, now).banner, injectedBody(found.body), budget);
    if (whole !== undefined) return whole;
  }
  const built: typeof Built = await import(import.meta.resolve("./context.ts"));
  return found.draft ? built.draftNotice(shown, now) : built.buildContext(shown, now, budget);
}

/**
 * Consumes a pending handover exactly once, holding the store's docs lock (every writer of a
 * document or LATEST holds it): LATEST and the document must still be what the gates read — a
 * dump that replaced either meanwhile is newer, and is left as it is, unconsumed — then the
 * byte-exact flip of `consumed` (atomic) and only then LATEST cleared. So a failed write (a full
 * disk) leaves the store as it was, and two hooks firing together inject once. The context is
 * built before anything is claimed.
 */
export async function consumePending(
  found: Pending,
  now: Date,
  budget: Budget,
  sessionId?: string,
): Promise<Outcome> {
  const { store, slug, text } = found;
  const context = await contextFor(found, now, budget);
  let lock: Lock;
  try {
    lock = acquireLockSync(docsLockTarget(store.dir), { waitMs: HOOK_LOCK_WAIT_MS });
  } catch (err) {
    return { injected: false, reason: `the store's lock: ${(err as Error).message}` };
  }
  try {
    const latest = readLatest(store);
    if ((found.viaLatest && latest !== slug) || readDoc(store, slug) !== text) {
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
    // The session's `.restored-<id>` marker records the handover it started from (a draft's
    // notice is none): LATEST becomes it when LATEST names this one, else it is written.
    const marker = found.draft ? undefined : restoredMarker(store.dir, sessionId);
    if (latest === slug) takeLatestAs(store.latest, marker);
    else if (marker !== undefined) writeFileAtomicSync(marker, `${slug}\n`);
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
