/**
 * `--mcp` of `install`, `uninstall` and `doctor`: each mode hands its parsed flags here when
 * `--mcp` is given, and this registers, removes or checks the MCP server for the client `--agent`
 * names (lib/agents/mcp_registration.ts) and prints the mode's lines and Confidence block. Loaded
 * by those three modes only, and only with `--mcp`.
 * @module
 */

import { denoFinding } from "../agents/runtime.ts";
import {
  installMcp,
  mcpClientOf,
  mcpFindings,
  mcpRegistered,
  mcpScopeOf,
  SERVER,
  uninstallMcp,
} from "../agents/mcp_registration.ts";
import { ignoreState } from "../agents/registration.ts";
import { EXIT, NotFoundError } from "../errors.ts";
import { findGitTop, findStore } from "../store/store.ts";
import { point, renderConfidence } from "./confidence.ts";
import { type Context, storeFor } from "./run_context.ts";

/** The flags the three modes pass on. */
export interface McpFlags {
  flags: { agent?: string; user?: boolean; local?: boolean };
  dir?: string;
}

/** What the client still needs once the server is registered. */
const AFTER: Record<string, string> = {
  claude: "After /clear, /mcp__session__restore brings the handover back (Claude Code asks " +
    "once before it starts a server from a project's .mcp.json).",
  codex: "Codex reads a project's .codex/config.toml only in a trusted project.",
  gemini: "Gemini CLI starts it at its next launch (/mcp lists it).",
  qwen: "Qwen Code starts it at its next launch (/mcp lists it).",
  opencode: "opencode starts it at its next launch.",
  cursor: "Cursor lists it under its MCP settings; switch it on there.",
  vscode: "VS Code asks to trust the server the first time it starts it.",
};

/** `install --mcp`. */
export async function installMcpMode(a: McpFlags, ctx: Context): Promise<number> {
  const client = mcpClientOf(a.flags.agent);
  const scope = mcpScopeOf(a.flags, client);
  const root = storeFor(ctx, a.dir).root;
  const { path, change } = await installMcp(client, scope, root, ctx.env);
  ctx.out(
    change === "unchanged"
      ? `Already installed: MCP server "${SERVER}" in ${path}`
      : `Installed${change === "updated" ? " (updated)" : ""}: MCP server "${SERVER}" in ${path}`,
  );
  ctx.out(AFTER[client.name]);
  // The server's tools write the store, as the hooks do: kept out of git the same way.
  const home = findStore({ dir: root, cwd: root }).home ?? root;
  if (findGitTop(home) !== undefined && await ignoreState(home)) {
    ctx.out(`Added .claude/state/ to ${home}/.gitignore`);
  }
  const there = await mcpRegistered(client, scope, root, ctx.env);
  ctx.out(renderConfidence([
    there
      ? point(
        "registered",
        true,
        `re-read: ${client.label}'s entry "${SERVER}" runs session.ts mcp`,
      )
      : point(
        "registered",
        false,
        `re-read: no entry "${SERVER}" in ${path}`,
        "run session.ts doctor --mcp",
      ),
  ]));
  return EXIT.ok;
}

/** `uninstall --mcp`. */
export async function uninstallMcpMode(a: McpFlags, ctx: Context): Promise<number> {
  const client = mcpClientOf(a.flags.agent);
  const scope = mcpScopeOf(a.flags, client);
  const root = storeFor(ctx, a.dir).root;
  const { path, removed } = await uninstallMcp(client, scope, root, ctx.env);
  if (!removed) throw new NotFoundError(`no session MCP server in ${path}; nothing to remove.`);
  ctx.out(`Uninstalled: MCP server "${SERVER}" removed from ${path}`);
  const left = await mcpRegistered(client, scope, root, ctx.env);
  ctx.out(renderConfidence([
    left
      ? point("removed", false, `re-read: still in ${path}`, "run session.ts doctor --mcp")
      : point("removed", true, "re-read: none of ours left"),
  ]));
  return EXIT.ok;
}

/** `doctor --mcp`: Deno, and the registration in every scope the client has. */
export async function doctorMcpMode(a: McpFlags, ctx: Context): Promise<number> {
  const client = mcpClientOf(a.flags.agent);
  const root = storeFor(ctx, a.dir).root;
  const findings = [
    denoFinding(Deno.version.deno, {
      path: Deno.execPath(),
      env: ctx.env,
      windows: Deno.build.os === "windows",
      realPath: (path) => {
        try {
          return Deno.realPathSync(path);
        } catch {
          return undefined;
        }
      },
    }),
    ...await mcpFindings(client, root, ctx.env),
  ];
  const mark = { ok: "✓", fix: "✗", info: "·" };
  ctx.out(`session doctor --mcp: ${root}`);
  for (const f of findings) ctx.out(`${mark[f.status]} ${f.text}`);
  const fixes = findings.filter((f) => f.status === "fix").length;
  ctx.out(fixes === 0 ? "All good." : `${fixes} thing(s) to fix.`);
  ctx.out(renderConfidence([
    fixes
      ? point(
        "checks",
        false,
        `${fixes} of ${findings.length} checks found something to fix (✗ above)`,
        "do what each ✗ line says, then run doctor --mcp again",
      )
      : point("checks", true, `${findings.length} checks, none found anything to fix`),
  ]));
  return fixes === 0 ? EXIT.ok : EXIT.failure;
}
