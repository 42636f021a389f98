/**
 * Where and how an agent registers our SessionStart hook: its settings files per scope and the
 * shape of the entry. Data, so another agent's target is one more record, not another editor.
 * @module
 */

import { isDir, join, parentDir } from "../fs/path.ts";
import { UsageError } from "../errors.ts";

/** Where a registration goes: the project's shared settings, its local settings, or the user's. */
export type Scope = "project" | "local" | "user";

/** Every scope, in the order `doctor` reports them. */
export const SCOPES: Scope[] = ["project", "local", "user"];

/** What the settings path of a scope depends on. */
export interface PathInputs {
  /** The project root. */
  root: string;
  /** Environment lookup (HOME, the agent's config-dir override). */
  env: (name: string) => string | undefined;
}

/** One agent's hook registration. */
export interface HookTarget {
  /** The agent's name, as `--agent` takes it. */
  name: string;
  /** The settings file for a scope. */
  settingsPath: (scope: Scope, inputs: PathInputs) => string;
  /** The JSON path of the array of hook groups, e.g. `["hooks", "SessionStart"]`. */
  hookPath: string[];
  /** The group to add for `command`. */
  entry: (command: string) => Record<string, unknown>;
  /** True for a hook entry (one element of a group's `hooks`) that runs our restore script. */
  isOurs: (hook: unknown) => boolean;
  /** How long the agent waits for the hook, in its unit (seconds; Gemini CLI: milliseconds). */
  timeout: number;
}

/** The restore script's file name: any hook command running it is ours. */
export const RESTORE_SCRIPT = "session_restore.ts";

/** True for `{ type: "command", command: "… session_restore.ts …" }`. */
export function runsRestore(hook: unknown): boolean {
  if (typeof hook !== "object" || hook === null) return false;
  const command = (hook as { command?: unknown }).command;
  return typeof command === "string" && command.includes(RESTORE_SCRIPT);
}

/** Claude Code's home for user settings: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeHome(env: (name: string) => string | undefined): string {
  const home = env("HOME") ?? env("USERPROFILE") ?? "";
  return env("CLAUDE_CONFIG_DIR") ?? join(home, ".claude");
}

/** The variables that place an agent's user settings, override first (for messages). */
const HOME_VARS: Record<string, string[]> = {
  claude: ["CLAUDE_CONFIG_DIR", "HOME"],
  codex: ["CODEX_HOME", "HOME"],
  gemini: ["GEMINI_CLI_HOME", "HOME"],
};

/**
 * Why the user settings file `path` of `agent` cannot be used, or undefined when it can: it must
 * be absolute (HOME unset or empty, or an override set empty, would put it in the current
 * directory), and under HOME at most the agent's own folder (e.g. `~/.claude`) may be missing: a
 * home directory that does not exist is a mistake to report, not a tree to create.
 */
export function userSettingsProblem(
  agent: string,
  path: string,
  env: (name: string) => string | undefined,
): string | undefined {
  const vars = HOME_VARS[agent] ?? ["HOME"];
  const shown = vars.map((v) => `${v}=${JSON.stringify(env(v) ?? null)}`.replace("=null", " unset"))
    .join(", ");
  const fix = `set HOME to your home directory (or ${vars[0]} to the agent's config directory)`;
  const empty = vars.find((v) => env(v) === "" && v !== "HOME");
  if (empty && agent === "claude") {
    return `${empty} is set but empty (${shown}) — fix: unset it, or ${fix}, and rerun`;
  }
  if (!/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path)) {
    return `--user needs a home directory, but the user settings path would be "${path}" ` +
      `(${shown}) — fix: ${fix}, and rerun`;
  }
  // An override the user set names a directory the agent itself creates; HOME must exist.
  const home = env(vars[0]) ? undefined : parentDir(parentDir(path) ?? "/");
  if (home !== undefined && !isDir(home)) {
    return `--user would write ${path}, but ${home} is not a directory (${shown}) — fix: ${fix}, ` +
      `and rerun`;
  }
  return undefined;
}

/**
 * The settings file of `target` for `scope`, where `install` and `uninstall` edit it; a user
 * scope without a usable home ({@link userSettingsProblem}) is a usage error.
 */
