/**
 * `install [--user | --local] [--startup] [--no-notice] [--nudge A,B | --no-nudge] [--dir DIR]`:
 * registers the hook for every event the agent has (SessionStart for `/clear` and compaction,
 * SessionEnd, PreCompact, UserPromptSubmit for the nudge) and keeps the store out of git. An older
 * registration (SessionStart `clear` only) is updated in place.
 * @module
 */

import {
  type AgentSpec,
  CODEX_SESSION_END_TIMEOUT,
  type EntryOptions,
  eventOf,
  type HookTarget,
  SESSION_END_DEFAULT_BUDGET_MS,
  SESSION_END_TIMEOUT,
  settingsFile,
} from "../agents/targets.ts";
import {
  commandFor,
  ignoreLocalSettings,
  ignoreState,
  installStatusLine,
  linkTarget,
  LOCAL_SETTINGS_IGNORE,
  readIfExists,
  register,
  settingsRoots,
  stateIgnored,
  unregister,
} from "../agents/registration.ts";
import { parseThresholds } from "../pressure/fill.ts";
import { findHooks, SettingsError } from "../agents/settings.ts";
import { findGitTop, findStore } from "../store/store.ts";
import { spanWords, WINDOW_MS } from "../store/time.ts";
import { count, type Point, point, renderConfidence } from "./confidence.ts";
import { EXIT, FailureError, UsageError } from "../errors.ts";
import { modeSpec, parseOrHelp } from "./args.ts";
import type { Context } from "./run_context.ts";
import { MCP_FLAG, registrationTarget, SCOPE_FLAGS } from "./scope_flags.ts";

/** Arguments and help of `install`. */
export const SPEC = modeSpec({
  mode: "install",
  usage: "install [--mcp] [--agent NAME] [--user | --local] [--startup] [--no-notice] " +
    "[--nudge A,B | --no-nudge] [--statusline] [--dir DIR]",
  summary: 'Registers session_restore.ts for SessionStart (matcher "clear|compact"), SessionEnd, ' +
    "PreCompact and UserPromptSubmit in <root>/.claude/settings.json.",
  flags: {
    ...SCOPE_FLAGS,
    ...MCP_FLAG,
    startup: {
      type: "boolean",
      help: "also restore at startup: a fresh unconsumed handover of a session that ended " +
        `under ${spanWords(WINDOW_MS)} ago`,
    },
    "no-notice": {
      type: "boolean",
      help: "no short notice after /clear when the session ended without a dump (the draft " +
        "is still written)",
    },
    nudge: {
      type: "string",
      value: "A,B",
      help: "the context fill (percent) at which the agent is asked to offer a dump, each once " +
        "per session (default 70,85)",
    },
    statusline: {
      type: "boolean",
      help: "Claude Code: also set `session.ts statusline` as the status line, unless a settings " +
        "file of the project already has one",
    },
    "no-nudge": {
      type: "boolean",
      help: "no UserPromptSubmit hook: no nudge before auto-compaction (removes an installed one)",
    },
  },
  notes: [
    "Keeps the file's other keys and comments; running it again changes nothing; an older " +
    "registration is updated in place.",
    "SessionEnd drafts a handover when the session made no dump (timeout " +
    `${SESSION_END_TIMEOUT} s in the settings file: a plugin's hooks.json cannot raise Claude ` +
    `Code's ${SESSION_END_DEFAULT_BUDGET_MS / 1000} s SessionEnd budget).`,
    "SessionEnd, PreCompact and UserPromptSubmit may also read the agent's transcripts " +
    "(~/.claude/projects); UserPromptSubmit reads only the tail, for the context fill.",
    "--user: the hook finds the project from $CLAUDE_PROJECT_DIR when it runs.",
    "Adds .claude/state/ to the project's .gitignore.",
    "--agent codex: .codex/hooks.json (--user: ~/.codex/hooks.json), the same events " +
    `(SessionEnd at Codex's ${CODEX_SESSION_END_TIMEOUT} s cap); Codex asks you to trust it.`,
    "--agent gemini: .gemini/settings.json (--user: ~/.gemini/settings.json), SessionStart " +
    "(clear) and BeforeAgent.",
    "--agent qwen: .qwen/settings.json (--user: ~/.qwen/settings.json), SessionStart " +
    "(clear, compact).",
    "--agent opencode: the plugin file .opencode/plugins/session-restore.ts (--user: " +
    "~/.config/opencode/plugins/), which runs the hook at a new session and at compaction.",
    "--agent copilot: .github/hooks/session-restore.json (--user: ~/.copilot/hooks/ or " +
    "$COPILOT_HOME/hooks/), SessionStart (every source; its `new` is both /clear and a launch).",
    "--agent kilo: opencode's plugin file in .kilo/plugins/ (--user: ~/.config/kilo/plugins/).",
    "--agent droid: .factory/settings.json (--user: ~/.factory/settings.json), SessionStart " +
    "(clear, compact, resume: its /clear is `resume`), SessionEnd and PreCompact.",
    "--agent cline: the plugin file .cline/plugins/session-restore.ts (--user: ~/.cline/plugins/ " +
    "or $CLINE_DIR/plugins/), which runs the hook at a new session's first message and at the " +
    "first after a compaction.",
  ],
});

