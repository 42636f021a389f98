/**
 * UserPromptSubmit ({@link answerPrompt}): when the context has filled past a threshold (70 % and
 * 85 % unless `install --nudge A,B`), one `[session]` line asks the agent to offer a dump before
 * auto-compaction, once per threshold per session. The fill is the statusline's exact figure when
 * `session.ts statusline` has recorded one for this session, else the newest usage record in the
 * transcript's tail (a bounded read: the prompt's cost must not grow with the transcript). It runs
 * on every prompt, so it loads the store's read side and the tail reader only; the frame and the
 * writer come when it speaks. Anything unknown: nothing.
 * @module
 */

import { readTail } from "../transcript/tail.ts";
import { findRoot, storeAt, storeOutside } from "../store/store.ts";
import { safeSessionId } from "../store/front_matter.ts";
import type { Payload, RestoreOptions } from "../hook/input.ts";
import type { HookEnv } from "../hook/restore.ts";
import { crossed, type Fill, fillFromTail, NUDGE_THRESHOLDS, nudgeText } from "./fill.ts";
import type * as Banner from "../frame/banner.ts";
import type * as Output from "../hook/output.ts";
import { mark, readMarked, readStatusFill } from "./state.ts";

/** How much of the transcript's end is read for the newest usage record. */
export const PRESSURE_TAIL_BYTES = 256 * 1024;

/** What the hook prints (nothing when `stdout` is undefined) and why. */
export interface PromptAnswer {
  stdout?: string;
  reason: string;
}

/** The fill from the transcript's tail, or why there is none. */
export function transcriptFill(path: string | undefined): Fill | { reason: string } {
  if (!path) return { reason: "no transcript path" };
  let tail;
  try {
    tail = readTail(path, PRESSURE_TAIL_BYTES);
  } catch (err) {
    return { reason: `transcript not read: ${err instanceof Error ? err.message : err}` };
  }
  return fillFromTail(tail.text ?? "", tail.from) ??
    { reason: "no usage record in the transcript's tail" };
}

/** UserPromptSubmit: the nudge when a threshold is newly crossed, else nothing. */
export async function answerPrompt(
  payload: Payload,
  options: RestoreOptions,
  env: HookEnv,
  now: Date,
): Promise<PromptAnswer> {
  if (payload.hook_event_name !== "UserPromptSubmit") return { reason: "not a prompt" };
  const thresholds = options.nudge ?? NUDGE_THRESHOLDS;
  if (!thresholds.length) return { reason: "the nudge is off" };
  const session = payload.session_id;
  if (!safeSessionId(session)) return { reason: "no usable session id" };
  const store = storeAt(findRoot({ projectDir: env.projectDir, cwd: payload.cwd }));
  if (storeOutside(store) !== undefined) return { reason: "the store leads outside the project" };
  const fill = readStatusFill(store, session) ?? transcriptFill(payload.transcript_path);
  if ("reason" in fill) return fill;
  const due = crossed(fill, thresholds, readMarked(store, session));
  if (!due.length) {
    return { reason: `no new threshold (${fill.source}: ${fill.used}/${fill.size})` };
  }
  if (!mark(store, session, due, now)) return { reason: "the mark could not be written" };
  const load = (path: string) => import(import.meta.resolve(path));
  const { sessionLine }: typeof Banner = await load("../frame/banner.ts");
  const { hookOutput }: typeof Output = await load("../hook/output.ts");
  return {
    stdout: hookOutput(sessionLine(nudgeText(fill, options.agent)), "UserPromptSubmit"),
    reason: `nudged at ${due.join(" and ")} % (${fill.source}: ${fill.used}/${fill.size})`,
  };
}
