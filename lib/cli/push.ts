/**
 * `push [--remote NAME]`: the store's handovers and parked items to the project's git remote
 * (refs/session/store), merged with what is there, never forcing (lib/sync/).
 * @module
 */

import type { Context } from "./run_context.ts";
import { runSync, syncSpec } from "./sync_run.ts";

/** Arguments and help of `push`. */
export const SPEC = syncSpec(
  "push",
  "Merges handovers and parked items into the git remote's refs/session/store.",
  [
    "The remote's items are merged in first (as pull does); a remote that moved meanwhile is",
    "fetched and merged again, never overwritten. A handover whose slug the remote already has",
    "for another document goes there as <slug>-from-<user-host>. The store changes only after",
    "the remote took the push. Work tree, index, HEAD and branches are never touched.",
    "",
    "Example: session.ts push --remote origin",
  ],
);

/** Runs `push`. */
export function run(args: string[], ctx: Context): Promise<number> {
  return runSync("push", SPEC, args, ctx);
}
