/**
 * The flags `install`, `uninstall` and `doctor` share — which agent (`--agent`), which settings
 * file (`--user`, `--local`) — and reading them into an agent and a scope. Here, not in one of
 * those modes, so each mode stays a leaf.
 * @module
 */

import { AGENTS, type AgentSpec, type Scope } from "../agents/targets.ts";
import { UsageError } from "../errors.ts";
import { isAgent } from "../frame/budget.ts";
import type { FlagSpecs } from "./args.ts";
import { type Context, storeFor } from "./run_context.ts";

/** The flags install, uninstall and doctor share: which agent. */
export const AGENT_FLAG = {
  agent: {
    type: "string",
    value: "NAME",
    help: "claude (default), codex (.codex/hooks.json), gemini (.gemini/settings.json), qwen " +
      "(.qwen/settings.json), opencode (.opencode/plugins/), copilot (.github/hooks/), kilo " +
      "(.kilo/plugins/), droid (.factory/settings.json) or cline (.cline/plugins/)",
  },
} as const satisfies FlagSpecs;

/** `--mcp`, shared by install, uninstall and doctor: the MCP server instead of the hooks. */
export const MCP_FLAG = {
  mcp: {
    type: "boolean",
    help: "the MCP server (session.ts mcp) instead of the hooks, for --agent claude (.mcp.json), " +
      "codex, gemini, qwen, opencode, cursor (.cursor/mcp.json) or vscode (.vscode/mcp.json)",
  },
} as const satisfies FlagSpecs;

/** The flags install and uninstall share: which agent, which settings file. */
export const SCOPE_FLAGS = {
  ...AGENT_FLAG,
  user: { type: "boolean", help: "the agent's user settings, e.g. ~/.claude/settings.json" },
  local: { type: "boolean", help: ".claude/settings.local.json (Claude Code only; not committed)" },
} as const satisfies FlagSpecs;

/** The agent `--agent` names (default Claude Code); an unknown name is a usage error. */
export function agentOf(flags: { agent?: string }): AgentSpec {
  const name = flags.agent ?? "claude";
  if (!isAgent(name)) {
    throw new UsageError(
      `unknown agent "${name}": --agent takes ${Object.keys(AGENTS).join(", ")}.`,
    );
  }
  return AGENTS[name];
}

/** The scope the flags name; both at once, or one the agent lacks, is a usage error. */
export function scopeOf(
  flags: { user?: boolean; local?: boolean },
  agent: AgentSpec = AGENTS.claude,
): Scope {
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
  a: { flags: { agent?: string; user?: boolean; local?: boolean }; dir?: string },
  ctx: Context,
): { agent: AgentSpec; scope: Scope; root: string } {
  const agent = agentOf(a.flags);
  return { agent, scope: scopeOf(a.flags, agent), root: storeFor(ctx, a.dir).root };
}
