/**
 * `push [--remote NAME]`: the store's handovers and parked items to the project's git remote
 * (refs/session/store), merged with what is there, never forcing (lib/sync/).
 * @module
 */

import { type ModeSpec, parseOrHelp } from "./args.ts";
import { EXIT } from "../errors.ts";
import { type Context, storeFor } from "./context.ts";
import { REMOTE_FLAG, syncLines } from "../sync/report.ts";

/** Arguments and help of `push`. */
export const SPEC: ModeSpec = {
  mode: "push",
  usage: "push [--remote NAME] [--dir DIR]",
  summary: "Merges handovers and parked items into the git remote's refs/session/store.",
  flags: { remote: REMOTE_FLAG },
  notes: [
    "The remote's items are merged in first (as pull does); a remote that moved meanwhile is",
    "fetched and merged again, never overwritten. A handover whose slug the remote already has",
    "for another document goes there as <slug>-from-<user-host>. The store changes only after",
    "the remote took the push. Work tree, index, HEAD and branches are never touched.",
    "",
    "Example: session.ts push --remote origin",
  ],
};

/** Runs `push`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = await parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const remote = a.flags.remote as string | undefined;
  const { lines, note } = await syncLines("push", storeFor(ctx, a.dir), { ...ctx, remote });
  if (note) ctx.err(note);
  for (const line of lines) ctx.out(line);
  return EXIT.ok;
}
