/**
 * What `push` and `pull` share at the CLI edge: their arguments, then parse, sync, print the lines
 * and the redaction note. Here, not in either mode, so each mode stays a leaf.
 * @module
 */

import { modeSpec, parseOrHelp } from "./args.ts";
import { EXIT } from "../errors.ts";
import { type Context, storeFor } from "./run_context.ts";
import { REMOTE_FLAG, syncLines } from "../sync/report.ts";
import type { SyncReport } from "../sync/sync.ts";
import { count, type Point, point, renderConfidence } from "./confidence.ts";

/** The `SPEC` of `push` or `pull`: the same arguments, each its own summary and notes. */
export function syncSpec(direction: "push" | "pull", summary: string, notes: string[]) {
  return modeSpec({
    mode: direction,
    usage: `${direction} [--remote NAME] [--dir DIR]`,
    summary,
    flags: { remote: REMOTE_FLAG },
    notes,
  });
}

/** Runs `push` or `pull` with the mode's `spec`. */
export async function runSync(
  direction: "push" | "pull",
  spec: ReturnType<typeof syncSpec>,
  args: string[],
  ctx: Context,
): Promise<number> {
  const a = parseOrHelp(spec, args, ctx);
  if (!a) return EXIT.ok;
  const remote = a.flags.remote;
  const { lines, note, report } = await syncLines(direction, storeFor(ctx, a.dir), {
    ...ctx,
    remote,
  });
  if (note) ctx.err(note);
  for (const line of lines) ctx.out(line);
  ctx.out(renderConfidence(syncPoints(report, direction)));
  return EXIT.ok;
}

/**
 * The points of a push or pull (pure): the remote reached (and, for a push, the commit it took),
 * and the merge lossless — a slug renamed on a collision, or an edit superseded by a newer one on
 * the other side, is ⚠: nothing is lost, but someone should look.
 */
export function syncPoints(r: SyncReport, direction: "push" | "pull"): Point[] {
  const reached = direction === "push"
    ? point(
      "remote",
      true,
      r.pushed
        ? `"${r.remote}" took ${r.pushed.slice(0, 12)}${
          r.attempts > 1 ? ` after ${r.attempts} attempts` : ""
        }`
        : `"${r.remote}" already holds this store`,
    )
    : point(
      "remote",
      true,
      r.empty ? `"${r.remote}" reached; it holds no store yet` : `"${r.remote}" fetched`,
    );
  const renamed = [...r.docsIn, ...r.docsOut].filter((d) => d.to !== d.from).length;
  const merge = renamed + r.superseded.length
    ? point(
      "merge",
      false,
      `${count(renamed, "handover")} renamed on a slug collision, ${
        count(r.superseded.length, "edit")
      } superseded (logged in dropped.jsonl)`,
      "look at the renamed handovers and the superseded edits (named above)",
    )
    : point("merge", true, "a union: nothing renamed, nothing superseded");
  return [reached, merge];
}
