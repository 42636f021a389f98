/**
 * SessionStart with `source: "compact"` ({@link answerCompact}): claims the card's material that
 * PreCompact saved (lib/continuity/pre_compact.ts) once — rename under the docs lock — or, when
 * PreCompact did not run, gathers it afresh from the store and the transcript, and injects the card.
 *
 * The card is injected on every compaction whatever `--source` says: it is this session's own
 * state, not LATEST's handover. LATEST is restored on compaction only with `--source compact`
 * (as before), its context then followed by the card when both fit the budget.
 * @module
 */

import { acquireLockSync, docsLockTarget, type Lock } from "../fs/lock.ts";
import { TEMP_PREFIX } from "../fs/atomic.ts";
import { exists, join, removeQuietly } from "../fs/path.ts";
import { cliCommand } from "../agents/command.ts";
import { gate, type Payload, type RestoreOptions } from "../hook/input.ts";
import { bannerAgo } from "../frame/banner.ts";
import { hookOutput } from "../hook/output.ts";
import { safeSessionId } from "../store/front_matter.ts";
import { type HookEnv, restore } from "../hook/restore.ts";
import { HOOK_LOCK_WAIT_MS } from "../hook/pending.ts";
import type { Store } from "../store/store.ts";
import { buildCard } from "./card.ts";
import {
  compactPath,
  gatherMaterial,
  isEmpty,
  type Material,
  parseMaterial,
  redactMaterial,
} from "./material.ts";
import { type CompactAnswer, usableStore } from "./pre_compact.ts";

/**
 * Takes the saved material away once: renamed to a private claim under the docs lock (of two
 * hooks racing, one gets it), read, removed. Undefined when there is none (or it is not ours).
 */
export function claimMaterial(store: Store, sessionId: string): Material | undefined {
  const path = compactPath(store, sessionId);
  if (!path) return undefined;
  const claim = join(store.dir, `${TEMP_PREFIX}compact.claim.${Deno.pid}.${crypto.randomUUID()}`);
  let lock: Lock | undefined;
  try {
    lock = acquireLockSync(docsLockTarget(store.dir), { waitMs: HOOK_LOCK_WAIT_MS });
  } catch { /* no lock to be had: the rename alone still hands the file to one hook */ }
  try {
    Deno.renameSync(path, claim);
  } catch {
    return undefined;
  } finally {
    lock?.release();
  }
  try {
    return parseMaterial(Deno.readTextFileSync(claim));
  } catch {
    return undefined;
  } finally {
    removeQuietly(claim);
  }
}

/** The card for this material: ages and the recall command filled in. */
export function cardFor(material: Material, now: Date, options: RestoreOptions): string {
  const h = material.handover;
  return buildCard(
    material,
    bannerAgo(h?.created, now),
    h && cliCommand("recall", h.slug),
    options.budget,
  );
}

/** SessionStart `source: "compact"`: the card, once per compaction (see the module note). */
export async function answerCompact(
  payload: Payload,
  options: RestoreOptions,
  env: HookEnv,
  now: Date,
): Promise<CompactAnswer> {
  if (payload.hook_event_name !== "SessionStart" || payload.source !== "compact") {
    return { reason: "not a compaction's SessionStart" };
  }
  let restored: string | undefined;
  // Why LATEST was not restored: today's gate unless `--source compact` opted in.
  let latest = gate(payload, options);
  if (latest === undefined) {
    const outcome = await restore(payload, options, env, now);
    if (outcome.injected) restored = outcome.context;
    else latest = outcome.reason;
  }
  const store = usableStore(payload, env);
  const sid = payload.session_id;
  let material: Material | undefined;
  if (!("reason" in store) && safeSessionId(sid)) {
    // Redacted here, whatever its source: a saved file of an older version or edited by hand
    // quotes the handover as stored (gatherMaterial redacts what it gathers already).
    const found = claimMaterial(store, sid) ??
      await gatherMaterial(store, sid, payload.transcript_path);
    material = found && await redactMaterial(found);
  }
  const card = material && !isEmpty(material) ? cardFor(material, now, options) : undefined;
  const context = [restored, card].filter((c): c is string => c !== undefined);
  if (context.length === 2 && !fits(context.join("\n\n"), options)) context.pop();
  if (!context.length) {
    // A card with nothing to say leaves LATEST's reason, as before compaction had a card.
    if ("reason" in store) return { reason: store.reason };
    return { reason: material ? latest ?? "nothing for the card" : "no usable session id" };
  }
  return {
    stdout: hookOutput(context.join("\n\n"), undefined, undefined, options.agent),
    reason: card && context.length === 2
      ? "injected the handover and the card"
      : card && !restored
      ? "injected the card"
      : "injected the handover",
  };
}

/**
 * UserPromptSubmit of an agent that runs no SessionStart after a compaction (lib/hook/input.ts
 * `cardOnPrompt`: GitHub Copilot CLI): the card, with the first prompt after this session's
 * PreCompact saved its material; nothing on any other prompt.
 */
export async function answerPromptCard(
  payload: Payload,
  options: RestoreOptions,
  env: HookEnv,
  now: Date,
): Promise<CompactAnswer> {
  if (payload.hook_event_name !== "UserPromptSubmit") return { reason: "not a prompt" };
  const store = usableStore(payload, env);
  if ("reason" in store) return store;
  const saved = compactPath(store, payload.session_id);
  if (saved === undefined || !exists(saved)) return { reason: "no compaction to carry" };
  return await answerCompact(
    { ...payload, hook_event_name: "SessionStart", source: "compact" },
    options,
    env,
    now,
  );
}

/** Whether a context fits the agent's budget (characters, and bytes where it has a byte cap). */
function fits(context: string, options: RestoreOptions): boolean {
  return context.length <= options.budget.limit &&
    (options.budget.maxBytes === undefined ||
      new TextEncoder().encode(context).length <= options.budget.maxBytes);
}
