/**
 * `uninstall [--user | --local] [--dir DIR]`: removes exactly the hook `install` added.
 * @module
 */

import { CLAUDE } from "../hook_target.ts";
import { unregister } from "../registration.ts";
import { SettingsError } from "../settings.ts";
import { type Context, EXIT, storeFor } from "./context.ts";
import { parseScopeArgs } from "./install.ts";

/** Help text of `uninstall`. */
export const HELP = `Usage: session.ts uninstall [--user | --local] [--dir DIR]

Removes the SessionStart hook that install added (and nothing else) from the same file as
install: .claude/settings.json, --local .claude/settings.local.json, --user ~/.claude/settings.json.
A settings file left empty ({}) is deleted. The .gitignore line and the store are kept.`;

/** Runs `uninstall`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const opts = parseScopeArgs(args);
  if (opts.help) {
    ctx.out(HELP);
    return EXIT.ok;
  }
  const root = storeFor(ctx, opts.dir).root;
  const path = CLAUDE.settingsPath(opts.scope, { root, env: ctx.env });
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
