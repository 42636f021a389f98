/**
 * The flags `install`, `uninstall` and `doctor` share — which agent (`--agent`), which settings
 * file (`--user`, `--local`) — and reading them into an agent and a scope. Here, not in one of
 * those modes, so each mode stays a leaf.
 * @module
 */

import { AGENTS, type AgentSpec, type Scope } from "../agents/targets.ts";
import { UsageError } from "../errors.ts";
import type { ModeSpec, ParsedArgs } from "./args.ts";
import { type Context, storeFor } from "./run_context.ts";

/** The flags install, uninstall and doctor share: which agent. */
export const AGENT_FLAG: ModeSpec["flags"] = {
  agent: {
    type: "string",
    value: "NAME",
    help: "claude (default), codex (.codex/hooks.json), gemini (.gemini/settings.json), qwen " +
      "(.qwen/settings.json) or opencode (.opencode/plugins/)",
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

/** What install and uninstall act on: the agent, its settings scope, and the project root. */
export function registrationTarget(
  a: Pick<ParsedArgs, "flags" | "dir">,
  ctx: Context,
): { agent: AgentSpec; scope: Scope; root: string } {
  const agent = agentOf(a.flags);
  return { agent, scope: scopeOf(a.flags, agent), root: storeFor(ctx, a.dir).root };
}
