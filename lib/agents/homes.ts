/**
 * Where each agent keeps its user files (the folders `--user` registrations and the trust checks
 * read), from the variables that override them, and whether a user settings path is one `install`
 * may write: absolute, under a home directory that exists.
 * @module
 */

import { isDir, join } from "../fs/path.ts";

/** The user's home: `HOME`, else Windows' `USERPROFILE`; "" when neither is set. */
export function home(env: (name: string) => string | undefined): string {
  return env("HOME") ?? env("USERPROFILE") ?? "";
}

/** Claude Code's home for user settings: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeHome(env: (name: string) => string | undefined): string {
  return env("CLAUDE_CONFIG_DIR") ?? join(home(env), ".claude");
}

/** Codex CLI's home: `CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: (name: string) => string | undefined): string {
  return env("CODEX_HOME") || join(home(env), ".codex");
}

/** Gemini CLI's user directory: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
export function geminiHome(env: (name: string) => string | undefined): string {
  return join(env("GEMINI_CLI_HOME") || home(env), ".gemini");
}

/** Qwen Code's user directory: `QWEN_HOME`, else `~/.qwen`. */
export function qwenHome(env: (name: string) => string | undefined): string {
  return env("QWEN_HOME") || join(home(env), ".qwen");
}

/** `app`'s folder in the user's XDG config home: `$XDG_CONFIG_HOME/<app>`, else `~/.config/<app>`. */
function xdgConfig(env: (name: string) => string | undefined, app: string): string {
  return join(env("XDG_CONFIG_HOME") || join(home(env), ".config"), app);
}

/** opencode's user config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`. */
export function opencodeConfig(env: (name: string) => string | undefined): string {
  return xdgConfig(env, "opencode");
}

/** Kilo Code CLI's user config folder: `$XDG_CONFIG_HOME/kilo`, else `~/.config/kilo`. */
export function kiloConfig(env: (name: string) => string | undefined): string {
  return xdgConfig(env, "kilo");
}

/** GitHub Copilot CLI's home: `COPILOT_HOME`, else `~/.copilot`. */
export function copilotHome(env: (name: string) => string | undefined): string {
  return env("COPILOT_HOME") || join(home(env), ".copilot");
}

/** Factory Droid's home for user settings: `~/.factory`. */
export function factoryHome(env: (name: string) => string | undefined): string {
  return join(home(env), ".factory");
}

/** Cline CLI's folder: `CLINE_DIR`, else `~/.cline`. */
export function clineDir(env: (name: string) => string | undefined): string {
  return env("CLINE_DIR") || join(home(env), ".cline");
}

/** The variables that place an agent's user settings, override first (for messages). */
const HOME_VARS: Record<string, string[]> = {
  claude: ["CLAUDE_CONFIG_DIR", "HOME"],
  codex: ["CODEX_HOME", "HOME"],
  gemini: ["GEMINI_CLI_HOME", "HOME"],
  qwen: ["QWEN_HOME", "HOME"],
  opencode: ["XDG_CONFIG_HOME", "HOME"],
  copilot: ["COPILOT_HOME", "HOME"],
  kilo: ["XDG_CONFIG_HOME", "HOME"],
  droid: ["HOME"],
  cline: ["CLINE_DIR", "HOME"],
};

/**
 * Why the user settings file `path` of `agent` cannot be used, or undefined when it can: it must
 * be absolute (HOME unset or empty, or an override set empty, would put it in the current
 * directory), and under HOME only the agent's own folders (e.g. `~/.claude`,
 * `~/.config/opencode/plugins`) may be missing: a home directory that does not exist is a mistake
 * to report, not a tree to create.
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
  // (Factory Droid has no override: its folder is always under HOME.)
  const home = vars[0] !== "HOME" && env(vars[0]) ? undefined : env("HOME") ?? env("USERPROFILE");
  if (home !== undefined && !isDir(home)) {
    return `--user would write ${path}, but ${home} is not a directory (${shown}) — fix: ${fix}, ` +
      `and rerun`;
  }
  return undefined;
}
