/**
 * `install [--user | --local] [--dir DIR]`: registers the restore hook for `/clear` and keeps the
 * store out of git.
 * @module
 */

import { type AgentSpec, settingsFile } from "../agents/targets.ts";
import { commandFor, ignoreState, register } from "../agents/registration.ts";
import { SettingsError } from "../agents/settings.ts";
import { EXIT, FailureError } from "../errors.ts";
import { type ModeSpec, parseOrHelp } from "./args.ts";
import { type Context, storeFor } from "./context.ts";
import { agentOf, SCOPE_FLAGS, scopeOf } from "./scope_flags.ts";

/** Arguments and help of `install`. */
export const SPEC: ModeSpec = {
  mode: "install",
  usage: "install [--agent NAME] [--user | --local] [--dir DIR]",
  summary: 'Registers session_restore.ts as the SessionStart hook (matcher "clear") in ' +
    "<root>/.claude/settings.json.",
  flags: SCOPE_FLAGS,
  notes: [
    "Keeps the file's other keys and comments; running it again changes nothing.",
    "--user: the hook finds the project from $CLAUDE_PROJECT_DIR when it runs.",
    "Adds .claude/state/ to the project's .gitignore.",
    "--agent codex: .codex/hooks.json (--user: ~/.codex/hooks.json); Codex asks you to trust it.",
    "--agent gemini: .gemini/settings.json (--user: ~/.gemini/settings.json), SessionStart " +
    "(clear) and BeforeAgent.",
  ],
};

/** What the agent still needs from the user once the hook is in place. */
function afterInstall(agent: AgentSpec): string[] {
  if (agent.name === "codex") {
    return [
      "Codex runs a new hook only after you trust it: at the next `codex` start choose " +
      '"Trust all and continue" (or review it in /hooks).',
    ];
  }
  if (agent.name === "gemini") {
    return [
      "Gemini runs project hooks only in a trusted folder. After /clear it says the handover " +
      "will be restored with your next message, and sends it with that message.",
    ];
  }
  return [];
}

/** Runs `install`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = await parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const agent = agentOf(a.flags);
  const scope = scopeOf(a.flags, agent);
  const root = storeFor(ctx, a.dir).root;
  const command = commandFor(scope, root, agent.name);
  const paths = agent.targets.map((target) =>
    settingsFile(agent.name, target, scope, { root, env: ctx.env })
  );
  for (const [i, target] of agent.targets.entries()) {
    const path = paths[i];
    const event = `${target.hookPath.at(-1)}${
      target.hookPath.at(-1) === "SessionStart" ? " (clear)" : ""
    }`;
    let change;
    try {
      change = await register(path, target, command);
    } catch (err) {
      if (!(err instanceof SettingsError)) throw err;
      throw new FailureError(
        `${path}: ${err.message}. Fix the file and rerun; nothing was changed.`,
        { cause: err },
      );
    }
    ctx.out(
      change === "unchanged"
        ? `Already installed: ${event} hook in ${path}`
        : `Installed${change === "updated" ? " (updated)" : ""}: ${event} hook in ${path}`,
    );
  }
  for (const line of afterInstall(agent)) ctx.out(line);
  if (await ignoreState(root)) ctx.out(`Added .claude/state/ to ${root}/.gitignore`);
  return EXIT.ok;
}
