/**
 * The artifacts collector: the spec's artifact directories with files changed within a day (by
 * mtime), walked with a budget so a huge scratch directory cannot stall a dump.
 * @module
 */

import { join } from "../../fs/path.ts";
import { isoStamp } from "../../store/time.ts";
import type { Artifact } from "./model.ts";

/** Artifact directories the spec names. */
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
