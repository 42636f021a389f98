/**
 * `sweep [--json]`: the numbered "Unlanded" table — open parked items, the transcript's unfinished
 * tasks, unanswered questions and deferrals, and what git holds that is not landed (uncommitted
 * and untracked files, stashes, unpushed commits) — printed and written atomically to
 * `<root>/.temp/session/unlanded.md`. What git and the transcript say is redacted first (commit
 * subjects, paths, tasks, questions): the table, the file and `--json` are clean, and stderr says
 * how many secrets of which kinds were taken out.
 * @module
 */

import { EXIT, failedLeaving, FailureError } from "../errors.ts";
import { writeFileAtomic } from "../fs/atomic.ts";
import { join, pathOutside } from "../fs/path.ts";
import {
  type Candidate,
  type CandidateKind,
  renderUnlanded,
  type Sweep,
  sweepProject,
  UNLANDED_REL,
} from "../handover/sweep.ts";
import { UNFINISHED_STATUSES } from "../transcript/facts.ts";
import { count, type Point, point, renderConfidence } from "./confidence.ts";
import { isoStamp } from "../store/time.ts";
import { addCounts, redactDeep, redactionNote } from "../secrets/redact.ts";
import { modeSpec, parseOrHelp } from "./args.ts";
import { type Context, storeFor } from "./run_context.ts";
import { SESSION_FLAG, TRANSCRIPT_FLAG, transcriptInputs } from "./flags.ts";

/** Arguments and help of `sweep`. */
export const SPEC = modeSpec({
  mode: "sweep",
  usage: "sweep [--json] [--transcript PATH] [--session ID] [--dir DIR]",
  summary: "Lists unlanded work: parked items, the session's unfinished tasks, unanswered " +
    "questions and deferrals, and what git holds uncommitted, untracked, stashed or unpushed.",
  flags: {
    json: { type: "boolean", help: "print the sweep as one JSON object (shape: docs/CLI.md)" },
    transcript: TRANSCRIPT_FLAG,
    session: SESSION_FLAG,
  },
  notes: [
    `Writes the table to <root>/${UNLANDED_REL}. Exit 1 when nothing is unlanded.`,
    "",
    "Example: session.ts sweep --json",
  ],
});

/** The transcript's kinds of candidate: each is traced to its line. */
const FROM_TRANSCRIPT = new Set<CandidateKind>(["task", "question", "deferral"]);

/**
 * Whether a row says where it was found, concretely: a transcript row its line
 * (`transcript:L<n>`), a parked one its PARKED.md line, a git one the git command that shows it.
 */
export function traceable(c: Candidate): boolean {
  if (FROM_TRANSCRIPT.has(c.kind)) {
    return c.line !== undefined && c.where === `transcript:L${c.line}`;
  }
  if (c.kind === "parked") return /^PARKED\.md:\d+$/.test(c.where);
  return c.where.trim() !== "";
}

/**
 * The points of a sweep (pure): every row traceable to where it was found, the transcript's task
 * list consulted, nothing already landed listed (a task row is an unfinished task; git's rows are
 * what git holds unlanded now, by how they are gathered).
 */
export function sweepPoints(sweep: Sweep): Point[] {
  const rows = sweep.candidates;
  const loose = rows.filter((c) => !traceable(c)).map((c) => `#${c.n}`);
  const lines = rows.filter((c) => FROM_TRANSCRIPT.has(c.kind)).length;
  const parked = rows.filter((c) => c.kind === "parked").length;
  const traced = loose.length
    ? point(
      "rows",
      false,
      `${loose.length} of ${rows.length} without the line they came from: ${loose.join(", ")}`,
      "check those rows by hand before parking them",
    )
    : point(
      "rows",
      true,
      rows.length
        ? `${
          count(rows.length, "row")
        }, each traced: ${lines} to a transcript line, ${parked} to ` +
          `PARKED.md, ${rows.length - lines - parked} to git`
        : "none to trace",
    );
  const tasks = rows.filter((c) => c.kind === "task");
  const consulted = sweep.transcript
    ? point("tasks", true, `transcript read: ${count(tasks.length, "unfinished task")}`)
    : point(
      "tasks",
      false,
      `no transcript read${sweep.transcriptNote ? ` (${sweep.transcriptNote})` : ""}`,
      "give --transcript PATH or --session ID",
    );
  const done = tasks.filter((c) => !UNFINISHED.has(c.status ?? "")).map((c) => `#${c.n}`);
  const landed = done.length
    ? point(
      "landed",
      false,
      `${done.length} task row(s) not pending or in progress: ${done.join(", ")}`,
      "leave finished work out",
    )
    : point("landed", true, "no finished task listed; git rows are what git holds unlanded now");
  return [traced, consulted, landed];
}

const UNFINISHED = new Set<string>(UNFINISHED_STATUSES);

/** Runs `sweep`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const store = storeFor(ctx, a.dir);
  const root = store.root;
  const file = join(root, UNLANDED_REL);
  const found = await sweepProject(
    store,
    isoStamp(ctx.now),
    file,
    transcriptInputs(ctx, {
      transcript: a.flags.transcript,
      session: a.flags.session,
    }),
  );
  // The paths that say where (root, file, transcript) locate things and stay as they are.
  const clean = redactDeep({ candidates: found.candidates, transcriptNote: found.transcriptNote });
  const { redacted, ...rest } = found;
  const sweep = { ...rest, ...clean.value };
  const note = redactionNote(addCounts(clean.counts, redacted ?? {}));
  if (note) ctx.err(note);
  const table = renderUnlanded(sweep);
  // Deno's --allow-write checks the path as given: a `.temp` symlinked out of the project would
  // let sweep write wherever it points. The sweep is shown as asked; the file is not written.
  const outside = pathOutside(root, join(root, ".temp/session"));
  if (outside !== undefined) {
    ctx.out(a.flags.json ? JSON.stringify(sweep, null, 2) : table);
    throw new FailureError(
      `${join(root, ".temp")} leads outside the project (to ${outside}); ` +
        `${UNLANDED_REL} was not written. Replace the symlink with a directory`,
    );
  }
  try {
    await Deno.mkdir(join(root, ".temp/session"), { recursive: true });
    await writeFileAtomic(file, table);
  } catch (err) {
    failedLeaving(err, `${UNLANDED_REL} was not written`);
  }
  const points = sweepPoints(sweep);
  if (a.flags.json) ctx.out(JSON.stringify({ ...sweep, confidence: points }, null, 2));
  else ctx.out(`${table}\nWritten to ${file}\n${renderConfidence(points)}`);
  // Nothing unlanded is the mode's normal "no" (documented exit 1), not a failure.
  return sweep.candidates.length ? EXIT.ok : EXIT.notFound;
}
