/**
 * What `push` and `pull` share at the CLI edge: their arguments, then parse, sync, print the lines
 * and the redaction note. Here, not in either mode, so each mode stays a leaf.
 * @module
 */

import { type ModeSpec, parseOrHelp } from "./args.ts";
import { EXIT } from "../errors.ts";
import { type Context, storeFor } from "./context.ts";
import { REMOTE_FLAG, syncLines } from "../sync/report.ts";

/** The `SPEC` of `push` or `pull`: the same arguments, each its own summary and notes. */
export function syncSpec(direction: "push" | "pull", summary: string, notes: string[]): ModeSpec {
  return {
    mode: direction,
    usage: `${direction} [--remote NAME] [--dir DIR]`,
    summary,
    flags: { remote: REMOTE_FLAG },
    notes,
  };
}

/** Runs `push` or `pull` with the mode's `spec`. */
export async function runSync(
  direction: "push" | "pull",
  spec: ModeSpec,
  args: string[],
  ctx: Context,
): Promise<number> {
  const a = parseOrHelp(spec, args, ctx);
  if (!a) return EXIT.ok;
  const remote = a.flags.remote as string | undefined;
  const { lines, note } = await syncLines(direction, storeFor(ctx, a.dir), { ...ctx, remote });
  if (note) ctx.err(note);
  for (const line of lines) ctx.out(line);
  return EXIT.ok;
}
