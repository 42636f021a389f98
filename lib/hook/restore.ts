/**
 * The SessionStart restore: decide whether a handover is pending — the gates, the root rule, the
 * store, LATEST or the predecessor session's own handover — claiming nothing. It runs on every
 * `/clear`, most often to find nothing, so what runs only once a handover is pending (redaction,
 * context, claim and consume: lib/hook/pending.ts) is loaded only then.
 * @module
 */

import { splitFrontMatter } from "../store/front_matter.ts";
import { findStore, isSafeSlug, readDoc, type Store, storeOutside } from "../store/store.ts";
import { readLatest } from "../store/latest.ts";
import { hasEnded, sessionDocs, takeClearing } from "../store/sessions.ts";
import { ageMs, inWindow } from "../store/time.ts";
import type * as Consume from "./pending.ts";
import type * as Adopt from "../sync/adopt.ts";
import type { Candidate, Outcome, Pending } from "./pending.ts";
import { clearAsResume, gate, type Payload, type RestoreOptions } from "./input.ts";

/** The lazily loaded half of the restore, once a handover is pending. */
function pendingStep(): Promise<typeof Consume> {
  return import(import.meta.resolve("./pending.ts"));
}

/** The adoption of a stranded store, loaded only when there is one. */
function adoptStep(): Promise<typeof Adopt> {
  return import(import.meta.resolve("../sync/adopt.ts"));
}

/** What the hook knows of its environment: CLAUDE_PROJECT_DIR. */
export interface HookEnv {
  projectDir?: string;
}

/**
 * Every gate of the restore, claiming nothing: the pending handover, redacted where the hook will
 * print it (lib/hook/pending.ts `redactPending`), or why there is none.
 */
export async function findPending(
  payload: Payload,
  options: RestoreOptions,
  env: HookEnv,
  now: Date,
): Promise<Pending | { reason: string }> {
  const found = await findCandidate(payload, options, env, now);
  return "reason" in found ? found : await (await pendingStep()).redactPending(found);
}

/** Every gate of the restore, claiming nothing: the handover as stored, or why there is none. */
async function findCandidate(
  payload: Payload,
  options: RestoreOptions,
  env: HookEnv,
  now: Date,
): Promise<Candidate | { reason: string }> {
  // Droid's `resume` is its `/clear` only when the session before left the clearing mark (below).
  const resumed = clearAsResume(options.agent) && payload.hook_event_name === "SessionStart" &&
    payload.source === "resume";
  const closed = gate(resumed ? { ...payload, source: "clear" } : payload, options);
  if (closed) return { reason: closed };
  const store = findStore({ projectDir: env.projectDir, cwd: payload.cwd });
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
  // A store left inside this linked worktree (an older version's, a sandboxed dump's) moves into
  // the repository's first, so its handover is restored (lib/sync/adopt.ts, loaded only then).
  if (store.stranded !== undefined) await (await adoptStep()).adoptQuietly(store);
  // The session this one succeeds, when the agent's `/clear` said (SessionEnd's clearing mark);
  // Gemini registers no SessionEnd, and a compaction or a startup succeeds no session.
  const clearing = options.agent !== "gemini" &&
    (payload.source === undefined || payload.source === "clear" || resumed);
  const predecessor = clearing ? takeClearing(store, now) : undefined;
  if (resumed && predecessor === undefined) {
    return { reason: 'source "resume" with no clearing mark: a resume, not a /clear' };
  }
  return candidateIn(store, predecessor, now, options);
}

/**
 * The handover a session succeeding `predecessor` would restore from `store` at `now`, claiming
 * nothing and taking no mark: what `session.ts statusline` shows as pending for a `/clear`.
 */
export function candidateIn(
  store: Store,
  predecessor: string | undefined,
  now: Date,
  options: RestoreOptions,
): Candidate | { reason: string } {
  const choice = choose(store, predecessor, now, options);
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
  const written = split.fields.worktree;
  // A handover goes back only into the worktree it was written in (one without `worktree:`, to
  // any), so it never ambushes a session in another worktree of the repository.
  if (written !== undefined && written !== (store.worktree ?? "")) {
    return {
      reason: `document "${slug}" was written in worktree ${written}, not ` +
        (store.worktree === undefined ? "the main worktree" : `worktree ${store.worktree}`),
    };
  }
  if (!inWindow(ageMs(split.fields.created, now) ?? NaN, options.windowMs)) {
    return { reason: `document "${slug}" is outside the restore window` };
  }
  const { created, branch } = split.fields;
  const draft = split.fields.draft !== undefined;
  // The notice switched off: nothing injected and nothing claimed, so recall and list still see
  // the draft as the pending one.
  if (draft && options.noNotice) return { reason: `document "${slug}" is a draft; --no-notice` };
  return { store, slug, text, created, branch, body: split.body, draft, viaLatest };
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
  // A writer that ended for good (exit, not `/clear`) has no successor to wait for.
  if (writer !== undefined && writer !== predecessor && !hasEnded(store, writer)) {
    return {
      reason: `LATEST names "${latest}", session ${writer}'s handover: it waits for that ` +
        `session's successor (this one succeeds ${predecessor})`,
    };
  }
  return { slug: latest, viaLatest: true };
}

/**
 * Runs the restore for one payload against the store of its project: every gate, then
 * lib/hook/pending.ts `redactPending` and `consumePending`. Never throws for bad data; a failed write throws with the
 * store as it was.
 */
export async function restore(
  payload: Payload,
  options: RestoreOptions,
  env: HookEnv,
  now: Date,
): Promise<Outcome> {
  const found = await findCandidate(payload, options, env, now);
  if ("reason" in found) return { injected: false, reason: found.reason };
  const step = await pendingStep();
  return await step.consumePending(
    await step.redactPending(found),
    now,
    options.budget,
    payload.session_id,
  );
}
