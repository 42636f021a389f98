/**
 * `uninstall [--user | --local] [--dir DIR]`: removes exactly the hook `install` added.
 * @module
 */

import { CLAUDE } from "../hook_target.ts";
import { unregister } from "../registration.ts";
import { SettingsError } from "../settings.ts";
import { type Context, EXIT, storeFor } from "./context.ts";
import { type ModeSpec, parseOrHelp } from "./args.ts";
import { SCOPE_FLAGS, scopeOf } from "./install.ts";

/** Arguments and help of `uninstall`. */
export const SPEC: ModeSpec = {
  mode: "uninstall",
  usage: "uninstall [--user | --local] [--dir DIR]",
  summary: "Removes the SessionStart hook install added, and nothing else, from the same file.",
  flags: SCOPE_FLAGS,
  notes: [
    "A settings file left empty ({}) is deleted. The .gitignore line and the store are kept.",
  ],
};

/** Runs `uninstall`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = await parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const root = storeFor(ctx, a.dir).root;
  const path = CLAUDE.settingsPath(scopeOf(a.flags), { root, env: ctx.env });
  try {
    if (!(await unregister(path, CLAUDE))) {
      ctx.err(`session uninstall: no session hook in ${path}; nothing to remove.`);
      return EXIT.notFound;
    }
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    ctx.err(
      `session uninstall: ${path}: ${err.message}. Fix the file and rerun; nothing was changed.`,
    );
    return EXIT.notFound;
  }
  ctx.out(`Uninstalled: SessionStart hook removed from ${path}`);
  return EXIT.ok;
}
