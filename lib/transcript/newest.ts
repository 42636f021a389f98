/**
 * The newest Claude Code transcript of a project, found by file metadata alone: `list` asks on
 * every run whether the last session ended without a handover (killed before SessionEnd), and
 * `list` has a speed budget, so this lists one folder and stats its `.jsonl` files — nothing is
 * opened or parsed. Only the project root's own folder is looked at (a session started in a
 * subdirectory has its own folder, which only reading the transcripts could tell apart from a
 * sibling project's).
 * @module
 */

import { projectFolder } from "./paths.ts";
import { isSubagentTranscript } from "./subagents.ts";

/** A transcript file as its metadata describes it. */
export interface TranscriptFile {
  /** Absolute path of the `.jsonl`. */
  path: string;
  /** The session id: the file name without `.jsonl`. */
  session: string;
  /** Last written (ms since the epoch). */
  mtimeMs: number;
  /** Created, where the file system records it (ms since the epoch). */
  birthtimeMs?: number;
  /** Size in bytes. */
  size: number;
}

/** Where to look: the project root and what places Claude Code's folder. */
export interface TranscriptPlace {
  root: string;
  /** `HOME` (or `USERPROFILE`). */
  home?: string;
  /** `CLAUDE_CONFIG_DIR`, which replaces `~/.claude`. */
  configDir?: string;
  /** A session never picked: the running one (`CLAUDE_CODE_SESSION_ID`). */
  exclude?: string;
}

/** The newest non-empty transcript in the project's folder; undefined when there is none. */
export function newestTranscript(place: TranscriptPlace): TranscriptFile | undefined {
  const folder = projectFolder(place);
  if (folder === undefined) return undefined;
  let newest: TranscriptFile | undefined;
  try {
    for (const e of Deno.readDirSync(folder)) {
      if (!e.isFile || !e.name.endsWith(".jsonl") || isSubagentTranscript(e.name)) continue;
      const session = e.name.slice(0, -".jsonl".length);
      if (session === place.exclude) continue;
      const path = `${folder}/${e.name}`;
      let info: Deno.FileInfo;
      try {
        info = Deno.statSync(path);
      } catch {
        continue; // vanished
      }
      const mtimeMs = info.mtime?.getTime() ?? 0;
      if (info.size === 0 || (newest && newest.mtimeMs >= mtimeMs)) continue;
      newest = { path, session, mtimeMs, size: info.size };
      if (info.birthtime) newest.birthtimeMs = info.birthtime.getTime();
    }
  } catch {
    return undefined; // no transcripts for this project
  }
  return newest;
}
