/**
 * `evidence [--json] [--since SPEC]`: what `dump` will use, shown before writing anything —
 * redacted as `dump` will have it (the note on stderr says what was taken out).
 * @module
 */

import { EXIT } from "../errors.ts";
import { collectRedacted } from "../handover/evidence/collect.ts";
import { redactionNoteLazily } from "../secrets/lazy.ts";
import { renderEvidence } from "../handover/evidence/render.ts";
import type { Evidence } from "../handover/evidence/model.ts";
import { modeSpec, parseOrHelp } from "./args.ts";
import { count, type Point, point, renderConfidence } from "./confidence.ts";
import type { Context } from "./run_context.ts";
import { evidenceOptions, SESSION_FLAG, SINCE_FLAG, TRANSCRIPT_FLAG } from "./flags.ts";

/** Arguments and help of `evidence`. */
export const SPEC = modeSpec({
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
});

/** Runs `evidence`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const { evidence: ev, redacted } = await collectRedacted(evidenceOptions(ctx, {
    since: a.flags.since,
    dir: a.dir,
    transcript: a.flags.transcript,
    session: a.flags.session,
  }));
  const note = await redactionNoteLazily(redacted);
  if (note) ctx.err(note);
  const points = evidencePoints(ev);
  ctx.out(
    a.flags.json
      ? JSON.stringify({ ...ev, confidence: points }, null, 2)
      : `${renderEvidence(ev)}\n${renderConfidence(points)}`,
  );
  return EXIT.ok;
}

/**
 * The points of the evidence (pure): what a dump's files table can be backed by — git (inside a
 * repository), and the session's transcript (merged, so the files and tasks are the session's).
 */
export function evidencePoints(ev: Evidence): Point[] {
  const git = ev.git
    ? point(
      "git",
      true,
      `${count(ev.files.filter((f) => f.source === "git").length, "file")} changed, ${
        count(ev.commits.length, "commit")
      } since ${ev.since}`,
    )
    : point(
      "git",
      false,
      "not a git repository: no diff, commits or untracked files",
      "run it inside the project's repository, or give --dir",
    );
  const seen = ev.files.filter((f) => f.line !== undefined).length;
  const transcript = ev.transcript
    ? point(
      "transcript",
      true,
      `merged: ${count(seen, "file")} the session touched, ${ev.transcript}`,
    )
    : point(
      "transcript",
      false,
      `none merged${ev.transcriptNote ? ` (${ev.transcriptNote})` : ""}`,
      "give --transcript PATH or --session ID",
    );
  return [git, transcript];
}
