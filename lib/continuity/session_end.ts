/**
 * The SessionEnd hook's answer (every reason: `/clear`, exit, logout, other): nothing is lost
 * when a session ends.
 *
 * - The session dumped (a document whose front matter says `session: <this id>`) and stopped:
 *   nothing to do. Cheap — a listing, a few front matters, the transcript's tail — because it is
 *   the common case and runs before every `/clear`'s SessionStart.
 * - It dumped, then kept working (files, commits, tasks after the dump's `created`): a
 *   `## Since the dump` section (since_dump.ts) is appended to that document while it is unconsumed.
 * - It made no dump: a draft (draft.ts) from its transcript, unless the session left nothing worth
 *   carrying or the transcript is another project's. LATEST points at the draft only when it
 *   does not name an unconsumed dump: a draft never overwrites nor shadows a handover the agent
 *   wrote.
 *
 * On `/clear` (`reason: "clear"`) it also leaves the short-lived mark that links this session to
 * the one the agent starts next (lib/store/sessions.ts), so that session restores this one's
 * handover and no other session's.
 *
 * Every write is atomic and under the store's docs lock, where "did this session dump or draft
 * already?" is asked again: of two SessionEnd hooks at once exactly one writes. The modules the
 * writes need (the transcript reader, the drafter) are imported only when there is something to
 * write. Never throws for an ordinary reason: the answer says why nothing happened.
 * @module
 */

import type { HookAnswer } from "../hook/answer.ts";
import type { Payload, RestoreOptions } from "../hook/input.ts";
import { sessionField } from "../store/front_matter.ts";
import { hasSince, workInTail } from "./glance.ts";
import { markClearing, markEnded, type SessionDoc, sessionDocs } from "../store/sessions.ts";
import { forkParentsOf } from "../transcript/fork.ts";
import { projectStore } from "./_store.ts";
import type * as After from "./after.ts";
import type * as Idle from "./idle.ts";
import type * as Since from "./since_dump.ts";
import type * as Write from "./_write.ts";
import type * as Adopt from "../sync/adopt.ts";
import type { Store } from "../store/store.ts";

/** What the answer reads of the process. */
export interface EndEnv {
  /** `CLAUDE_PROJECT_DIR`, which starts the root rule's walk. */
  projectDir?: string;
}

/** Imports a module (of this folder, or the adoption), when it is needed. */
function load<T>(name: string): Promise<T> {
  return import(import.meta.resolve(name)) as Promise<T>;
}

/**
 * Answers one SessionEnd payload: the draft, the "Since the dump" section, or nothing, and why.
 * Prints nothing (SessionEnd's output reaches no model). `now` is in ms since the epoch.
 */
export async function answerSessionEnd(
  payload: Payload,
  _options: RestoreOptions,
  env: EndEnv,
  now: number,
): Promise<HookAnswer> {
  if (payload.hook_event_name !== "SessionEnd") return { reason: "not a SessionEnd event" };
  const session = sessionField(payload.session_id);
  if (session === undefined) return { reason: "no usable session_id in the payload" };
  const where = projectStore(env.projectDir, payload.cwd);
  if ("refused" in where) return { reason: where.refused };
  // A store left inside this linked worktree moves into the repository's first (lib/sync/adopt.ts).
  if (where.store.stranded !== undefined) {
    await (await load<typeof Adopt>("../sync/adopt.ts")).adoptQuietly(where.store);
  }
  // `/clear`: the session that starts next succeeds this one (lib/store/sessions.ts). Marked
  // first, so a draft cut off by the agent's time limit still leaves the link; and again after,
  // when the draft made the store. A mark that cannot be written never fails the answer.
  const clearing = payload.reason === "clear";
  const mark = () => {
    try {
      return markClearing(where.store, session, new Date(now)) ? "" : "no store to mark";
    } catch (err) {
      return (err as Error).message;
    }
  };
  const first = clearing ? mark() : "";
  // Any other reason ends the session for good: no successor will claim its handover.
  if (!clearing) {
    try {
      markEnded(where.store, session, new Date(now));
    } catch { /* the mark only frees a handover sooner; the answer does not depend on it */ }
  }
  const answer = await carry(where, session, payload.transcript_path, now);
  const missed = first === "" ? "" : mark();
  return missed === "" || missed === "no store to mark"
    ? answer
    : { reason: `${answer.reason}; no clearing mark: ${missed}` };
}

