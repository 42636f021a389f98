/**
 * The one way a transcript file is opened ({@link openTranscript}): only a regular file, and only
 * one that really lies in the transcripts folder it is named in. Every reader goes through it
 * (the streamed reader, the rollout sniff, the head reads of locate.ts, SessionEnd's tail), so a
 * FIFO never blocks a hook in `open()` and a symlink never carries another file's text into a
 * draft. docs/DECISIONS.md ("Transcripts: regular files in their folder") has the why. No
 * imports and no regex: SessionEnd's quick look (lib/continuity/glance.ts) opens through it.
 * @module
 */

/** Why a transcript path is not read. */
export class NotATranscript extends Error {
  override name = "NotATranscript";
}

/** Folder names that hold the agents' transcripts: Claude Code's `projects`, Codex's `sessions`. */
const FOLDERS = ["projects", "sessions"];

/**
 * The transcripts folder `path` is named in: the nearest folder above it called `projects`
 * (Claude Code: `<config>/projects/<project>/<session>.jsonl`, and its subagents below) or
 * `sessions` (Codex: `<home>/sessions/YYYY/MM/DD/rollout-….jsonl`); else the file's own folder.
 */
export function transcriptsFolder(path: string): string {
  const parts = path.replaceAll("\\", "/").split("/");
  for (let i = parts.length - 2; i > 0; i--) {
    if (FOLDERS.includes(parts[i])) return parts.slice(0, i + 1).join("/");
  }
  return parts.slice(0, -1).join("/") || (path.startsWith("/") ? "/" : ".");
}

/** Whether the real path `real` is the real folder `folder` or inside it (both canonical). */
function inside(real: string, folder: string): boolean {
  const f = folder.endsWith("/") || folder.endsWith("\\") ? folder.slice(0, -1) : folder;
  return real === f || real.startsWith(f + "/") || real.startsWith(f + "\\");
}

/**
 * Opens the transcript at `path` for reading, or throws {@link NotATranscript} (or the file
 * system's error): the path, symlinks resolved, must be a regular file inside its
 * {@link transcriptsFolder} (resolved too), checked before the file is opened, so nothing that
 * could block (a FIFO, a device) is ever opened; the path must still resolve to the same file once
 * it is open (a swap after the check is refused). Synchronous: `Deno.open` of a regular file does
 * not wait. Every check goes by the path as given, as the read grant names it: a handle's own
 * stat would ask the grant for the resolved path (Deno 2.9), which a grant naming a symlinked
 * `~/.claude` does not cover.
 */
export function openTranscript(path: string): Deno.FsFile {
  const real = Deno.realPathSync(path);
  const folder = Deno.realPathSync(transcriptsFolder(path));
  if (!inside(real, folder)) {
    throw new NotATranscript(`${path} leads outside ${folder} (to ${real})`);
  }
  if (!Deno.statSync(path).isFile) throw new NotATranscript(`${path} is not a regular file`);
  const file = Deno.openSync(path, { read: true });
  let same = false;
  try {
    same = Deno.realPathSync(path) === real;
  } catch { /* gone meanwhile */ }
  if (!same) {
    file.close();
    throw new NotATranscript(`${path} changed while it was opened`);
  }
  return file;
}
