/**
 * The collectors of the evidence pipeline — the transcript's (and how its files stand now), the
 * parked items', the artifacts' (git's is ./git.ts, which `sweep` uses alone) — and its one IO
 * entry: everything for a project root gathered once — git's processes started first, over the
 * widest window the session may have, then the transcript read, artifacts and parked items
 * gathered while they run; git's commits narrowed to the transcript's start — and handed to the
 * pure merge. Modes call {@link collectEvidence} and nothing else. The small collectors share
 * this file: each is short, and serves only this pipeline.
 *
 * Every fact is redacted as it is gathered, before the merge (lib/secrets/): commit subjects,
 * branch and paths from git, artifact directories, parked bullets (PARKED.md may be edited by
 * hand); the transcript's tasks and paths as the transcript is read (lib/transcript/read.ts
 * `redactedFacts`), their counts added here. So `dump` composes, and `evidence` shows, only clean
 * text, and the slug suggested from a branch is derived from the clean branch. What locates
 * things on disk stays as it is: the project root, the git top-level, the transcript's path. A
 * path holding a secret is so listed redacted (and no longer found on disk: a file of the
 * transcript's is then shown `reverted`).
 * @module
 */

import { join } from "../../fs/path.ts";
import type * as ParkedFile from "../../parked/file.ts";
import type { ParkedItem } from "../../parked/grammar.ts";
import { loadRedaction, redactDeepLazily } from "../../secrets/lazy.ts";
import type { RedactionCounts } from "../../secrets/redact.ts";
import { docPath, findGitTop, type Store } from "../../store/store.ts";
import { isoStamp } from "../../store/time.ts";
import type * as Load from "../../transcript/load.ts";
import type { LocateInputs } from "../../transcript/locate.ts";
import { gitFacts, narrowFacts, trackedFiles } from "./git.ts";
import { buildEvidence, withTranscript } from "./merge.ts";
import type { Artifact, Evidence, OpenItem } from "./model.ts";
import { sessionStart } from "./window.ts";

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
  loaded?: Load.Loaded;
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
  // Git's processes start first, over the widest window the session may have (a transcript's
  // start only ever narrows the default one); the transcript is read and the modules for the
  // rest load while they run, then the commits are narrowed (docs/PERFORMANCE.md).
  const window = opts.loaded && opts.sinceIsDefault
    ? sessionStart(opts.since, opts.loaded.facts?.startedAt)
    : opts.since;
  const gitRun = gitFacts(store.root, window);
  const artifactsRun = recentArtifacts(store.root, now);
  const parkedRun = openParked(store);
  // Awaited after the transcript: handled from now on, so that failing meanwhile is no unhandled
  // rejection (which ends a Deno process); Promise.all below still rejects with it.
  for (const run of [gitRun, artifactsRun, parkedRun]) run.catch(() => {});
  const given = opts.loaded ??
    (opts.transcript ? await transcriptFor(store.root, opts.transcript) : undefined);
  const since = opts.sinceIsDefault ? sessionStart(window, given?.facts?.startedAt) : window;
  const [wideGit, rawArtifacts, rawParked] = await Promise.all([gitRun, artifactsRun, parkedRun]);
  const rawGit = since > window ? await narrowFacts(wideGit, since) : wideGit;
  const gathered = await redactDeepLazily({
    git: { ...rawGit, top: undefined },
    artifacts: rawArtifacts,
    parked: rawParked,
  });
  let redacted = gathered.counts;
  const { artifacts, parked } = gathered.value;
  const git = { ...gathered.value.git, top: rawGit.top };
  // The transcript's facts were redacted as they were read (lib/transcript/read.ts).
  const loaded = given;
  if (given?.redacted && Object.keys(given.redacted).length) {
    redacted = (await loadRedaction()).addCounts(redacted, given.redacted);
  }
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
    const note = await redactDeepLazily(loaded.located.reason);
    // Counts to add mean the rules ran, so redact.ts is loaded already.
    if (Object.keys(note.counts).length) {
      redacted = (await loadRedaction()).addCounts(redacted, note.counts);
    }
    return { evidence: { ...ev, transcriptNote: note.value }, redacted };
  }
  const known = new Set(ev.files.map((f) => f.path));
  const unseen = loaded.facts.files.filter((f) => !f.outside && !known.has(f.path));
  const status = await transcriptFileStatus(store.root, git.top, unseen.map((f) => f.path));
  return { evidence: withTranscript(ev, loaded.facts, status), redacted };
}

