/**
 * `pull [--remote NAME]`: the store's handovers and parked items from the project's git remote
 * (refs/session/store), merged into this store (lib/sync/).
 * @module
 */

import { type ModeSpec, parseOrHelp } from "./args.ts";
import { type Context, EXIT, storeFor } from "./context.ts";
import { pull } from "../sync/sync.ts";
import { whoAmI } from "../sync/identity.ts";
import { describe } from "../sync/report.ts";

/** Arguments and help of `pull`. */
export const SPEC: ModeSpec = {
  mode: "pull",
  usage: "pull [--remote NAME] [--dir DIR]",
  summary: "Brings handovers and parked items from the git remote's refs/session/store.",
  flags: {
    remote: {
      type: "string",
      value: "NAME",
      help: "the git remote (default: the branch's upstream remote, else origin)",
    },
  },
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
  const store = storeFor(ctx, a.dir);
  const report = await pull(store, {
    remote: a.flags.remote as string | undefined,
    now: ctx.now,
    who: await whoAmI(store.root, ctx.env),
  });
  for (const line of describe(report, "pull")) ctx.out(line);
  return EXIT.ok;
}
