/**
 * The one IO entry of the evidence pipeline: everything for a project root gathered once — the
 * transcript first (its start may narrow the default window), then git, artifacts and parked
 * items side by side — and handed to the pure merge. Modes call this and nothing else.
 *
 * Every fact is redacted as it is gathered, before the merge (lib/secrets/): commit subjects,
 * branch and paths from git, artifact directories, parked bullets (PARKED.md may be edited by
 * hand), the transcript's tasks and paths. So `dump` composes, and `evidence` shows, only clean
 * text, and the slug suggested from a branch is derived from the clean branch. What locates
 * things on disk stays as it is: the project root, the git top-level, the transcript's path. A
 * path holding a secret is so listed redacted (and no longer found on disk: a file of the
 * transcript's is then shown `reverted`).
 * @module
 */

import { docPath, type Store } from "../../store/store.ts";
import { addCounts, redactDeep, type RedactionCounts } from "../../secrets/redact.ts";
import type { Loaded } from "../../transcript/load.ts";
import type { LocateInputs } from "../../transcript/locate.ts";
import { recentArtifacts } from "./artifacts.ts";
import { gitFacts } from "./git.ts";
import { buildEvidence, withTranscript } from "./merge.ts";
import type { Evidence } from "./model.ts";
import { openParked } from "./parked.ts";
import { sessionStart } from "./since.ts";
import { transcriptFileStatus, transcriptFor } from "./transcript.ts";

/** What {@link collectEvidence} needs to know: the project, the moment, the window. */
export interface CollectOptions {
  store: Store;
  now: Date;
  /** Where the session is taken to start. */
  since: Date;
  /** `since` is the default window (no `--since`): a transcript's start may narrow it. */
  sinceIsDefault?: boolean;
  /** Where to look for the session's transcript; omitted: no transcript is read. */
  transcript?: Omit<LocateInputs, "root">;
  /** A transcript already read (paths relative to the git top-level); wins over `transcript`. */
  loaded?: Loaded;
}

/** Gathers the evidence for the project of `store` (never throws for git or PARKED.md). */
export async function collectEvidence(opts: CollectOptions): Promise<Evidence> {
  return (await collectRedacted(opts)).evidence;
}

/** Clean evidence, and how many secrets of which kinds were taken out of it (for the note). */
export interface CollectedEvidence {
  evidence: Evidence;
  redacted: RedactionCounts;
}

/** {@link collectEvidence}, with the counts of what redaction took out of the facts. */
export async function collectRedacted(opts: CollectOptions): Promise<CollectedEvidence> {
  const { store, now } = opts;
  // The transcript first: its start narrows the default session window.
  const given = opts.loaded ??
    (opts.transcript ? await transcriptFor(store.root, opts.transcript) : undefined);
  const since = opts.sinceIsDefault
    ? sessionStart(opts.since, given?.facts?.startedAt)
    : opts.since;
  const [rawGit, rawArtifacts, rawParked] = await Promise.all([
    gitFacts(store.root, since),
    recentArtifacts(store.root, now),
    openParked(store),
  ]);
  const gathered = redactDeep({
    git: { ...rawGit, top: undefined },
    artifacts: rawArtifacts,
    parked: rawParked,
    facts: given?.facts ? { ...given.facts, path: "" } : undefined,
  });
  let redacted = gathered.counts;
  const { artifacts, parked } = gathered.value;
  const git = { ...gathered.value.git, top: rawGit.top };
  const loaded = given?.facts
    ? { ...given, facts: { ...gathered.value.facts!, path: given.facts.path } }
    : given;
  const ev = buildEvidence({
    store,
    now,
    since,
    git,
    artifacts,
    parked,
    exists: (slug) => {
      try {
        Deno.statSync(docPath(store, slug));
        return true;
      } catch {
        return false;
      }
    },
  });
  if (!loaded) return { evidence: ev, redacted };
  if (!loaded.facts) {
    // Why no transcript: a reason that may quote a path or an error.
    const note = redactDeep(loaded.located.reason);
    redacted = addCounts(redacted, note.counts);
    return { evidence: { ...ev, transcriptNote: note.value }, redacted };
  }
  const known = new Set(ev.files.map((f) => f.path));
  const unseen = loaded.facts.files.filter((f) => !f.outside && !known.has(f.path));
  const status = await transcriptFileStatus(store.root, git.top, unseen.map((f) => f.path));
  return { evidence: withTranscript(ev, loaded.facts, status), redacted };
}
