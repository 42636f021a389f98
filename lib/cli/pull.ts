/**
 * `pull [--remote NAME]`: the store's handovers and parked items from the project's git remote
 * (refs/session/store), merged into this store (lib/sync/).
 * @module
 */

import { type ModeSpec, parseOrHelp } from "./args.ts";
import { EXIT } from "../errors.ts";
import { type Context, storeFor } from "./context.ts";
import { REMOTE_FLAG, syncLines } from "../sync/report.ts";

/** Arguments and help of `pull`. */
export const SPEC: ModeSpec = {
  mode: "pull",
  usage: "pull [--remote NAME] [--dir DIR]",
  summary: "Brings handovers and parked items from the git remote's refs/session/store.",
  flags: { remote: REMOTE_FLAG },
  notes: [
    "Handovers are added (one with a slug already here is renamed <slug>-from-<user-host>);",
    "parked items are merged by slug, a drop on either side wins. Work tree, index, HEAD and",
    "branches are never touched.",
    "",
    "Example: session.ts pull --remote origin",
  ],
};

/** Runs `pull`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = await parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const remote = a.flags.remote as string | undefined;
  const { lines, note } = await syncLines("pull", storeFor(ctx, a.dir), { ...ctx, remote });
  if (note) ctx.err(note);
  for (const line of lines) ctx.out(line);
  return EXIT.ok;
}
