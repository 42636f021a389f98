/**
 * Finding the session's transcript on disk: Claude Code's (`~/.claude/projects/<encoded
 * root>/<session id>.jsonl`, {@link locateTranscript}) or Codex's rollout
 * (`~/.codex/sessions/YYYY/MM/DD/rollout-<stamp>-<id>.jsonl`, {@link locateCodexTranscript}): by
 * `--transcript`, by session id, else the newest of this project. Reads only directory listings
 * and the first lines of files; never throws.
 * @module
 */

import { openTranscript } from "./open.ts";
import { isAbsolute, normalizePath, projectFolder, relativeTo } from "./paths.ts";
import { isSubagentTranscript } from "./subagents.ts";

/** Where a transcript was found, and how. */
export interface Located {
  path?: string;
  /** `flag`, `session` (CLAUDE_CODE_SESSION_ID), `newest` (newest matching in the folder). */
  how?: "flag" | "session" | "newest";
  /** Why none was found (when `path` is undefined). */
  reason?: string;
}

/** Inputs of {@link locateTranscript}. */
export interface LocateInputs {
  /** `--transcript PATH`, absolute or relative to `cwd`. */
  transcript?: string;
  /** `--session ID` or `CLAUDE_CODE_SESSION_ID`. */
  sessionId?: string;
  /** The project root. */
  root: string;
  /** The home directory (`HOME` / `USERPROFILE`). */
  home?: string;
  /** `CLAUDE_CONFIG_DIR`, which replaces `~/.claude` when set. */
  configDir?: string;
  /** The working directory, for a relative `--transcript`. */
  cwd: string;
  /** A session id never picked by the newest-file fallback (the running session, for recover). */
  exclude?: string;
  /** Codex CLI's session id (`CODEX_THREAD_ID` in its shell tool): read its rollout instead. */
  codexThreadId?: string;
  /** `CODEX_HOME`, which replaces `~/.codex` when set. */
  codexHome?: string;
}

/** The locate inputs from a process environment: session id, home and config directory. */
export function transcriptEnv(
  env: (name: string) => string | undefined,
): Pick<LocateInputs, "sessionId" | "home" | "configDir" | "codexThreadId" | "codexHome"> {
  return {
    sessionId: env("CLAUDE_CODE_SESSION_ID") || undefined,
    home: env("HOME") || env("USERPROFILE") || undefined,
    configDir: env("CLAUDE_CONFIG_DIR") || undefined,
    codexThreadId: env("CODEX_THREAD_ID") || undefined,
    codexHome: env("CODEX_HOME") || undefined,
  };
}

/** The `--transcript` path, made absolute against the working directory. */
export function flagPath(inputs: { transcript: string; cwd: string }): string {
  return isAbsolute(inputs.transcript) ? inputs.transcript : `${inputs.cwd}/${inputs.transcript}`;
}

/** Whether `id` can be a session id: it becomes part of a file name, so no separators, no dots. */
function isSessionId(id: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(id);
}

/** The `cwd` a transcript line carries, found without parsing the (possibly huge) line. */
function cwdIn(line: string): string | undefined {
  const m = /"cwd"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(line);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]);
  } catch {
    return undefined; // not a string after all
  }
}

/** Whether the directory `cwd` a transcript carries is the project `root` or below it. */
function inProject(cwd: string | undefined, root: string): boolean {
  return cwd !== undefined && relativeTo(normalizePath(cwd), root) !== undefined;
}

// ---------------------------------------------------------------------------------- Claude Code

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * Finds the session's transcript: `--transcript`; else the session id's file in Claude Code's
 * project folder; else the newest `.jsonl` there whose records' `cwd` is the project (root or
 * below it). Never throws.
 */
export async function locateTranscript(inputs: LocateInputs): Promise<Located> {
  if (inputs.transcript) {
    const p = flagPath({ transcript: inputs.transcript, cwd: inputs.cwd });
    return isFile(p)
      ? { path: p, how: "flag" }
      : { reason: `no transcript file at ${inputs.transcript}` };
  }
  const folder = projectFolder(inputs);
  if (!folder) return { reason: "no home directory to find ~/.claude/projects in" };
  const projects = folder.slice(0, folder.lastIndexOf("/"));
  const own = folder.slice(projects.length + 1);
  let names: string[];
  try {
    names = [...Deno.readDirSync(projects)].filter((e) => e.isDirectory).map((e) => e.name);
  } catch {
    return { reason: `no Claude Code transcripts (no ${projects})` };
  }
  if (inputs.sessionId) {
    if (!isSessionId(inputs.sessionId)) return { reason: `not a session id: ${inputs.sessionId}` };
    // The project's own folder first; Claude Code may have been started in another directory
    // (a subdirectory of the repository), so then every folder: session ids are unique.
    for (const name of [own, ...names.filter((n) => n !== own)]) {
      const p = `${projects}/${name}/${inputs.sessionId}.jsonl`;
      if (isFile(p)) return { path: p, how: "session" };
    }
  }
  // Folders of the root and of directories below it (Claude Code started in a subdirectory).
  const mine = names.filter((n) => n === own || n.startsWith(own + "-"));
  let entries: { path: string; mtime: number }[] = [];
  for (const name of mine) {
    try {
      for (const e of Deno.readDirSync(`${projects}/${name}`)) {
        if (!e.isFile || !e.name.endsWith(".jsonl") || isSubagentTranscript(e.name)) continue;
        if (inputs.exclude && e.name === `${inputs.exclude}.jsonl`) continue;
        const p = `${projects}/${name}/${e.name}`;
        try {
          entries.push({ path: p, mtime: Deno.statSync(p).mtime?.getTime() ?? 0 });
        } catch { /* vanished */ }
      }
    } catch { /* unreadable folder */ }
  }
  if (entries.length === 0 && !inputs.sessionId) {
    return { reason: `no Claude Code transcripts for this project (${folder})` };
  }
  entries = entries.sort((a, b) => b.mtime - a.mtime);
  const root = normalizePath(inputs.root);
  for (const e of entries) {
    if (inProject(await transcriptCwd(e.path), root)) return { path: e.path, how: "newest" };
  }
  return {
    reason: inputs.sessionId
      ? `no transcript for session ${inputs.sessionId} under ${projects}, none of this project`
      : `no transcript of this project in ${folder}`,
  };
}

