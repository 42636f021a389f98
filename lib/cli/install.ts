/**
 * `install [--user | --local] [--dir DIR]`: registers the restore hook for `/clear` and keeps the
 * store out of git.
 * @module
 */

import {
  AGENTS,
  type AgentSpec,
  type HookTarget,
  type Scope,
  userSettingsProblem,
} from "../agents/targets.ts";
import { commandFor, ignoreState, register } from "../agents/registration.ts";
import { SettingsError } from "../agents/settings.ts";
import { type ModeSpec, parseOrHelp } from "./args.ts";
import { type Context, EXIT, storeFor, UsageError } from "./context.ts";

/** The flags install, uninstall and doctor share: which agent. */
export const AGENT_FLAG: ModeSpec["flags"] = {
  agent: {
    type: "string",
    value: "NAME",
    help: "claude (default), codex (.codex/hooks.json) or gemini (.gemini/settings.json)",
  },
};

/** The flags install and uninstall share: which agent, which settings file. */
export const SCOPE_FLAGS: ModeSpec["flags"] = {
  ...AGENT_FLAG,
  user: { type: "boolean", help: "the agent's user settings, e.g. ~/.claude/settings.json" },
  local: { type: "boolean", help: ".claude/settings.local.json (Claude Code only; not committed)" },
};

/** The agent `--agent` names (default Claude Code); an unknown name is a usage error. */
export function agentOf(flags: Record<string, unknown>): AgentSpec {
  const name = typeof flags.agent === "string" ? flags.agent : "claude";
  const agent = AGENTS[name];
  if (!agent) {
    throw new UsageError(
      `unknown agent "${name}": --agent takes ${Object.keys(AGENTS).join(", ")}.`,
    );
  }
  return agent;
}

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

/** The scope the flags name; both at once, or one the agent lacks, is a usage error. */
export function scopeOf(flags: Record<string, unknown>, agent: AgentSpec = AGENTS.claude): Scope {
  if (flags.user && flags.local) {
    throw new UsageError("--user and --local exclude each other: pick one.");
  }
  const scope = flags.user ? "user" : flags.local ? "local" : "project";
  if (!agent.scopes.includes(scope)) {
    throw new UsageError(
      `--${scope} does not apply to ${agent.label}: it has ${
        agent.scopes.map((s) => s === "project" ? "the project (default)" : `--${s}`).join(" and ")
      }.`,
    );
  }
  return scope;
}

/** The settings file of `target` for `scope`; a user scope without a usable home is a usage error. */
export function settingsFile(
  ctx: Context,
  agent: AgentSpec,
  target: HookTarget,
  scope: Scope,
  root: string,
): string {
  const path = target.settingsPath(scope, { root, env: ctx.env });
  const problem = scope === "user" ? userSettingsProblem(agent.name, path, ctx.env) : undefined;
  if (problem) throw new UsageError(problem);
  return path;
}

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
  const paths = agent.targets.map((target) => settingsFile(ctx, agent, target, scope, root));
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
      ctx.err(
        `session install: ${path}: ${err.message}. Fix the file and rerun; nothing was changed.`,
      );
      return EXIT.notFound;
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
