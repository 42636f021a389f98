/**
 * The transcripts Claude Code's subagents (the `Task` / `Agent` tool) wrote beside a session's
 * own: what a subagent wrote belongs to the session. Three layouts, by version: inline in the
 * session's file, flagged `isSidechain` (up to 1.0.108; nothing to find here); `agent-<id>.jsonl`
 * beside the session, sharing its `sessionId` (2.0.x); `<session id>/subagents/agent-<id>.jsonl`
 * (2.1.x, with an `agent-<id>.meta.json` beside each by 2.1.114). Only directory listings and the
 * first bytes of the 2.0.x files are read here; the files are read through lib/transcript/open.ts.
 * @module
 */

import { openTranscript } from "./open.ts";

/** A subagent's transcript, and the agent id its name carries. */
export interface SubagentFile {
  path: string;
  agentId: string;
}

/** How much of a 2.0.x agent file's start is read for its `sessionId`. */
const HEAD_BYTES = 4096;

/**
 * Whether a file name is a subagent's transcript (`agent-<id>.jsonl`), never a session's own:
 * the newest-file fallback and `list`'s unsaved notice pass over it.
 */
export function isSubagentTranscript(name: string): boolean {
  return agentIdOf(name) !== undefined;
}

/** `agent-<id>.jsonl` names: the id, or undefined for any other name. */
function agentIdOf(name: string): string | undefined {
  if (!name.startsWith("agent-") || !name.endsWith(".jsonl")) return undefined;
  const id = name.slice("agent-".length, -".jsonl".length);
  return id !== "" && !id.includes(".") ? id : undefined;
}

/** The regular `agent-*.jsonl` files of `dir`, by name; none when it cannot be listed. */
function agentFiles(dir: string): SubagentFile[] {
  const found: SubagentFile[] = [];
  try {
    for (const e of Deno.readDirSync(dir)) {
      const agentId = e.isFile ? agentIdOf(e.name) : undefined;
      if (agentId !== undefined) found.push({ path: `${dir}/${e.name}`, agentId });
    }
  } catch { /* no such folder, or not readable */ }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Whether the start of the file at `path` names `sessionId` as its records' session. */
function ofSession(path: string, sessionId: string): boolean {
  try {
    using file = openTranscript(path);
    const buf = new Uint8Array(HEAD_BYTES);
    const n = file.readSync(buf) ?? 0;
    return new TextDecoder().decode(buf.subarray(0, n)).includes(
      `"sessionId":${JSON.stringify(sessionId)}`,
    );
  } catch {
    return false;
  }
}

/**
 * The subagent transcripts of the session whose own transcript is `path` (`<session id>.jsonl`)
 * and whose records carry `sessionId` (default: the file's name): its `subagents/` folder, then
 * the 2.0.x `agent-*.jsonl` files beside it that name the session. None for a file that is itself
 * a subagent's.
 */
export function subagentFiles(path: string, sessionId?: string): SubagentFile[] {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const dir = slash < 0 ? "." : path.slice(0, slash);
  const name = path.slice(slash + 1);
  if (!name.endsWith(".jsonl") || agentIdOf(name) !== undefined) return [];
  const base = name.slice(0, -".jsonl".length);
  const id = sessionId ?? base;
  return [
    ...agentFiles(`${dir}/${base}/subagents`),
    ...agentFiles(dir).filter((f) => ofSession(f.path, id)),
  ];
}