/** The first `cwd` the transcript's records carry, reading at most its first 200 lines. */
export async function transcriptCwd(path: string): Promise<string | undefined> {
  let found: string | undefined;
  let count = 0;
  try {
    using file = openTranscript(path);
    const decoder = new TextDecoder();
    const buf = new Uint8Array(64 * 1024);
    let carry = "";
    while (found === undefined && count < 200) {
      const n = await file.read(buf);
      if (n === null) break;
      const lines = (carry + decoder.decode(buf.subarray(0, n), { stream: true })).split("\n");
      carry = lines.pop() ?? "";
      for (const l of lines) {
        if (++count > 200) break;
        found = cwdIn(l);
        if (found !== undefined) break;
      }
      if (carry.length > 16 * 1024 * 1024) break;
    }
  } catch {
    return undefined;
  }
  return found;
}

// ---------------------------------------------------------------------------------------- Codex

/** Where Codex keeps its rollouts: `$CODEX_HOME/sessions`, else `~/.codex/sessions`. */
export function codexSessionsDir(env: { codexHome?: string; home?: string }): string | undefined {
  const base = env.codexHome ?? (env.home ? `${env.home}/.codex` : undefined);
  return base ? `${base}/sessions` : undefined;
}

function sortedDir(dir: string, test: (name: string) => boolean): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name).filter(test).sort().reverse();
  } catch {
    return [];
  }
}

/** Rollout files under the sessions dir, newest first (by their dated folders and names). */
function* rollouts(sessions: string): Generator<string> {
  const digits = (n: number) => (name: string) => new RegExp(`^\\d{${n}}$`).test(name);
  for (const y of sortedDir(sessions, digits(4))) {
    for (const m of sortedDir(`${sessions}/${y}`, digits(2))) {
      for (const d of sortedDir(`${sessions}/${y}/${m}`, digits(2))) {
        const dir = `${sessions}/${y}/${m}/${d}`;
        for (const f of sortedDir(dir, (n) => /^rollout-.*\.jsonl$/.test(n))) yield `${dir}/${f}`;
      }
    }
  }
}

/** The `cwd` of a rollout's `session_meta` (its first line), or undefined. */
async function rolloutCwd(path: string): Promise<string | undefined> {
  let first: string | undefined;
  try {
    using file = openTranscript(path);
    const buf = new Uint8Array(64 * 1024);
    const n = await file.read(buf);
    first = new TextDecoder().decode(buf.subarray(0, n ?? 0)).split("\n", 1)[0];
  } catch {
    return undefined;
  }
  return cwdIn(first ?? "");
}

/** How many of the newest rollouts the newest-of-this-project fallback looks at. */
const SCAN_LIMIT = 200;

/**
 * Finds the Codex session's rollout: the one named by `sessionId` (Codex puts it in the shell
 * tool's environment as `CODEX_THREAD_ID`); else the newest whose `cwd` is the project (root or
 * below it). Never throws.
 */
export async function locateCodexTranscript(inputs: {
  root: string;
  sessionId?: string;
  codexHome?: string;
  home?: string;
  exclude?: string;
}): Promise<Located> {
  const sessions = codexSessionsDir(inputs);
  if (!sessions) return { reason: "no home directory to find ~/.codex/sessions in" };
  if (inputs.sessionId !== undefined && !isSessionId(inputs.sessionId)) {
    return { reason: `not a session id: ${inputs.sessionId}` };
  }
  const root = normalizePath(inputs.root);
  let seen = 0;
  for (const path of rollouts(sessions)) {
    if (inputs.sessionId && path.endsWith(`-${inputs.sessionId}.jsonl`)) {
      return { path, how: "session" };
    }
    if (inputs.exclude && path.endsWith(`-${inputs.exclude}.jsonl`)) continue;
    if (inputs.sessionId || ++seen > SCAN_LIMIT) continue;
    if (inProject(await rolloutCwd(path), root)) return { path, how: "newest" };
  }
  return {
    reason: inputs.sessionId
      ? `no Codex rollout for session ${inputs.sessionId} in ${sessions}`
      : `no Codex rollout of this project in ${sessions}`,
  };
}
