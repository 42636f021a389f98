/**
 * A transcript file of either agent read into {@link TranscriptFacts}: a Codex rollout by
 * ./codex.ts, anything else by Claude Code's reader (./claude.ts), the facts redacted as they
 * come out ({@link redactedFacts}). The one place that chooses;
 * the Codex reader is imported only for a rollout, so the hooks' common path (Claude Code) never
 * loads it.
 * @module
 */

import { redactDeepLazily } from "../secrets/lazy.ts";
import type { RedactionCounts } from "../secrets/redact.ts";
import { readTranscript } from "./claude.ts";
import type * as Codex from "./codex.ts";
import type { ReaderOptions, TranscriptFacts } from "./facts.ts";
import { openTranscript } from "./open.ts";

/** True when the file at `path` starts like a Codex rollout (a `session_meta` record). */
export async function isCodexRollout(path: string): Promise<boolean> {
  try {
    using file = openTranscript(path);
    const buf = new Uint8Array(512);
    const n = await file.read(buf);
    const head = new TextDecoder().decode(buf.subarray(0, n ?? 0));
    return /^\s*\{[^\n]*"type"\s*:\s*"session_meta"/.test(head);
  } catch {
    return false;
  }
}

/** Codex's reader, loaded on first need (a computed specifier keeps it out of the static graph). */
export async function codexReader(): Promise<typeof Codex.readCodexTranscript> {
  const codex = import.meta.resolve("./codex.ts");
  return ((await import(codex)) as typeof Codex).readCodexTranscript;
}

/**
 * Reads the transcript at `path` with the reader for its agent. Rejects when the file cannot be
 * opened.
 */
export async function readAnyTranscript(
  path: string,
  opts: ReaderOptions,
): Promise<TranscriptFacts> {
  const read = (await isCodexRollout(path)) ? await codexReader() : readTranscript;
  return (await redactedFacts(await read(path, opts))).facts;
}

/**
 * `facts` with every text in them redacted (lib/secrets/lazy.ts), and what was taken out: done
 * where a transcript is read, before any prompt, task or path is flattened, cut or made a slug.
 */
export async function redactedFacts(
  facts: TranscriptFacts,
): Promise<{ facts: TranscriptFacts; counts: RedactionCounts }> {
  const { value, counts } = await redactDeepLazily({ ...facts, path: "" });
  return { facts: { ...value, path: facts.path }, counts };
}
