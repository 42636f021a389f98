/**
 * PreCompact ({@link answerPreCompact}): saves the continuity card's material for this session to
 * the hidden `.compact-<session id>.md` (atomic), so it survives even if the session dies right
 * after; SessionStart after the compaction claims it (lib/continuity/compact.ts). Prints nothing.
 * session_restore.ts loads this file only for this event.
 * @module
 */

import { isDir } from "../fs/path.ts";
import type { Payload, RestoreOptions } from "../hook/input.ts";
import { safeSessionId } from "../store/front_matter.ts";
import type { HookEnv } from "../hook/restore.ts";
import { findStore, type Store, storeOutside } from "../store/store.ts";
import { gatherMaterial, isEmpty, saveMaterial, sweepMarkers } from "./material.ts";

/** What a compaction hook prints (nothing when `stdout` is undefined) and why. */
export interface CompactAnswer {
  stdout?: string;
  reason: string;
}

/** The project's store when this hook may use it: found, inside the project, existing, writable. */
export function usableStore(payload: Payload, env: HookEnv): Store | { reason: string } {
  const store = findStore({ projectDir: env.projectDir, cwd: payload.cwd });
  if (storeOutside(store) !== undefined) return { reason: "the store leads outside the project" };
  if (!isDir(store.dir)) return { reason: "no store in this project" };
  if (Deno.permissions.querySync({ name: "write", path: store.dir }).state !== "granted") {
    return { reason: `this hook may not write the store ${store.dir}` };
  }
  return store;
}

/** PreCompact: save the card's material for this session. Prints nothing. */
export async function answerPreCompact(
  payload: Payload,
  _options: RestoreOptions,
  env: HookEnv,
  now: Date,
): Promise<CompactAnswer> {
  if (payload.hook_event_name !== "PreCompact") return { reason: "not a PreCompact event" };
  if (!safeSessionId(payload.session_id)) return { reason: "no usable session id" };
  const store = usableStore(payload, env);
  if ("reason" in store) return store;
  sweepMarkers(store, now);
  const material = await gatherMaterial(store, payload.session_id, payload.transcript_path);
  if (isEmpty(material)) return { reason: "nothing for the card" };
  saveMaterial(store, payload.session_id, material);
  return { reason: `saved the card's material (${material.sections.length} sections)` };
}