/** How a registration is named in install's report: the event, and its sources for SessionStart. */
export function eventLabel(target: HookTarget, options: EntryOptions): string {
  const matcher = target.entry("", options).matcher;
  const event = eventOf(target);
  return event === "SessionStart"
    ? `${event} (${typeof matcher === "string" ? matcher.split("|").join(", ") : "every source"})`
    : event;
}

/**
 * `--nudge A,B` read (undefined when not given); with `--no-nudge`, or malformed: a usage
 * error.
 */
function nudgeOption(flags: Record<string, unknown>): number[] | undefined {
  if (flags.nudge === undefined) return undefined;
  if (flags["no-nudge"]) {
    throw new UsageError("--nudge and --no-nudge exclude each other: pick one.");
  }
  const values = parseThresholds(String(flags.nudge));
  if (!values) {
    throw new UsageError(
      `--nudge takes whole percents between 1 and 99, comma-separated (e.g. --nudge 60,80), not ` +
        `"${flags.nudge}".`,
    );
  }
  return values;
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
  if (agent.name === "qwen") {
    return [
      "Qwen Code runs project hooks only in a trusted folder when its folder trust is on.",
    ];
  }
  if (agent.name === "opencode") {
    return [
      "opencode loads the plugin at its next start. After a dump, /new restores the handover " +
      "into the new session.",
    ];
  }
  if (agent.name === "kilo") {
    return [
      "Kilo Code CLI loads the plugin at its next start. After a dump, /new (or /clear) restores " +
      "the handover into the new session.",
    ];
  }
  if (agent.name === "droid") {
    return [
      "Factory Droid runs project hooks only in a folder you trusted. After a dump, /clear (or " +
      "/new) restores the handover into the new session.",
    ];
  }
  if (agent.name === "cline") {
    return [
      "Cline CLI loads the plugin with each new session. After a dump, a new task (or /clear) " +
      "restores the handover with your first message.",
    ];
  }
  if (agent.name === "copilot") {
    return [
      "GitHub Copilot CLI loads .github/hooks/ only in a folder you trusted. Its SessionStart " +
      "runs with a session's first prompt: a pending handover comes with your first message " +
      "after /clear, or after starting copilot.",
    ];
  }
  return [];
}

/** The `--mcp` half of the mode, loaded only when asked for (lib/cli/mcp_install.ts). */
function mcpModes(): Promise<typeof import("./mcp_install.ts")> {
  return import(import.meta.resolve("./mcp_install.ts"));
}