// ---------------------------------------------------------------------------- the collectors

/** Reads the session's transcript for the project at `root`, found from `locate`. */
export async function transcriptFor(
  root: string,
  locate: Omit<LocateInputs, "root">,
): Promise<Load.Loaded> {
  const { loadTranscript } = await load<typeof Load>("../../transcript/load.ts");
  return loadTranscript({ ...locate, root, relRoot: findGitTop(root) ?? root });
}

/**
 * A module of the collectors that need not load before git's processes start (the transcript's
 * nine, PARKED.md's four): imported by a computed specifier, which Deno does not load at start
 * (lib/cli/main.ts says why), so they load while git runs.
 */
function load<T>(path: string): Promise<T> {
  return import(import.meta.resolve(path)) as Promise<T>;
}

/**
 * How a transcript-touched file that git does not list stands now: `reverted` when git tracks it
 * (so it has no diff) or it no longer exists; `edited` when git cannot see it (ignored, outside
 * git).
 */
export async function transcriptFileStatus(
  root: string,
  top: string | undefined,
  paths: string[],
): Promise<(path: string) => "reverted" | "edited"> {
  const tracked = top ? await trackedFiles(top, paths) : new Set<string>();
  const gone = new Set<string>();
  await Promise.all(paths.map(async (p) => {
    try {
      await Deno.lstat(join(top ?? root, p));
    } catch {
      gone.add(p);
    }
  }));
  return (p) => (tracked.has(p) || gone.has(p) ? "reverted" : "edited");
}

/** The open parked items of a store as `## Outstanding` bullets (a missing PARKED.md: none). */
export async function openParked(store: Store): Promise<OpenItem[]> {
  try {
    const { readParked } = await load<typeof ParkedFile>("../../parked/file.ts");
    return openItems(readParked(store).items);
  } catch {
    return []; // an unreadable PARKED.md must not stop a dump
  }
}

/** The items of a PARKED.md text as open items, each bullet on one line without its marker. */
export function openItems(items: ParkedItem[]): OpenItem[] {
  return items.map((item) => ({
    slug: item.slug,
    text: item.text.split("\n").map((l) => l.trim()).join(" ").replace(/^[-*+][ \t]+/, ""),
    source: "parked" as const,
  }));
}

/** Artifact directories (docs/STORE.md, "Artifacts"). */
export const ARTIFACT_DIRS = [".temp", ".reports", ".experiments", ".developments"];
/** Artifacts changed within this long before `now` count. */
export const ARTIFACT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Finds artifact directories under `root` with files changed since `now - 24h` (by mtime). */
export async function recentArtifacts(root: string, now: Date): Promise<Artifact[]> {
  const cutoff = now.getTime() - ARTIFACT_WINDOW_MS;
  const out: Artifact[] = [];
  for (const dir of ARTIFACT_DIRS) {
    let files = 0;
    let newest = 0;
    let budget = 5_000; // a huge scratch directory must not stall a dump
    const walk = async (path: string, depth: number) => {
      let entries;
      try {
        entries = Deno.readDir(path);
        for await (const e of entries) {
          if (--budget < 0) return;
          const child = join(path, e.name);
          if (e.isDirectory && depth < 4) await walk(child, depth + 1);
          else if (e.isFile) {
            const mtime = (await Deno.lstat(child).catch(() => undefined))?.mtime?.getTime();
            if (mtime !== undefined && mtime >= cutoff) {
              files++;
              newest = Math.max(newest, mtime);
            }
          }
        }
      } catch { /* missing or unreadable: nothing to report */ }
    };
    await walk(join(root, dir), 0);
    if (files > 0) out.push({ dir, files, newest: isoStamp(new Date(newest)) });
  }
  return out;
}