/** What this session leaves: nothing, the "Since the dump" section, or a draft, and why. */
async function carry(
  where: { store: Store; top?: string },
  session: string,
  transcript: string | undefined,
  now: number,
): Promise<HookAnswer> {
  const own = ownDocs(where.store.dir, session, transcript);
  if (own.length > 0) return await sinceTheDump(own[0], transcript, where);
  if (!transcript) return { reason: "no transcript_path: nothing to draft from" };
  try {
    // Loaded here, not above: a session that dumped never needs it.
    const { idleSession } = await load<typeof Idle>("./idle.ts");
    if (idleSession(transcript)) {
      return { reason: "nothing worth carrying (no request, no file touched, no unfinished task)" };
    }
  } catch (err) {
    return { reason: `cannot read ${transcript}: ${err instanceof Error ? err.message : err}` };
  }
  const write = await load<typeof Write>("./_write.ts");
  return await written(() =>
    write.draftSession({ ...where, transcript, session, now: new Date(now) })
  );
}

/**
 * The ending session's documents, newest first. A fork (Claude Code's `/branch`) with none of its
 * own continues its parent's conversation, dump included: the parent's pending handover is its own.
 */
function ownDocs(dir: string, session: string, transcript: string | undefined): SessionDoc[] {
  const own = sessionDocs(dir, session);
  if (own.length > 0 || transcript === undefined) return own;
  return forkParentsOf(transcript).flatMap((parent) => sessionDocs(dir, parent))
    .filter((doc) => doc.fields.consumed === "false");
}

/** The ending session dumped (or its fork parent did): append what came after, if anything. */
async function sinceTheDump(
  doc: SessionDoc,
  transcript: string | undefined,
  where: { store: Store; top?: string },
): Promise<HookAnswer> {
  if (doc.fields.draft !== undefined) {
    return { reason: `this session's draft "${doc.slug}" exists` };
  }
  if (doc.fields.consumed !== "false") {
    return { reason: `this session's handover "${doc.slug}" is already consumed` };
  }
  if (Number.isNaN(doc.created)) return { reason: `"${doc.slug}" has no usable created stamp` };
  if (!transcript) return { reason: `the session dumped "${doc.slug}"; no transcript_path` };
  if (hasSince(doc.text)) return { reason: `"${doc.slug}" already says what came after` };
  // `created` is cut to the second: a record in that second came before the dump finished.
  const after = doc.created + 999;
  let tail: boolean | undefined;
  try {
    tail = workInTail(transcript, after);
  } catch (err) {
    return { reason: `the session dumped "${doc.slug}"; cannot read ${transcript}: ${err}` };
  }
  if (tail === false) return { reason: `the session dumped "${doc.slug}" and did no work after` };
  const [{ readAround }, { sinceSection }] = await Promise.all([
    load<typeof After>("./after.ts"),
    load<typeof Since>("./since_dump.ts"),
  ]);
  let around: Since.SinceFacts | undefined;
  try {
    around = await readAround(transcript, where.top ?? where.store.root, after);
  } catch (err) {
    return { reason: `cannot read ${transcript}: ${err}` };
  }
  const section = around === undefined ? undefined : sinceSection(around);
  if (section === undefined) {
    return { reason: `the session dumped "${doc.slug}" and did no work after` };
  }
  const write = await load<typeof Write>("./_write.ts");
  const writer = doc.fields.session ?? "";
  return await written(() => write.appendSince(where.store, doc.slug, writer, section));
}

/**
 * A write's answer, or why it failed (a store the hook may not create, a full disk): the writes
 * are atomic, so a failure leaves the store as it was, and SessionEnd says so rather than throw.
 */
async function written(write: () => Promise<HookAnswer>): Promise<HookAnswer> {
  try {
    return await write();
  } catch (err) {
    return { reason: `nothing written: ${err instanceof Error ? err.message : err}` };
  }
}
