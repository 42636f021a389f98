/**
 * SessionEnd's quick look at a short Claude Code transcript: did the session do nothing worth a
 * handover — no substantive request (only "hi", "thanks", "ok"), no file written, no task? Then no
 * reader and none of the draft's modules need loading: the answer is "nothing", within the
 * start-up budget of a hook with nothing to do. It only ever says "idle" when the full reading
 * would find nothing worth carrying too (lib/continuity/draft.ts `worthCarrying`); any doubt is
 * left to that reading.
 * @module
 */

import { isSubstantive, promptText, queuedText } from "../transcript/prompt.ts";
import { mayBeWork, TAIL_BYTES } from "./glance.ts";
import { readTail } from "../transcript/tail.ts";

/**
 * True when the transcript at `path` (at most {@link TAIL_BYTES}) shows no work and no
 * substantive request; false when it shows either; undefined when a quick look cannot tell (a
 * longer file, a Codex rollout). Throws when the file cannot be read. A subagent's launch is
 * work (glance.ts `mayBeWork`: what it wrote is in its own transcript), and a queued message is a
 * request.
 */
export function idleSession(path: string): boolean | undefined {
  const { text } = readTail(path, TAIL_BYTES, true);
  if (text === undefined) return undefined;
  if (text.includes('"session_meta"')) return undefined; // Codex: its own reader decides
  for (const line of text.split("\n")) {
    if (mayBeWork(line)) return false;
    const queued = line.includes('"queue-operation"');
    if (!queued && !line.includes('"user"')) continue;
    // deno-lint-ignore no-explicit-any
    let rec: any;
    try {
      rec = JSON.parse(line);
    } catch {
      continue; // a bad line: the reader skips it too
    }
    const prompt = queued
      ? (rec?.operation === "enqueue" ? queuedText(rec.content) : undefined)
      : promptText(rec);
    if (prompt !== undefined && isSubstantive(prompt)) return false;
  }
  return true;
}
