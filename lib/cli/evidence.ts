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
} from "../evidence.ts";

/** The `--since` flag, shared by `evidence` and `dump`. */
export const SINCE_FLAG = {
  type: "string",
  value: "SPEC",
  help: `when the session started: 90m, 8h, 2d or an ISO date (default ${DEFAULT_SINCE})`,
} as const;

/** Arguments and help of `evidence`. */
export const SPEC: ModeSpec = {
  mode: "evidence",
  usage: "evidence [--json] [--since SPEC] [--dir DIR]",
  summary: "Shows what `dump` will use: branch, changed files, commits, artifacts, parked items.",
  flags: {
    json: { type: "boolean", help: "print the evidence as one JSON object (shape: README)" },
    since: SINCE_FLAG,
  },
  notes: ["Example: session.ts evidence --since 3h --json"],
};

/** Gathers the evidence for a mode run with `--since` and `--dir` (shared with `dump`). */
export async function gather(
  ctx: Context,
  flags: { since?: string; dir?: string },
): Promise<Evidence> {
  const since = parseSince(flags.since ?? DEFAULT_SINCE, ctx.now);
  if (!since) {
    throw new UsageError(
      `--since "${flags.since}" is neither a duration (90m, 8h, 2d) nor an ISO date`,
    );
  }
  const store = storeFor(ctx, flags.dir);
  return collectEvidence({
    store,
    cwd: ctx.cwd,
    now: ctx.now,
    since,
    parked: await openParked(store),
  });
}

/** Runs `evidence`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const ev = await gather(ctx, { since: a.flags.since as string | undefined, dir: a.dir });
  ctx.out(a.flags.json ? JSON.stringify(ev, null, 2) : renderEvidence(ev));
  return EXIT.ok;
}
