/**
 * The one IO entry of the evidence pipeline: everything for a project root gathered once — the
 * transcript first (its start may narrow the default window), then git, artifacts and parked
 * items side by side — and handed to the pure merge. Modes call this and nothing else.
 * @module
 */

import { docPath, type Store } from "../../store/store.ts";
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
  const { store, now } = opts;
  // The transcript first: its start narrows the default session window.
  const loaded = opts.loaded ??
    (opts.transcript ? await transcriptFor(store.root, opts.transcript) : undefined);
  const since = opts.sinceIsDefault
    ? sessionStart(opts.since, loaded?.facts?.startedAt)
    : opts.since;
  const [git, artifacts, parked] = await Promise.all([
    gitFacts(store.root, since),
    recentArtifacts(store.root, now),
    openParked(store),
  ]);
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
  if (!loaded) return ev;
  if (!loaded.facts) return { ...ev, transcriptNote: loaded.located.reason };
  const known = new Set(ev.files.map((f) => f.path));
  const unseen = loaded.facts.files.filter((f) => !f.outside && !known.has(f.path));
  const status = await transcriptFileStatus(store.root, git.top, unseen.map((f) => f.path));
  return withTranscript(ev, loaded.facts, status);
}
