/**
 * Where and how an agent registers our SessionStart hook: its settings files per scope and the
 * shape of the entry. Data, so another agent's target is one more record, not another editor.
 * @module
 */

import { join } from "./store.ts";

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
  /** Seconds the agent waits for the hook. */
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

/** Every target by name. */
export const TARGETS: Record<string, HookTarget> = { claude: CLAUDE };
