/**
 * The transcript collector: the session's transcript read for a project (paths relative to the
 * git top-level), and how each file it shows touched — that git does not list — stands now.
 * @module
 */

import { join } from "../../fs/path.ts";
import { findGitTop } from "../../store/store.ts";
import { type Loaded, loadTranscript } from "../../transcript/load.ts";
import type { LocateInputs } from "../../transcript/locate.ts";
import { trackedFiles } from "./git.ts";

/** Reads the session's transcript for the project at `root`, found from `locate`. */
export function transcriptFor(root: string, locate: Omit<LocateInputs, "root">): Promise<Loaded> {
  return loadTranscript({ ...locate, root, relRoot: findGitTop(root) ?? root });
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
