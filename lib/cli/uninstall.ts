/**
 * `uninstall [--user | --local] [--dir DIR]`: removes exactly the hooks `install` added (every
 * event, and an older SessionStart-only registration alike). No hook to remove is a
 * {@link NotFoundError} (exit 1).
 * @module
 */

import {
  linkTarget,
  readIfExists,
  settingsRoots,
  uninstallStatusLine,
  unregister,
} from "../agents/registration.ts";
import { findHooks, SettingsError } from "../agents/settings.ts";
import { count, type Point, point, renderConfidence } from "./confidence.ts";
import { settingsFile } from "../agents/targets.ts";
import { EXIT, FailureError, NotFoundError } from "../errors.ts";
import type { Context } from "./run_context.ts";
import { modeSpec, parseOrHelp } from "./args.ts";
import { MCP_FLAG, registrationTarget, SCOPE_FLAGS } from "./scope_flags.ts";

/** Arguments and help of `uninstall`. */
export const SPEC = modeSpec({
  mode: "uninstall",
  usage: "uninstall [--mcp] [--agent NAME] [--user | --local] [--dir DIR]",
  summary: "Removes the hooks install added (SessionStart, SessionEnd, PreCompact, " +
    "UserPromptSubmit) and its status line, and nothing else, from the same file.",
  flags: { ...SCOPE_FLAGS, ...MCP_FLAG },
  notes: [
    "A settings file left empty ({}) is deleted. The .gitignore line and the store are kept.",
  ],
});

/** The `--mcp` half of the mode, loaded only when asked for (lib/cli/mcp_install.ts). */
function mcpModes(): Promise<typeof import("./mcp_install.ts")> {
  return import(import.meta.resolve("./mcp_install.ts"));
}

/** Runs `uninstall`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  if (a.flags.mcp) return await (await mcpModes()).uninstallMcpMode(a, ctx);
  const { agent, scope, root } = registrationTarget(a, ctx);
  const removed: string[] = [];
  // Every file install wrote: with --local, the repository's worktrees' too.
  const all = settingsRoots(scope, root).map((r) => ({ root: r, env: ctx.env }));
  const inputs = all[0];
  for (const target of agent.targets) settingsFile(agent.name, target, scope, inputs);
  // Reverse order: a file shared by two registrations (Gemini) is emptied by the last one.
  for (
    const [target, path] of all.flatMap((i) =>
      [...agent.targets].reverse().map((t) => [t, t.settingsPath(scope, i)] as const)
    )
  ) {
    try {
      if (await unregister(path, target)) {
        removed.push(`${target.hookPath.at(-1)} hook removed from ${path}`);
      }
    } catch (err) {
      if (!(err instanceof SettingsError)) throw err;
      throw new FailureError(
        `${path}: ${err.message}. Fix the file and rerun; nothing was changed.`,
        { cause: err },
      );
    }
  }
  const settings = agent.targets[0].settingsPath(scope, inputs);
  const statusLine = agent.name === "claude" && await uninstallStatusLine(settings);
  if (statusLine) ctx.out(`Uninstalled: status line removed from ${settings}`);
  if (removed.length === 0 && !statusLine) {
    const path = agent.targets[0].settingsPath(scope, inputs);
    throw new NotFoundError(`no session hook in ${path}; nothing to remove.`);
  }
  for (const line of removed.reverse()) ctx.out(`Uninstalled: ${line}`);
  // Each file read again: none of ours is left in it.
  const left: string[] = [];
  for (
    const [target, path] of all.flatMap((i) =>
      agent.targets.map((t) => [t, t.settingsPath(scope, i)] as const)
    )
  ) {
    const text = await readIfExists(await linkTarget(path)) ?? "";
    if (findHooks(text, target).length) left.push(`${target.hookPath.at(-1)} in ${path}`);
  }
  ctx.out(renderConfidence([uninstallPoint(removed.length, left)]));
  return EXIT.ok;
}

/** The point of an uninstall (pure): none of our hooks left in the files, on a re-read. */
export function uninstallPoint(removed: number, left: string[]): Point {
  return left.length
    ? point("removed", false, `re-read: still there: ${left.join(", ")}`, "run session.ts doctor")
    : point("removed", true, `${count(removed, "hook")} removed; re-read: none of ours left`);
}
