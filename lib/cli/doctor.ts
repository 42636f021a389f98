/**
 * `doctor [--agent NAME] [--dir DIR]`: prints what lib/agents/doctor.ts finds — Deno's version,
 * the hook registration (and that its script still exists), the store and the gitignore — and
 * what to fix.
 * Exit 0 when nothing needs fixing, else 1: the report is the answer, not an error.
 * @module
 */

import { doctorFindings } from "../agents/doctor.ts";
import { MIN_DENO } from "../agents/runtime.ts";
import { SESSION_END_DEFAULT_BUDGET_MS } from "../agents/targets.ts";
import type { Finding } from "../agents/finding.ts";
import { findCheckout, linkedWorktrees } from "../store/repository.ts";
import { findStore, type Store } from "../store/store.ts";
import { adopt } from "../sync/adopt.ts";
import { adoptedLine } from "../sync/adopted_line.ts";
import { EXIT } from "../errors.ts";
import { type Context, storeFor } from "./run_context.ts";
import { modeSpec, parseOrHelp } from "./args.ts";
import { AGENT_FLAG, agentOf, MCP_FLAG } from "./scope_flags.ts";
import { count, type Point, point, renderConfidence } from "./confidence.ts";

/** Arguments and help of `doctor`. */
export const SPEC = modeSpec({
  mode: "doctor",
  usage: "doctor [--mcp] [--agent NAME] [--dir DIR]",
  summary: "Checks Deno, the hooks (SessionStart for clear and compact, SessionEnd, PreCompact; " +
    "that each script exists), the store and the gitignore; prints what to fix.",
  flags: { ...AGENT_FLAG, ...MCP_FLAG },
  notes: [
    `Prints the Deno it runs on and where bin/with-deno finds it (PATH, $DENO_INSTALL/bin, ` +
    `~/.deno/bin); one older than ${MIN_DENO} is a fix (upgrade: npm i -g deno).`,
    "Looks in .claude/settings.json, .claude/settings.local.json and ~/.claude/settings.json.",
    "--agent codex|gemini|qwen|opencode|copilot|kilo|droid|cline: their hook files instead (Codex, " +
    "Gemini, " +
    "Qwen: and whether the agent will run the hook).",
    "Flags an older registration (SessionStart only, Deno run by name instead of through " +
    "bin/with-deno, or a command with --v8-flags: run install " +
    "to update it in place), a hook registered both in settings and by the plugin, and a " +
    "SessionEnd only in the plugin when a draft would not fit Claude Code's " +
    `${SESSION_END_DEFAULT_BUDGET_MS / 1000} s SessionEnd budget.`,
    "Exits 1 when something needs fixing.",
  ],
});

/** The exit code of a report with something to fix (docs/CLI.md, "Exit codes"). */
const NEEDS_FIXING = 1;

/** The `--mcp` half of the mode, loaded only when asked for (lib/cli/mcp_install.ts). */
function mcpModes(): Promise<typeof import("./mcp_install.ts")> {
  return import(import.meta.resolve("./mcp_install.ts"));
}

/** Runs `doctor`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  if (a.flags.mcp) return await (await mcpModes()).doctorMcpMode(a, ctx);
  const agent = agentOf(a.flags);
  const store = storeFor(ctx, a.dir);
  const findings = [
    ...await doctorFindings(store, agent, ctx.env),
    ...await strandedFindings(store),
  ];
  const mark = { ok: "✓", fix: "✗", info: "·" };
  ctx.out(`session doctor: ${store.root}`);
  for (const f of findings) ctx.out(`${mark[f.status]} ${f.text}`);
  const fixes = findings.filter((f) => f.status === "fix").length;
  ctx.out(fixes === 0 ? "All good." : `${fixes} thing(s) to fix.`);
  ctx.out(renderConfidence([doctorPoint(findings.length, fixes)]));
  return fixes === 0 ? EXIT.ok : NEEDS_FIXING;
}

/**
 * Stores older versions (or a sandboxed `dump`) left inside the repository's linked worktrees,
 * every one git knows of: each moved into the repository's store (lib/sync/adopt.ts), said in one
 * line; one that cannot be moved is a fix.
 */
async function strandedFindings(store: Store): Promise<Finding[]> {
  const checkout = findCheckout(store.root);
  if (checkout === undefined) return [];
  const rel = store.root.slice(checkout.top.length);
  const out: Finding[] = [];
  for (const w of linkedWorktrees(checkout.common)) {
    const there = findStore({ dir: `${w.top}${rel}`, cwd: w.top });
    if (there.stranded === undefined) continue;
    try {
      const adopted = await adopt(there);
      if (adopted !== undefined) out.push({ status: "ok", text: adoptedLine(adopted, there.dir) });
    } catch (err) {
      out.push({
        status: "fix",
        text: `the store left in worktree ${w.top} could not be moved into ${there.dir} ` +
          `(${(err as Error).message}) — fix: make ${there.dir} writable and run doctor again`,
      });
    }
  }
  return out;
}

/** The point of a doctor run (pure): how many checks ran, and how many found something to fix. */
export function doctorPoint(checks: number, fixes: number): Point {
  return fixes
    ? point(
      "checks",
      false,
      `${fixes} of ${count(checks, "check")} found something to fix (✗ above)`,
      "do what each ✗ line says, then run doctor again",
    )
    : point("checks", true, `${count(checks, "check")}, none found anything to fix`);
}
