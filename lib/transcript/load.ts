/**
 * The one entry the modes use: locate the session's transcript, choose the reader for its agent
 * (a Codex rollout, else Claude Code's transcript), read it into {@link TranscriptFacts}; and
 * the locate inputs taken from the process environment. Never throws: a missing or unreadable
 * transcript is a reason, which the modes report.
 * @module
 */

import { readTranscript } from "./claude.ts";
import type { ReaderOptions, TranscriptFacts } from "./facts.ts";
import {
  flagPath,
  locateCodexTranscript,
  type Located,
  type LocateInputs,
  locateTranscript,
} from "./locate.ts";
import { codexReader, isCodexRollout, redactedFacts } from "./read.ts";
import type { RedactionCounts } from "../secrets/redact.ts";

/** A located and read transcript, or why there is none. */
export interface Loaded {
  /** Redacted (read.ts `redactedFacts`). */
  facts?: TranscriptFacts;
  located: Located;
  /** What redaction took out of the facts. */
  redacted?: RedactionCounts;
}

/** What {@link loadTranscript} takes: where to look, and `relRoot` for relative paths. */
export type LoadInputs = LocateInputs & { relRoot?: string };

/**
 * Locates and reads the session's transcript; never throws. `relRoot` (default `root`) is the
 * directory touched paths are made relative to, e.g. the git top-level.
 */
export async function loadTranscript(inputs: LoadInputs): Promise<Loaded> {
  const codex = await loadCodexTranscript(inputs);
  if (codex) return codex;
  const located = await locateTranscript(inputs);
  if (!located.path) return { located };
  return await readLocated(located, inputs, readTranscript);
}

/**
 * The Codex side of {@link loadTranscript}: a `--transcript` that is a Codex rollout, or, inside
 * Codex (`CODEX_THREAD_ID` set, no Claude Code session id), that session's rollout. Undefined
 * when neither applies (the caller reads Claude Code's transcript). Never throws.
 */
export async function loadCodexTranscript(inputs: LoadInputs): Promise<Loaded | undefined> {
  let located: Located;
  if (inputs.transcript) {
    const p = flagPath({ transcript: inputs.transcript, cwd: inputs.cwd });
    if (!(await isCodexRollout(p))) return undefined;
    located = { path: p, how: "flag" };
  } else if (inputs.codexThreadId && !inputs.sessionId) {
    located = await locateCodexTranscript({
      root: inputs.root,
      sessionId: inputs.codexThreadId,
      codexHome: inputs.codexHome,
      home: inputs.home,
    });
    if (!located.path) return { located };
  } else {
    return undefined;
  }
  return await readLocated(located, inputs, await codexReader());
}

/** Reads the file `located` found with `read`; a failure becomes the reason. */
async function readLocated(
  located: Located,
  inputs: LoadInputs,
  read: (path: string, opts: ReaderOptions) => Promise<TranscriptFacts>,
): Promise<Loaded> {
  try {
    const raw = await read(located.path!, { root: inputs.relRoot ?? inputs.root });
    const { facts, counts } = await redactedFacts(raw);
    return { facts, located, redacted: counts };
  } catch (err) {
    return { located: { reason: `cannot read ${located.path}: ${(err as Error).message ?? err}` } };
  }
}
