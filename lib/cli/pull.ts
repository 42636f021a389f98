/**
 * `pull [--remote NAME]`: the store's handovers and parked items from the project's git remote
 * (refs/session/store), merged into this store (lib/sync/).
 * @module
 */

import type { Context } from "./run_context.ts";
import { runSync, syncSpec } from "./sync_run.ts";

/** Arguments and help of `pull`. */
export const SPEC = syncSpec(
  "pull",
  "Brings handovers and parked items from the git remote's refs/session/store.",
  [
    "Handovers are added (one with a slug already here is renamed <slug>-from-<user-host>);",
    "parked items are merged by slug, a drop on either side wins. Work tree, index, HEAD and",
    "branches are never touched.",
    "",
    "Example: session.ts pull --remote origin",
  ],
);

/** Runs `pull`. */
export function run(args: string[], ctx: Context): Promise<number> {
  return runSync("pull", SPEC, args, ctx);
}
