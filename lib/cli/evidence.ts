/**
 * `evidence [--json] [--since SPEC]`: what `dump` will use, shown before writing anything.
 * @module
 */

import { type ModeSpec, parseOrHelp } from "./args.ts";
import { type Context, EXIT, storeFor, UsageError } from "./context.ts";
import {
  collectEvidence,
  DEFAULT_SINCE,
  type Evidence,
  openParked,
  parseSince,
  renderEvidence,
} from "../handover/evidence.ts";
import { transcriptEnv } from "../transcript/load.ts";

/** The `--since` flag, shared by `evidence` and `dump`. */
export const SINCE_FLAG = {
  type: "string",
  value: "SPEC",
  help: `when the session started: 90m, 8h, 2d or an ISO date (default ${DEFAULT_SINCE}, or ` +
    "the transcript's first record when later)",
} as const;

/** `--transcript PATH`, shared by `evidence`, `dump` and `recover`. */
export const TRANSCRIPT_FLAG = {
  type: "string",
  value: "PATH",
  help: "the Claude Code transcript (.jsonl) to read (default: this session's, then the " +
    "newest of this project)",
} as const;

/** `--session ID`, shared by `evidence`, `dump` and `recover`. */
export const SESSION_FLAG = {
  type: "string",
  value: "ID",
  help: "read the transcript of this Claude Code session id (default: CLAUDE_CODE_SESSION_ID)",
} as const;

/** Arguments and help of `evidence`. */
export const SPEC: ModeSpec = {
  mode: "evidence",
  usage: "evidence [--json] [--since SPEC] [--transcript PATH] [--session ID] [--dir DIR]",
  summary: "Shows what `dump` will use: branch, changed files, commits, artifacts, parked items.",
  flags: {
    json: { type: "boolean", help: "print the evidence as one JSON object (shape: README)" },
    since: SINCE_FLAG,
    transcript: TRANSCRIPT_FLAG,
    session: SESSION_FLAG,
  },
  notes: ["Example: session.ts evidence --since 3h --json"],
};

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

/** Gathers the evidence for a mode run with `--since` and `--dir` (shared with `dump`). */
export async function gather(
  ctx: Context,
  flags: { since?: string; dir?: string; transcript?: string; session?: string },
): Promise<Evidence> {
  const since = sinceFlag(flags.since, ctx.now);
  const store = storeFor(ctx, flags.dir);
  return collectEvidence({
    store,
    cwd: ctx.cwd,
    now: ctx.now,
    since,
    parked: await openParked(store),
    transcript: transcriptInputs(ctx, flags),
    sinceIsDefault: flags.since === undefined,
  });
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

/** Runs `evidence`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = await parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const ev = await gather(ctx, {
    since: a.flags.since as string | undefined,
    dir: a.dir,
    transcript: a.flags.transcript as string | undefined,
    session: a.flags.session as string | undefined,
  });
  ctx.out(a.flags.json ? JSON.stringify(ev, null, 2) : renderEvidence(ev));
  return EXIT.ok;
}
