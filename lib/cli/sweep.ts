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
import { renderUnlanded, sweepProject, UNLANDED_REL } from "../handover/sweep.ts";
import { isoStamp } from "../store/time.ts";
import { addCounts, redactDeep, redactionNote } from "../secrets/redact.ts";
import { type ModeSpec, parseOrHelp } from "./args.ts";
import { type Context, storeFor } from "./context.ts";
import { SESSION_FLAG, TRANSCRIPT_FLAG, transcriptInputs } from "./flags.ts";

/** Arguments and help of `sweep`. */
export const SPEC: ModeSpec = {
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
};

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
      transcript: a.flags.transcript as string | undefined,
      session: a.flags.session as string | undefined,
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
  if (a.flags.json) ctx.out(JSON.stringify(sweep, null, 2));
  else ctx.out(`${table}\nWritten to ${file}`);
  // Nothing unlanded is the mode's normal "no" (documented exit 1), not a failure.
  return sweep.candidates.length ? EXIT.ok : EXIT.notFound;
}