export function settingsFile(
  agent: string,
  target: HookTarget,
  scope: Scope,
  inputs: PathInputs,
): string {
  const path = target.settingsPath(scope, inputs);
  const problem = scope === "user" ? userSettingsProblem(agent, path, inputs.env) : undefined;
  if (problem) throw new UsageError(problem);
  return path;
}

/** Claude Code: SessionStart with matcher `clear` in `.claude/settings*.json`. */
export const CLAUDE: HookTarget = {
  name: "claude",
  settingsPath: (scope, { root, env }) =>
    scope === "user"
      ? join(claudeHome(env), "settings.json")
      : join(root, ".claude", scope === "local" ? "settings.local.json" : "settings.json"),
  hookPath: ["hooks", "SessionStart"],
  timeout: 10,
  entry(command) {
    return { matcher: "clear", hooks: [{ type: "command", command, timeout: this.timeout }] };
  },
  isOurs: runsRestore,
};

function home(env: (name: string) => string | undefined): string {
  return env("HOME") ?? env("USERPROFILE") ?? "";
}

/** Codex CLI's home: `CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: (name: string) => string | undefined): string {
  return env("CODEX_HOME") || join(home(env), ".codex");
}

/** Gemini CLI's user directory: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
export function geminiHome(env: (name: string) => string | undefined): string {
  return join(env("GEMINI_CLI_HOME") || home(env), ".gemini");
}

/**
 * Codex CLI (0.171): SessionStart with matcher `clear` in `.codex/hooks.json` (`--user`:
 * `$CODEX_HOME/hooks.json`), Claude Code's shape, timeout in seconds. Hooks are on by default.
 */
export const CODEX: HookTarget = {
  name: "codex",
  settingsPath: (scope, { root, env }) =>
    scope === "user" ? join(codexHome(env), "hooks.json") : join(root, ".codex", "hooks.json"),
  hookPath: ["hooks", "SessionStart"],
  timeout: 10,
  entry(command) {
    return { matcher: "clear", hooks: [{ type: "command", command, timeout: this.timeout }] };
  },
  isOurs: runsRestore,
};

/**
 * Gemini CLI (0.61): SessionStart `clear` in `.gemini/settings.json` (`--user`:
 * `~/.gemini/settings.json`) arms the deferred restore (lib/hook/answer.ts). Lifecycle matchers are
 * exact strings; timeouts are milliseconds; hooks carry a name Gemini shows.
 */
export const GEMINI_START: HookTarget = {
  name: "gemini",
  settingsPath: (scope, { root, env }) =>
    scope === "user"
      ? join(geminiHome(env), "settings.json")
      : join(root, ".gemini", "settings.json"),
  hookPath: ["hooks", "SessionStart"],
  timeout: 10_000,
  entry(command) {
    return {
      matcher: "clear",
      hooks: [{ type: "command", name: "session-restore", command, timeout: this.timeout }],
    };
  },
  isOurs: runsRestore,
};

/** Gemini CLI: BeforeAgent delivers the armed handover with the user's next message. */
export const GEMINI_DELIVER: HookTarget = {
  ...GEMINI_START,
  hookPath: ["hooks", "BeforeAgent"],
  entry(command) {
    return {
      hooks: [{ type: "command", name: "session-restore", command, timeout: this.timeout }],
    };
  },
};

/** An agent `install`, `uninstall` and `doctor` serve: its registrations and scopes. */
export interface AgentSpec {
  name: "claude" | "codex" | "gemini";
  /** The product's name, for messages. */
  label: string;
  /** Its registrations (one per hook event), written in this order. */
  targets: HookTarget[];
  /** The scopes it has (Codex and Gemini have no local settings file). */
  scopes: Scope[];
}

/** Every agent by the name `--agent` takes. */
export const AGENTS: Record<string, AgentSpec> = {
  claude: { name: "claude", label: "Claude Code", targets: [CLAUDE], scopes: SCOPES },
  codex: { name: "codex", label: "Codex CLI", targets: [CODEX], scopes: ["project", "user"] },
  gemini: {
    name: "gemini",
    label: "Gemini CLI",
    targets: [GEMINI_START, GEMINI_DELIVER],
    scopes: ["project", "user"],
  },
};

/** Every target by name. */
export const TARGETS: Record<string, HookTarget> = { claude: CLAUDE };
