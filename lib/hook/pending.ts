/**
 * What the restore does once a handover is pending, and only then (lib/hook/restore.ts loads it
 * when its gates found one): redact what the hook will print, build the context, claim LATEST
 * exactly once and mark the document consumed. Only the consume writes, under the docs lock.
 * @module
 */

import type { Store } from "../store/store.ts";
import { restoredMarker } from "../store/latest.ts";
import { consumeSync } from "../store/lifecycle.ts";
import { redactionNoteLazily, redactLazily } from "../secrets/lazy.ts";
import type { Budget } from "../frame/budget.ts";
import { wholeContext } from "../frame/fit.ts";
import { injectedBody, restoreBanner } from "./output.ts";
import type * as Built from "./context.ts";

/**
 * Why the hook stayed silent, or that it injected: for stderr diagnostics and tests. `slug` is the
 * slug as printed ({@link Pending} `label`); `redacted` the note of what was redacted, if anything.
 */
export type Outcome =
  | { injected: true; slug: string; context: string; redacted?: string; handover?: boolean }
  | { injected: false; reason: string };

/** A handover that passed every gate, as the store holds it: nothing redacted, nothing claimed. */
export interface Candidate {
  store: Store;
  slug: string;
  /** The document's full text, as stored. */
  text: string;
  created?: string;
  branch?: string;
  /** The body without front matter. */
  body: string;
  /** An automatic draft (`draft: auto`). */
  draft: boolean;
  /** Chosen because LATEST names it (else: the predecessor session's own handover). */
  viaLatest: boolean;
}

/**
 * A handover that passed every gate and may be injected now; nothing is claimed yet. What the hook
 * may print of it — `label`, `branch`, `body` — is redacted (lib/secrets/); `slug` and `text` are
 * the store's, as stored: the consume flips `consumed` in those bytes and nothing else.
 */
export interface Pending extends Candidate {
  /** The slug as printed: `slug` redacted (itself unless it holds a secret). */
  label: string;
  /** The branch field, redacted. */
  branch?: string;
  /** The body, redacted. */
  body: string;
  /** What the redaction took out ({@link redactionNoteLazily}); "" when nothing. */
  redacted: string;
}

/**
 * The one place the hook redacts a document it will print: before any digest, cap or notice is
 * computed, so their budgets hold on the redacted text. A document written before redaction
 * existed, pulled, or edited by hand reaches the model with `[redacted:<kind>]` where a secret
 * was; the store keeps the bytes as they are (only `consumed` is flipped).
 */
export async function redactPending(found: Candidate): Promise<Pending> {
  const body = await redactLazily(found.body);
  const field = found.branch === undefined ? undefined : await redactLazily(found.branch);
  const label = await redactLazily(found.slug);
  const redacted = await redactionNoteLazily(body.counts, field?.counts ?? {}, label.counts);
  return {
    ...found,
    label: label.text,
    branch: field?.text,
    body: body.text,
    redacted,
  };
}

/** How long the hook waits for the store's docs lock (a dump or recall holds it for milliseconds). */
export const HOOK_LOCK_WAIT_MS = 2_000;

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
 * Consumes a pending handover exactly once (lib/store/lifecycle.ts `consumeSync`, the consume
 * `recall` runs too): under the docs lock, LATEST and the document must still be what the gates
 * read — a dump that replaced either meanwhile is newer, and is left as it is, unconsumed — then
 * the byte-exact flip of `consumed` and only then LATEST cleared. So a failed write (a full disk)
 * throws with the store as it was, and two hooks firing together inject once. The context is
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
  // The session's `.restored-<id>` marker records the handover it started from (a draft's notice
  // is none).
  const marker = found.draft ? undefined : restoredMarker(store.dir, sessionId);
  const status = consumeSync(
    store,
    { slug, text, viaLatest: found.viaLatest, shown: false, marker },
    HOOK_LOCK_WAIT_MS,
  );
  if (typeof status === "object") {
    return { injected: false, reason: `the store's lock: ${status.lock}` };
  }
  if (status === "replaced") return { injected: false, reason: "the store changed meanwhile" };
  if (status === "before" || status === "unmarked") {
    return { injected: false, reason: `document "${slug}": its consumed field cannot be flipped` };
  }
  return {
    injected: true,
    slug: found.label,
    context,
    redacted: found.redacted || undefined,
    handover: !found.draft,
  };
}
