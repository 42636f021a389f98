/**
 * Test support: writes small Claude Code transcripts (JSONL) in the shape of 2.1.x records, and
 * places them where Claude Code keeps them (`<home>/.claude/projects/<encoded root>/<id>.jsonl`);
 * reads one with every line parsed, the reference the reader's skipping is held to.
 * @module
 */

import { parseTranscript } from "../../lib/transcript/claude.ts";
import type { ReaderOptions, TranscriptFacts } from "../../lib/transcript/facts.ts";
import { encodeProjectDir } from "../../lib/transcript/paths.ts";

/** One step of a scripted session. */
export type Step =
  | { prompt: string }
  | { say: string }
  | { tool: string; input: Record<string, unknown>; result?: string; error?: boolean }
  /** Any other record, written with the session's fields (`cwd`, `sessionId`, …). */
  | { record: Record<string, unknown> };

/** The JSONL of a session made of `steps`, with `cwd` (and `timestamp`, if given) on every record. */
export function transcriptOf(
  cwd: string,
  steps: Step[],
  sessionId = "test-session",
  timestamp?: string,
): string {
  const lines: string[] = [];
  const base = {
    cwd,
    sessionId,
    version: "2.1.197",
    isSidechain: false,
    ...(timestamp ? { timestamp } : {}),
  };
  steps.forEach((s, i) => {
    if ("record" in s) {
      lines.push(JSON.stringify({ ...base, ...s.record }));
    } else if ("prompt" in s) {
      lines.push(
        JSON.stringify({ ...base, type: "user", message: { role: "user", content: s.prompt } }),
      );
    } else if ("say" in s) {
      lines.push(JSON.stringify({
        ...base,
        type: "assistant",
        message: { role: "assistant", content: [{ type: "text", text: s.say }] },
      }));
    } else {
      const id = `toolu_${i}`;
      lines.push(JSON.stringify({
        ...base,
        type: "assistant",
        message: {
          role: "assistant",
          content: [{ type: "tool_use", id, name: s.tool, input: s.input }],
        },
      }));
      if (s.result !== undefined || s.error) {
        lines.push(JSON.stringify({
          ...base,
          type: "user",
          message: {
            role: "user",
            content: [{
              type: "tool_result",
              tool_use_id: id,
              content: s.result ?? "error",
              ...(s.error ? { is_error: true } : {}),
            }],
          },
        }));
      }
    }
  });
  return lines.join("\n") + "\n";
}

/** Writes the transcript where Claude Code would, under `home`; returns its path. */
export async function placeTranscript(
  home: string,
  root: string,
  sessionId: string,
  body: string,
): Promise<string> {
  const dir = `${home}/.claude/projects/${encodeProjectDir(root)}`;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}/${sessionId}.jsonl`;
  await Deno.writeTextFile(path, body);
  return path;
}

/**
 * A record naming the session, its working directory `cwd` and its start: read first, it closes
 * the reader's header, after which result lines may go unparsed.
 */
export function headerLine(cwd: string): string {
  return JSON.stringify({
    type: "system",
    sessionId: "s1",
    cwd,
    timestamp: "2026-11-30T10:00:00.000Z",
  });
}

/**
 * The facts of `text` with every line parsed: each line gets a leading space, which JSON.parse
 * reads past and which keeps it out of the reader's unparsed skip (lib/transcript/claude.ts
 * `resultsOnly` wants `{` first). The reference the skip must agree with.
 */
export function everyLineParsed(text: string, opts: ReaderOptions): TranscriptFacts {
  return parseTranscript(text.split("\n").map((l) => (l === "" ? l : " " + l)).join("\n"), opts);
}

/** `read()`'s value and how many times JSON.parse was called meanwhile. */
export function countingParses<T>(read: () => T): { value: T; parses: number } {
  const parse = JSON.parse;
  let parses = 0;
  JSON.parse = (text, reviver) => {
    parses++;
    return parse(text, reviver);
  };
  try {
    const value = read();
    return { value, parses };
  } finally {
    JSON.parse = parse;
  }
}

/** A Claude Code assistant record whose usage adds up to `used` tokens. */
export function assistantLine(used: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: "assistant",
    isSidechain: false,
    message: {
      role: "assistant",
      model: "claude-opus-4-8",
      content: [{ type: "text", text: "ok" }],
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: used - 20,
        output_tokens: 10,
      },
    },
    timestamp: "2026-11-30T11:59:00.000Z",
    ...extra,
  });
}
