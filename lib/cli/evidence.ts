/**
 * `evidence [--json] [--since SPEC]`: what `dump` will use, shown before writing anything —
 * redacted as `dump` will have it (the note on stderr says what was taken out).
 * @module
 */

import { EXIT } from "../errors.ts";
import { collectRedacted } from "../handover/evidence/collect.ts";
import { redactionNoteLazily } from "../secrets/lazy.ts";
import { renderEvidence } from "../handover/evidence/render.ts";
import { type ModeSpec, parseOrHelp } from "./args.ts";
import type { Context } from "./context.ts";
import { evidenceOptions, SESSION_FLAG, SINCE_FLAG, TRANSCRIPT_FLAG } from "./flags.ts";

/** Arguments and help of `evidence`. */
export const SPEC: ModeSpec = {
  mode: "evidence",
  usage: "evidence [--json] [--since SPEC] [--transcript PATH] [--session ID] [--dir DIR]",
  summary: "Shows what `dump` will use: branch, changed files, commits, artifacts, parked items.",
  flags: {
    json: { type: "boolean", help: "print the evidence as one JSON object (shape: docs/CLI.md)" },
    since: SINCE_FLAG,
    transcript: TRANSCRIPT_FLAG,
    session: SESSION_FLAG,
  },
  notes: ["Example: session.ts evidence --since 3h --json"],
};

/** Runs `evidence`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const { evidence: ev, redacted } = await collectRedacted(evidenceOptions(ctx, {
    since: a.flags.since as string | undefined,
    dir: a.dir,
    transcript: a.flags.transcript as string | undefined,
    session: a.flags.session as string | undefined,
  }));
  const note = await redactionNoteLazily(redacted);
  if (note) ctx.err(note);
  ctx.out(a.flags.json ? JSON.stringify(ev, null, 2) : renderEvidence(ev));
  return EXIT.ok;
}
