/**
 * Flags several modes share, and what they mean for a run: `--since` (the session's window),
 * `--transcript` and `--session` (which transcript to read), read into the inputs of the
 * evidence pipeline (lib/handover/evidence/collect.ts).
 * @module
 */

import { UsageError } from "../errors.ts";
import type { CollectOptions } from "../handover/evidence/collect.ts";
import { DEFAULT_SINCE, parseSince } from "../handover/evidence/window.ts";
import { transcriptEnv } from "../transcript/locate.ts";
import { type Context, storeFor } from "./run_context.ts";

/** The `--since` flag, shared by `evidence`, `dump` and `recover`. */
export const SINCE_FLAG = {
  type: "string",
  value: "SPEC",
  help: `when the session started: 90m, 8h, 2d or an ISO date (default ${DEFAULT_SINCE}, or ` +
    "the transcript's first record when later)",
} as const;

/** `--transcript PATH`, shared by `evidence`, `dump`, `sweep` and `recover`. */
export const TRANSCRIPT_FLAG = {
  type: "string",
  value: "PATH",
  help: "the Claude Code transcript (.jsonl) to read (default: this session's, then the " +
    "newest of this project)",
} as const;

/** `--session ID`, shared by `evidence`, `dump`, `sweep` and `recover`. */
export const SESSION_FLAG = {
  type: "string",
  value: "ID",
  help: "read the transcript of this Claude Code session id (default: CLAUDE_CODE_SESSION_ID)",
} as const;

/** The moment `--since` names (the default when absent); a usage error when it names none. */
export function sinceFlag(value: string | undefined, now: Date): Date {
  const since = parseSince(value ?? DEFAULT_SINCE, now);
  if (!since) {
    throw new UsageError(
      `--since "${value}" is neither a duration (90m, 8h, 2d) nor an ISO date, or it lies ` +
        "outside the years 0001–9999; give e.g. --since 8h. Nothing was written",
    );
  }
  return since;
}

/** Where to look for the transcript: the flags, then Claude Code's environment. */
export function transcriptInputs(
  ctx: Context,
  flags: { transcript?: string; session?: string },
) {
  const env = transcriptEnv(ctx.env);
  return {
    ...env,
    transcript: flags.transcript,
    sessionId: flags.session ?? env.sessionId,
    cwd: ctx.cwd,
  };
}

/**
 * What the evidence pipeline needs for a run with `--since`, `--transcript`, `--session` and
 * `--dir` (`evidence`, `dump`): the store, the window, where the transcript is.
 */
export function evidenceOptions(
  ctx: Context,
  flags: { since?: string; dir?: string; transcript?: string; session?: string },
): CollectOptions {
  const since = sinceFlag(flags.since, ctx.now);
  return {
    store: storeFor(ctx, flags.dir),
    now: ctx.now,
    since,
    sinceIsDefault: flags.since === undefined,
    transcript: transcriptInputs(ctx, flags),
  };
}
