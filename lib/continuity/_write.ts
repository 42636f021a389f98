/**
 * The writes of the SessionEnd hook (session_end.ts decides; this writes), loaded only when there
 * is something to write: the draft of a session that made no dump, and the "Since the dump"
 * section appended to one that did. Both under the store's docs lock, where the decision is
 * checked again against the store as it is now, and both atomic.
 * @module
 */

import { createFileAtomic, writeFileAtomic } from "../fs/atomic.ts";
import { exists } from "../fs/path.ts";
import type { HookAnswer } from "../hook/answer.ts";
import { restoredSlug } from "../store/latest.ts";
import { pointLatest, underLock } from "../store/lifecycle.ts";
import { withDocsLock } from "../store/docs_lock.ts";
import { chooseSlug } from "../store/slug.ts";
import { splitFrontMatter } from "../store/front_matter.ts";
import { redactLazily } from "../secrets/lazy.ts";
import { docPath, ensureStore, readDoc, type Store } from "../store/store.ts";
import { readAnyTranscript } from "../transcript/read.ts";
import type { TranscriptFacts } from "../transcript/facts.ts";
import {
  composeDraft,
  draftSlug,
  inWorktree,
  sameProject,
  sessionBranch,
  worthCarrying,
} from "./draft.ts";
import { hasSince } from "./glance.ts";
import { withSince } from "./since_dump.ts";
import { sessionDocs } from "../store/sessions.ts";

/** What {@link draftSession} needs. */
export interface DraftRequest {
  store: Store;
  transcript: string;
  session: string;
  now: Date;
  /** The git top-level, if any: touched paths are relative to it. */
  top?: string;
}

/** Reads the transcript (a Codex rollout or Claude Code's), or why it cannot be. */
async function readFacts(path: string, root: string): Promise<TranscriptFacts | string> {
  try {
    return await readAnyTranscript(path, { root });
  } catch (err) {
    return `cannot read ${path}: ${err instanceof Error ? err.message : err}`;
  }
}

/**
 * `text` with its transcript-derived body redacted (lib/secrets/lazy.ts: the rules load only when
 * the text may hold a secret); the front matter the hook wrote itself stays as it is.
 */
async function redactedDoc(text: string): Promise<string> {
  const split = splitFrontMatter(text);
  if (split === undefined) return (await redactLazily(text)).text;
  return split.head + (await redactLazily(split.body)).text;
}

/** Drafts a handover for a session that ended without a dump; writes nothing when not worth it. */
export async function draftSession(r: DraftRequest): Promise<HookAnswer> {
  const { store } = r;
  const facts = await readFacts(r.transcript, r.top ?? store.root);
  if (typeof facts === "string") return { reason: facts };
  if (!sameProject(facts, store.root) && !inWorktree(facts, store)) {
    return { reason: `the transcript is of another project (${facts.cwd}); nothing drafted` };
  }
  if (!worthCarrying(facts)) {
    return { reason: "nothing worth carrying (no request, no file touched, no unfinished task)" };
  }
  const branch = await sessionBranch(facts, r.top);
  const inputs = {
    store,
    top: r.top,
    branch,
    now: r.now,
    session: r.session,
    parent: restoredSlug(store, r.session),
    status: (
      p: string,
    ) => (exists(`${r.top ?? store.root}/${p}`) ? "edited" as const : "reverted" as const),
  };
  ensureStore(store);
  return await underLock(store, async () => {
    // Asked again under the lock: a dump or another SessionEnd hook may have written meanwhile.
    const own = sessionDocs(store.dir, r.session);
    if (own.length > 0) return { reason: `"${own[0].slug}" of this session exists; no draft` };
    const base = draftSlug(branch, r.now);
    // Created exclusively: a name lost to a racing writer is passed over for the next suffix.
    const lost = new Set<string>();
    for (let attempt = 0; attempt < 100; attempt++) {
      const choice = chooseSlug({
        base,
        now: r.now,
        exists: (slug) => lost.has(slug) || exists(docPath(store, slug)),
      });
      if ("error" in choice) break;
      const { slug } = choice;
      const draft = await redactedDoc(composeDraft(facts, inputs, slug));
      if (!(await createFileAtomic(docPath(store, slug), draft))) {
        lost.add(slug);
        continue;
      }
      // A draft never takes LATEST from an unconsumed dump (lib/store/lifecycle.ts `planPoint`).
      const dump = pointLatest(store, slug, "draft");
      if (dump !== undefined) {
        return { reason: `drafted "${slug}"; LATEST stays on the unconsumed "${dump}"` };
      }
      return { reason: `drafted "${slug}"; LATEST → ${slug}` };
    }
    return { reason: `no free name after "${base}"; nothing drafted` };
  }, "draft");
}

/**
 * Adds `section` to the session's unconsumed document `slug`, under the docs lock: the agent's
 * text stays byte for byte, the section goes after its sections (since_dump.ts `withSince`). Nothing when the document was consumed,
 * changed hands or already carries the section meanwhile.
 */
export async function appendSince(
  store: Store,
  slug: string,
  session: string,
  section: string,
): Promise<HookAnswer> {
  // Built from the transcript: redacted before it reaches the store (the agent's text was by dump).
  const clean = (await redactLazily(section)).text;
  return await withDocsLock(store, async () => {
    const text = readDoc(store, slug);
    const fields = text === undefined ? undefined : splitFrontMatter(text)?.fields;
    if (text === undefined || fields?.session !== session || fields.consumed !== "false") {
      return { reason: `"${slug}" was consumed or changed meanwhile; nothing appended` };
    }
    if (hasSince(text)) return { reason: `"${slug}" already says what came after` };
    await writeFileAtomic(docPath(store, slug), withSince(text, clean));
    return { reason: `appended "Since the dump" to "${slug}"` };
  });
}
