/**
 * Reading a whole Claude Code transcript around a moment (a dump's `created`) into the facts at
 * that moment and at the end, with the commits made after it ({@link SinceFacts}). glance.ts
 * answers first whether there is anything to read for.
 * @module
 */

import { TranscriptReader } from "../transcript/claude.ts";
import type { Mention, TranscriptFacts } from "../transcript/facts.ts";
import { forEachLine } from "../transcript/lines.ts";
import { subagentFiles } from "../transcript/subagents.ts";
import type { SinceFacts } from "./since_dump.ts";
import { lineStamp } from "./glance.ts";

/** A `git commit` the line's Bash call ran: its `-m` message, else the command; or undefined. */
export function commitOf(rec: unknown): string | undefined {
  // deno-lint-ignore no-explicit-any
  const r = rec as any;
  if (r?.type !== "assistant" || r.isSidechain === true) return undefined;
  const content = r.message?.content;
  if (!Array.isArray(content)) return undefined;
  for (const b of content) {
    const cmd = b?.type === "tool_use" && b.name === "Bash" ? b.input?.command : undefined;
    if (typeof cmd !== "string" || !/\bgit\b[^\n;&|]*\bcommit\b/.test(cmd)) continue;
    // `-m "…"`, `-am '…'`, `--message=…`: the first line of the message.
    const m = /\s(?:-[A-Za-z]*m|--message=?)\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/.exec(cmd);
    return (m?.[1] ?? m?.[2] ?? cmd).split("\n")[0];
  }
  return undefined;
}

/**
 * Reads the transcript at `path` once: the facts as they stood at the first record after
 * `afterMs` and at the end (with what its subagents did after `afterMs`, from their own
 * transcripts), and the commits made after it. Undefined when no record comes after
 * `afterMs`. Rejects only when the file cannot be opened.
 */
export async function readAround(
  path: string,
  root: string,
  afterMs: number,
): Promise<SinceFacts | undefined> {
  const reader = new TranscriptReader({ root, path });
  let before: TranscriptFacts | undefined;
  let fromLine = 0;
  let n = 0;
  const commits: Mention[] = [];
  await forEachLine(path, (line) => {
    n++;
    if (before === undefined) {
      const ms = lineStamp(line);
      if (ms !== undefined && ms > afterMs) {
        before = reader.snapshot();
        fromLine = n;
      }
    }
    reader.line(line);
    if (before !== undefined && line.includes("commit") && line.includes('"Bash"')) {
      let rec: unknown;
      try {
        rec = JSON.parse(line);
      } catch {
        return;
      }
      const text = commitOf(rec);
      if (text !== undefined) commits.push({ text, line: n });
    }
  });
  if (before === undefined) return undefined;
  // What the session's subagents did after the moment is the session's too.
  for (const sub of subagentFiles(path, reader.sessionId)) {
    try {
      await forEachLine(sub.path, (line) => {
        const ms = lineStamp(line);
        if (ms !== undefined && ms > afterMs) reader.subagentLine(line, sub.agentId);
      });
    } catch { /* vanished, or not a transcript to read */ }
  }
  return { before, after: reader.facts(), fromLine, commits };
}
