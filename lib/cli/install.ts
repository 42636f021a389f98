/**
 * `install [--user | --local] [--dir DIR]`: registers the restore hook for `/clear` and keeps the
 * store out of git.
 * @module
 */

import { CLAUDE, type Scope } from "../hook_target.ts";
import { commandFor, ignoreState, register } from "../registration.ts";
import { SettingsError } from "../settings.ts";
import { type Context, EXIT, storeFor, UsageError } from "./context.ts";

/** Parsed options of install / uninstall. */
export interface ScopeArgs {
  scope: Scope;
  dir?: string;
  help: boolean;
}

/** Parses `--user`, `--local`, `--dir DIR`, `--help`; anything else is a usage error. */
export function parseScopeArgs(args: string[], allowScope = true): ScopeArgs {
  const out: ScopeArgs = { scope: "project", help: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--help" || a === "-h") out.help = true;
    else if (allowScope && (a === "--user" || a === "--local")) {
      const scope = a.slice(2) as Scope;
      if (out.scope !== "project" && out.scope !== scope) {
        throw new UsageError("--user and --local exclude each other: pick one.");
      }
      out.scope = scope;
    } else if (a === "--dir" || a.startsWith("--dir=")) {
      const value = a === "--dir" ? args[++i] : a.slice(6);
      if (!value) throw new UsageError("--dir needs a directory: --dir DIR.");
      out.dir = value;
    } else {
      throw new UsageError(
        `unknown ${a.startsWith("-") ? "option" : "argument"} "${a}". ` +
          `Options: ${allowScope ? "--user | --local, " : ""}--dir DIR, --help.`,
      );
    }
  }
  return out;
}

/** Help text of `install`. */
export const HELP = `Usage: session.ts install [--user | --local] [--dir DIR]

Registers session_restore.ts as Claude Code's SessionStart hook (matcher "clear"):
  (default)  <root>/.claude/settings.json
  --local    <root>/.claude/settings.local.json
  --user     ~/.claude/settings.json (every project; root = $CLAUDE_PROJECT_DIR at run time)
Keeps the file's other keys and comments; running it again changes nothing.
Adds .claude/state/ to the project's .gitignore.`;

/** Runs `install`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const opts = parseScopeArgs(args);
  if (opts.help) {
    ctx.out(HELP);
    return EXIT.ok;
  }
  const root = storeFor(ctx, opts.dir).root;
  const path = CLAUDE.settingsPath(opts.scope, { root, env: ctx.env });
  let change;
  try {
    change = await register(path, CLAUDE, commandFor(opts.scope, root));
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