/** Runs `install`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  if (a.flags.mcp) return await (await mcpModes()).installMcpMode(a, ctx);
  const { agent, scope, root } = registrationTarget(a, ctx);
  const options: EntryOptions = {
    startup: a.flags.startup === true,
    noNotice: a.flags["no-notice"] === true,
    nudge: nudgeOption(a.flags),
  };
  const noNudge = a.flags["no-nudge"] === true;
  if (a.flags.statusline === true && agent.name !== "claude") {
    throw new UsageError(
      "--statusline is Claude Code's status line: drop --agent or --statusline.",
    );
  }
  const roots = settingsRoots(scope, root);
  const files = roots.flatMap((r) =>
    agent.targets.map((target) => ({
      target,
      path: settingsFile(agent.name, target, scope, { root: r, env: ctx.env }),
    }))
  );
  const paths = files.map((f) => f.path);
  for (const { target, path } of files) {
    const event = eventLabel(target, options);
    if (target.nudges && noNudge) {
      if (await unregister(path, target)) ctx.out(`Removed: ${event} hook from ${path}`);
      continue;
    }
    const command = commandFor(scope, root, agent.name, { ...options, target, env: ctx.env });
    let change;
    try {
      change = await register(path, target, command, options);
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
  if (a.flags.statusline === true) {
    ctx.out(await installStatusLine(scope, { root, env: ctx.env }));
  }
  for (const line of afterInstall(agent)) ctx.out(line);
  // The store is the repository's (in the main worktree): ignored there, not in a worktree's
  // tracked .gitignore, which would leave the worktree changed.
  const home = findStore({ dir: root, cwd: root }).home ?? root;
  // A bare repository's store is inside its git dir, in no checkout: nothing to ignore.
  const bare = findGitTop(home) === undefined && findGitTop(root) !== undefined;
  if (!bare && await ignoreState(home)) ctx.out(`Added .claude/state/ to ${home}/.gitignore`);
  if (scope === "local") {
    for (const [i, r] of roots.entries()) {
      const exclude = await ignoreLocalSettings(r, paths[i * agent.targets.length]);
      if (exclude !== undefined) ctx.out(`Added ${LOCAL_SETTINGS_IGNORE} to ${exclude}`);
    }
  }
  // Each file read again: the registration is there as written, not only reported so.
  const missing: string[] = [];
  const installed = files.filter((f) => !(f.target.nudges && noNudge));
  for (const { target, path } of installed) {
    const text = await readIfExists(await linkTarget(path)) ?? "";
    if (findHooks(text, target).length === 0) missing.push(`${eventOf(target)} in ${path}`);
  }
  ctx.out(renderConfidence(installPoints({
    hooks: installed.length,
    missing,
    git: findGitTop(root) !== undefined,
    ignored: bare || await stateIgnored(home),
  })));
  return EXIT.ok;
}

/** What an install left, read back: the hooks missing from their files, the store's ignore. */
export interface InstallFacts {
  hooks: number;
  /** `<event> in <file>` for each registration the file does not hold on a re-read. */
  missing: string[];
  git: boolean;
  ignored: boolean;
}

/** The points of an install (pure): every hook in its file on a re-read; the store git-ignored. */
export function installPoints(f: InstallFacts): Point[] {
  return [
    f.missing.length
      ? point(
        "registered",
        false,
        `re-read: ${f.missing.length} of ${f.hooks} not found: ${f.missing.join(", ")}`,
        "run session.ts doctor",
      )
      : point("registered", true, `re-read: ${count(f.hooks, "hook")}, each in its file`),
    !f.git
      ? point("gitignore", true, "not a git project: nothing to ignore")
      : f.ignored
      ? point("gitignore", true, "git ignores .claude/state/")
      : point(
        "gitignore",
        false,
        "git does not ignore .claude/state/: handovers could be committed",
        "add .claude/state/ to .gitignore",
      ),
  ];
}
