/**
 * `install [--user | --local] [--dir DIR]`: registers the restore hook for `/clear` and keeps the
 * store out of git.
 * @module
 */

import { CLAUDE, type Scope } from "../hook_target.ts";
import { commandFor, ignoreState, register } from "../registration.ts";
import { SettingsError } from "../settings.ts";
import { type ModeSpec, parseOrHelp } from "./args.ts";
import { type Context, EXIT, storeFor, UsageError } from "./context.ts";

/** The flags install and uninstall share: which settings file. */
export const SCOPE_FLAGS: ModeSpec["flags"] = {
  user: { type: "boolean", help: "~/.claude/settings.json (every project)" },
  local: { type: "boolean", help: ".claude/settings.local.json (this checkout, not committed)" },
};

/** Arguments and help of `install`. */
export const SPEC: ModeSpec = {
  mode: "install",
  usage: "install [--user | --local] [--dir DIR]",
  summary: 'Registers session_restore.ts as the SessionStart hook (matcher "clear") in ' +
    "<root>/.claude/settings.json.",
  flags: SCOPE_FLAGS,
  notes: [
    "Keeps the file's other keys and comments; running it again changes nothing.",
    "--user: the hook finds the project from $CLAUDE_PROJECT_DIR when it runs.",
    "Adds .claude/state/ to the project's .gitignore.",
  ],
};

/** The scope the flags name; both at once is a usage error. */
export function scopeOf(flags: Record<string, unknown>): Scope {
  if (flags.user && flags.local) {
    throw new UsageError("--user and --local exclude each other: pick one.");
  }
  return flags.user ? "user" : flags.local ? "local" : "project";
}

/** Runs `install`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = await parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const scope = scopeOf(a.flags);
  const root = storeFor(ctx, a.dir).root;
  const path = CLAUDE.settingsPath(scope, { root, env: ctx.env });
  let change;
  try {
    change = await register(path, CLAUDE, commandFor(scope, root));
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    ctx.err(
      `session install: ${path}: ${err.message}. Fix the file and rerun; nothing was changed.`,
    );
    return EXIT.notFound;
  }
  ctx.out(
    change === "unchanged"
      ? `Already installed: SessionStart (clear) hook in ${path}`
      : `Installed${
        change === "updated" ? " (updated)" : ""
      }: SessionStart (clear) hook in ${path}`,
  );
  if (await ignoreState(root)) ctx.out(`Added .claude/state/ to ${root}/.gitignore`);
  return EXIT.ok;
}
