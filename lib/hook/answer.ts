/**
 * The hook's answer to one payload, per agent: what it injects, on which event, in which JSON.
 *
 * Claude Code and Codex CLI read `additionalContext` from a `SessionStart` hook after `/clear`.
 * Gemini CLI (0.61) fires `SessionStart` with `source: "clear"` but shows only its
 * `systemMessage` to the user and drops `additionalContext` (it honours it at startup and
 * resume only). So for Gemini the restore is deferred: `SessionStart`/clear arms the store for
 * that session id (one arm per session: lib/store/store.ts `armPath`), and the next `BeforeAgent`
 * of the same session (the user's first message
 * after `/clear`) claims the arm and injects the handover there, which Gemini appends to that
 * message. Everything else (gates, exactly-once claim, consumed flip) is the common restore.
 * @module
 */

import { setFault, TEMP_PREFIX, writeFileAtomicSync } from "../fs/atomic.ts";
import { findPending, type HookEnv, restore } from "./restore.ts";
import type { Outcome } from "./pending.ts";
import type * as Output from "./output.ts";
import type { Payload, RestoreOptions } from "./input.ts";
import { armPath, findStore, type Store, storeOutside } from "../store/store.ts";
import { readLatest } from "../store/latest.ts";
import { join, removeQuietly } from "../fs/path.ts";

/** What the hook prints (nothing when `stdout` is undefined) and why, for diagnostics. */
export interface HookAnswer {
  stdout?: string;
  reason: string;
}

/** What an arm holds: the session that may claim it, and the handover it announced. */
export interface Arm {
  session: string;
  /** The slug announced on `/clear` ("" in an arm written by an earlier version). */
  slug: string;
}

/**
 * Takes `session`'s arm away atomically (rename to a private claim): of two hooks racing, one gets
 * it; another session's arm is never touched. Returns what it holds (blank fields when
 * unreadable), or undefined when this session is unarmed.
 */
export function takeArm(store: Store, session: string | undefined): Arm | undefined {
  const claim = join(store.dir, `${TEMP_PREFIX}armed.claim.${Deno.pid}.${crypto.randomUUID()}`);
  try {
    Deno.renameSync(armPath(store, session), claim);
  } catch {
    return undefined;
  }
  let lines: string[] = [];
  try {
    lines = Deno.readTextFileSync(claim).split("\n");
  } catch { /* unreadable: treated as blank */ }
  removeQuietly(claim);
  return { session: (lines[0] ?? "").trim(), slug: (lines[1] ?? "").trim() };
}

/**
 * What the hook answers for an outcome of the restore, on `event`; `titled`: a restored handover
 * names the session (Claude Code's `sessionTitle`); in the shape `agent` reads. The JSON
 * (lib/hook/output.ts) is loaded only for an injection.
 */
async function answerOf(
  outcome: Outcome,
  event?: string,
  titled = false,
  agent?: string,
): Promise<HookAnswer> {
  if (!outcome.injected) return { reason: outcome.reason };
  const { hookOutput }: typeof Output = await import(import.meta.resolve("./output.ts"));
  // Under SESSION_DEBUG the reason goes to stderr: what was redacted, by kind, never a value.
  const note = outcome.redacted ? ` (${outcome.redacted})` : "";
  return {
    stdout: hookOutput(
      outcome.context,
      event,
      titled && outcome.handover ? outcome.slug : undefined,
      agent,
    ),
    reason: `injected "${outcome.slug}"${note}`,
  };
}

/** Answers one payload for the agent named in `options` (see the module note for Gemini). */
export async function answer(
  payload: Payload,
  options: RestoreOptions,
  env: HookEnv,
  now: Date,
): Promise<HookAnswer> {
  setFault(options.fault);
  if (options.agent !== "gemini") {
    return answerOf(
      await restore(payload, options, env, now),
      undefined,
      options.agent === "claude",
      options.agent,
    );
  }
  // Gemini sets CLAUDE_PROJECT_DIR to its own cwd "for compatibility"; its shell tool does not,
  // so honouring it would let the hook and the CLI disagree on the store. The walk-up rule wins.
  const geminiEnv = {};
  if (payload.hook_event_name === "BeforeAgent") return deliver(payload, options, now);
  if (payload.hook_event_name === "SessionStart" && payload.source === "clear") {
    const found = await findPending(payload, options, geminiEnv, now);
    if ("reason" in found) return { reason: found.reason };
    // The arm names the handover it announced: delivered only while LATEST still names it.
    writeFileAtomicSync(
      armPath(found.store, payload.session_id),
      `${payload.session_id ?? ""}\n${found.slug}\n`,
    );
    return {
      stdout: JSON.stringify({
        systemMessage: found.draft
          ? `[session] A notice of the automatic draft "${found.label}" will come with your next message.`
          : `[session] Handover "${found.label}" will be restored with your next message.`,
      }),
      reason: `armed "${found.label}" for session ${payload.session_id ?? "(none)"}`,
    };
  }
  return answerOf(await restore(payload, options, geminiEnv, now));
}

/** Gemini's BeforeAgent: inject the armed handover when this session armed it, once. */
async function deliver(payload: Payload, options: RestoreOptions, now: Date): Promise<HookAnswer> {
  const store = findStore({ cwd: payload.cwd });
  if (storeOutside(store) !== undefined) return { reason: "the store leads outside the project" };
  const armed = takeArm(store, payload.session_id);
  if (armed === undefined) return { reason: "not armed" };
  if (armed.session !== (payload.session_id ?? "")) return { reason: "armed by another session" };
  // The handover announced on `/clear` may have been restored by another agent's hook since, and
  // LATEST may name a newer dump meant for that agent: deliver only what was announced.
  if (armed.slug !== "" && readLatest(store) !== armed.slug) {
    return { reason: `the armed handover "${armed.slug}" was restored elsewhere` };
  }
  const outcome = await restore(
    { ...payload, hook_event_name: "SessionStart", source: "clear" },
    { ...options, sources: [...options.sources, "clear"] },
    {},
    now,
  );
  return answerOf(outcome, "BeforeAgent");
}
