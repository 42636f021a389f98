/**
 * Where and how an agent registers our hook, one record per event (SessionStart, SessionEnd,
 * PreCompact, Gemini's BeforeAgent): its settings files per scope, the shape of the entry, what
 * the command may read beyond the project. Data, so another agent's event is one more record, not
 * another editor.
 * @module
 */

import type { Agent } from "../frame/budget.ts";
import { join } from "../fs/path.ts";
import { UsageError } from "../errors.ts";
import {
  claudeHome,
  clineDir,
  codexHome,
  copilotHome,
  factoryHome,
  geminiHome,
  kiloConfig,
  opencodeConfig,
  qwenHome,
  userSettingsProblem,
} from "./homes.ts";
import { type FileFormat, PLUGIN_FILE, pluginFormat } from "./plugin_file.ts";

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

/** What `install` was asked for beyond the scope: the opt-ins that shape an entry. */
export interface EntryOptions {
  /** `install --startup`: SessionStart also at `startup` (a fresh handover of an ended session). */
  startup?: boolean;
  /** `install --no-notice`: no short notice after a session that ended without a dump. */
  noNotice?: boolean;
  /** `install --nudge A,B`: the context fill thresholds of the UserPromptSubmit nudge. */
  nudge?: number[];
}

/** One agent's hook registration for one event. */
export interface HookTarget {
  /** The agent's name, as `--agent` takes it. */
  name: string;
  /** The settings file for a scope. */
  settingsPath: (scope: Scope, inputs: PathInputs) => string;
  /** The JSON path of the array of hook groups, e.g. `["hooks", "SessionStart"]`. */
  hookPath: string[];
  /** The group to add for `command`. */
  entry: (command: string, options?: EntryOptions) => Record<string, unknown>;
  /** True for a hook entry (one element of a group's `hooks`) that runs our restore script. */
  isOurs: (hook: unknown) => boolean;
  /** How long the agent waits for the hook, in its unit (seconds; Gemini CLI: milliseconds). */
  timeout: number;
  /**
   * The folder of the agent's transcripts, which this event's hook reads (SessionEnd drafts from
   * the transcript, PreCompact saves the card from it): granted read on top of the project.
   * Undefined for an event that reads no transcript, or without a home to find it in.
   */
  transcripts?: (env: (name: string) => string | undefined) => string | undefined;
  /** True for the restoring events (SessionStart, BeforeAgent): they carry the restore flags. */
  restores?: boolean;
  /**
   * True for the nudge's event (UserPromptSubmit): it carries `--nudge`, and it is optional
   * (`install --no-nudge` leaves it out; doctor does not ask for it).
   */
  nudges?: boolean;
  /**
   * Set when the registration is a whole file of its own (opencode's plugin), not an entry in a
   * settings file: how its text is written and read back.
   */
  file?: FileFormat;
}

/** The event a target registers, e.g. `SessionStart`. */
export function eventOf(target: HookTarget): string {
  return target.hookPath[target.hookPath.length - 1];
}

/** The sources SessionStart restores from: `clear` and `compact`, and `startup` when opted in. */
export function startSources(options: EntryOptions = {}): string[] {
  return ["clear", "compact", ...(options.startup ? ["startup"] : [])];
}

/** The hook flags a restoring event's command carries for `options` (lib/hook/input.ts parses them). */
export function restoreFlags(options: EntryOptions = {}): string[] {
  return [
    ...(options.startup ? ["--source", "startup"] : []),
    ...(options.noNotice ? ["--no-notice"] : []),
  ];
}

/** The hook flags the nudge's command carries for `options` (lib/hook/input.ts parses them). */
export function nudgeFlags(options: EntryOptions = {}): string[] {
  return options.nudge ? ["--nudge", options.nudge.join(",")] : [];
}

/**
 * The SessionStart group Claude Code and Codex share: the sources as a list of exact names, one
 * command with the target's timeout.
 */
function startGroup(this: HookTarget, command: string, options?: EntryOptions) {
  return {
    matcher: startSources(options).join("|"),
    hooks: [{ type: "command", command, timeout: this.timeout }],
  };
}

/** The restore script's file name: any hook command running it is ours. */
export const RESTORE_SCRIPT = "session_restore.ts";

/** True for `{ type: "command", command: "… session_restore.ts …" }`. */
export function runsRestore(hook: unknown): boolean {
  if (typeof hook !== "object" || hook === null) return false;
  const command = (hook as { command?: unknown }).command;
  return typeof command === "string" && command.includes(RESTORE_SCRIPT);
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

/**
 * Claude Code: SessionStart in `.claude/settings*.json`, matcher `clear|compact` (`|startup` with
 * `install --startup`). Claude Code reads a matcher of only letters, digits, `_`, `-`, spaces, `,`
 * and `|` as an exact name or a `|`-separated list of exact names (its hooks reference), so this
 * is the list {clear, compact}, not a regular expression that could match more.
 */
export const CLAUDE: HookTarget = {
  name: "claude",
  settingsPath: (scope, { root, env }) =>
    scope === "user"
      ? join(claudeHome(env), "settings.json")
      : join(root, ".claude", scope === "local" ? "settings.local.json" : "settings.json"),
  hookPath: ["hooks", "SessionStart"],
  timeout: 10,
  entry: startGroup,
  isOurs: runsRestore,
  restores: true,
};

/** `sub` under `dir`, when `dir` is absolute (an unset or empty HOME names no folder). */
function under(dir: string, sub: string): string | undefined {
  return /^(\/|[A-Za-z]:[\\/])/.test(dir) ? join(dir, sub) : undefined;
}

/** Claude Code's transcripts: `<CLAUDE_CONFIG_DIR or ~/.claude>/projects`. */
export function claudeTranscripts(env: (name: string) => string | undefined): string | undefined {
  return under(claudeHome(env), "projects");
}

/**
 * The registrations beside the agent's SessionStart `start` for the events that read the agent's
 * transcripts: SessionEnd (with `endTimeout`) and PreCompact. No matcher (every reason; manual and
 * auto), no restore flags.
 */
function readingEvents(
  start: HookTarget,
  endTimeout: number,
  transcripts: (env: (name: string) => string | undefined) => string | undefined,
): [HookTarget, HookTarget] {
  const target = (event: string, timeout: number): HookTarget => ({
    ...start,
    hookPath: ["hooks", event],
    timeout,
    entry(command) {
      return { hooks: [{ type: "command", command, timeout: this.timeout }] };
    },
    transcripts,
    restores: false,
  });
  return [target("SessionEnd", endTimeout), target("PreCompact", 30)];
}

/**
 * The nudge's registration beside the agent's SessionStart `start`: UserPromptSubmit, no matcher
 * (the event has none), reading the tail of the agent's transcripts.
 */
function promptEvent(
  start: HookTarget,
  transcripts: (env: (name: string) => string | undefined) => string | undefined,
): HookTarget {
  return {
    ...start,
    hookPath: ["hooks", "UserPromptSubmit"],
    timeout: 5,
    entry(command) {
      return { hooks: [{ type: "command", command, timeout: this.timeout }] };
    },
    transcripts,
    restores: false,
    nudges: true,
  };
}

/** Claude Code: UserPromptSubmit, the nudge (the newest `message.usage` in the transcript). */
export const CLAUDE_PROMPT = promptEvent(CLAUDE, claudeTranscripts);

/** How long Claude Code may wait for our SessionEnd hook (seconds): a draft from a big transcript. */
export const SESSION_END_TIMEOUT = 30;

/**
 * Claude Code's budget for all SessionEnd hooks together when no settings file raises it: 1.5 s. A
 * plugin's hooks/hooks.json `timeout` cannot raise it; a settings file's can (up to 60 s).
 */
export const SESSION_END_DEFAULT_BUDGET_MS = 1_500;

/**
 * Claude Code: SessionEnd (every reason) drafts a handover when the session made none; its
 * settings `timeout` raises the shared 1.5 s budget so a draft from a big transcript finishes.
 * PreCompact (manual and auto) saves what the compaction card needs.
 */
export const [CLAUDE_END, CLAUDE_COMPACT] = readingEvents(
  CLAUDE,
  SESSION_END_TIMEOUT,
  claudeTranscripts,
);

/**
 * Codex CLI (0.171): SessionStart with matcher `clear|compact` (a regular expression there; the
 * same two sources) in `.codex/hooks.json` (`--user`: `$CODEX_HOME/hooks.json`), Claude Code's
 * shape, timeout in seconds. Hooks are on by default.
 */
export const CODEX: HookTarget = {
  name: "codex",
  settingsPath: (scope, { root, env }) =>
    scope === "user" ? join(codexHome(env), "hooks.json") : join(root, ".codex", "hooks.json"),
  hookPath: ["hooks", "SessionStart"],
  timeout: 10,
  entry: startGroup,
  isOurs: runsRestore,
  restores: true,
};

/** Codex CLI's rollouts: `$CODEX_HOME/sessions`, else `~/.codex/sessions`. */
export function codexTranscripts(env: (name: string) => string | undefined): string | undefined {
  return under(codexHome(env), "sessions");
}

/** Codex CLI caps a SessionEnd hook at 3 s (default 1 s; more is clamped, with a warning). */
export const CODEX_SESSION_END_TIMEOUT = 3;

/** Codex CLI: SessionEnd (since 0.145), at its 3 s cap, and PreCompact. */
export const [CODEX_END, CODEX_COMPACT] = readingEvents(
  CODEX,
  CODEX_SESSION_END_TIMEOUT,
  codexTranscripts,
);

/** Codex CLI: UserPromptSubmit, the nudge (the rollout's newest `token_count` event). */
export const CODEX_PROMPT = promptEvent(CODEX, codexTranscripts);

/**
 * Gemini CLI (0.61): SessionStart `clear` in `.gemini/settings.json` (`--user`:
 * `~/.gemini/settings.json`) arms the deferred restore (lib/hook/answer.ts). Lifecycle matchers are
 * exact strings (no list), so `install --startup` drops the matcher and the hook's own
 * `--source startup` gate refuses the other sources (`resume`). Gemini has no `compact` source.
 * Timeouts are milliseconds; hooks carry a name Gemini shows.
 */
export const GEMINI_START: HookTarget = {
  name: "gemini",
  settingsPath: (scope, { root, env }) =>
    scope === "user"
      ? join(geminiHome(env), "settings.json")
      : join(root, ".gemini", "settings.json"),
  hookPath: ["hooks", "SessionStart"],
  timeout: 10_000,
  entry(command, options) {
    const hooks = [{ type: "command", name: "session-restore", command, timeout: this.timeout }];
    return options?.startup ? { hooks } : { matcher: "clear", hooks };
  },
  isOurs: runsRestore,
  restores: true,
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

/**
 * Qwen Code (0.24): SessionStart with matcher `clear|compact` in `.qwen/settings.json` (`--user`:
 * `$QWEN_HOME/settings.json`, else `~/.qwen/settings.json`), Claude Code's shape; it reads a
 * `|`-list matcher as exact names, timeouts in seconds. Its `clear` and `compact` sources carry
 * `additionalContext` into the system instruction, so it restores as Claude Code does.
 */
export const QWEN: HookTarget = {
  ...CODEX,
  name: "qwen",
  settingsPath: (scope, { root, env }) =>
    scope === "user" ? join(qwenHome(env), "settings.json") : join(root, ".qwen", "settings.json"),
};

/**
 * opencode (1.18): no shell hooks; its plugins folder (`.opencode/plugins/`, `--user`:
 * `~/.config/opencode/plugins/`) gets a thin plugin file running the hook command
 * (lib/agents/plugin_file.ts, hooks/opencode.ts). It sends SessionStart `clear` for a new session
 * and `compact` at a compaction: the sources its matcher stands for.
 */
export const OPENCODE: HookTarget = {
  name: "opencode",
  settingsPath: (scope, { root, env }) =>
    join(
      scope === "user" ? join(opencodeConfig(env), "plugins") : join(root, ".opencode", "plugins"),
      PLUGIN_FILE,
    ),
  hookPath: ["SessionStart"],
  timeout: 10,
  entry: (command) => ({ matcher: startSources().join("|"), command }),
  isOurs: runsRestore,
  restores: true,
  file: pluginFormat("opencode"),
};

/**
 * Kilo Code CLI (7.7), a fork of opencode with its plugin events: the same plugin file, in its
 * own plugins folder: `.kilo/plugins/` (`--user`: `$XDG_CONFIG_HOME/kilo/plugins/`, else
 * `~/.config/kilo/plugins/`). Its `/clear` is `/new`: both start a new session.
 */
export const KILO: HookTarget = {
  ...OPENCODE,
  name: "kilo",
  settingsPath: (scope, { root, env }) =>
    join(
      scope === "user" ? join(kiloConfig(env), "plugins") : join(root, ".kilo", "plugins"),
      PLUGIN_FILE,
    ),
  file: pluginFormat("kilo"),
};

/** The hooks file of ours in GitHub Copilot CLI's hooks folders. */
export const COPILOT_HOOKS_FILE = "session-restore.json";

/**
 * GitHub Copilot CLI (1.0.102): SessionStart in a hooks file of ours, `.github/hooks/` (`--user`:
 * `$COPILOT_HOME/hooks/`, else `~/.copilot/hooks/`). The PascalCase event name gets Claude Code's
 * payload (`hook_event_name`, `session_id`, snake_case); no matcher, as Copilot names both a
 * launch's first session and `/clear`'s `new` (the hook reads it as `clear`: lib/hook/input.ts).
 * It reads `additionalContext` only at the top level of the answer ({@link
 * ./command.ts FLAT_ANSWER}). Timeouts in seconds.
 */
export const COPILOT: HookTarget = {
  name: "copilot",
  settingsPath: (scope, { root, env }) =>
    join(
      scope === "user" ? join(copilotHome(env), "hooks") : join(root, ".github", "hooks"),
      COPILOT_HOOKS_FILE,
    ),
  hookPath: ["hooks", "SessionStart"],
  timeout: 10,
  entry(command) {
    return { hooks: [{ type: "command", command, timeout: this.timeout }] };
  },
  isOurs: runsRestore,
  restores: true,
};

/**
 * Copilot CLI runs no SessionStart after a compaction and drops what its preCompact hook answers,
 * but puts a userPromptSubmitted `additionalContext` before the prompt: PreCompact saves the card's
 * material, the next prompt's UserPromptSubmit delivers the card (lib/continuity/compact.ts
 * `answerPromptCard`). Its events.jsonl is not read: no transcript grant.
 */
export const [COPILOT_COMPACT, COPILOT_PROMPT]: HookTarget[] = ["PreCompact", "UserPromptSubmit"]
  .map((event) => ({
    ...COPILOT,
    hookPath: ["hooks", event],
    restores: false,
  }));

/**
 * Factory Droid (0.215): Claude Code's hooks in `.factory/settings.json` (`--user`:
 * `~/.factory/settings.json`), timeouts in seconds, its matcher a `|` list of sources. Droid names
 * the session its `/clear` (and `/new`) starts `resume`, as it names a compaction's new session
 * and a real resume; the hook reads which one it is (lib/hook/input.ts `ourPayload`,
 * lib/hook/restore.ts), so the matcher lets `resume` through beside the two sources it stands for.
 */
export const DROID: HookTarget = {
  name: "droid",
  settingsPath: (scope, { root, env }) =>
    scope === "user"
      ? join(factoryHome(env), "settings.json")
      : join(root, ".factory", "settings.json"),
  hookPath: ["hooks", "SessionStart"],
  timeout: 10,
  entry(command, options) {
    return {
      matcher: [...startSources(options), "resume"].join("|"),
      hooks: [{ type: "command", command, timeout: this.timeout }],
    };
  },
  isOurs: runsRestore,
  restores: true,
};

/**
 * Droid: SessionEnd leaves the clearing mark its `/clear` is read by (no draft: its transcripts
 * are not read, so no transcript grant); PreCompact saves the card's material from the store.
 */
export const [DROID_END, DROID_COMPACT]: HookTarget[] = [
  ["SessionEnd", SESSION_END_TIMEOUT] as const,
  ["PreCompact", 30] as const,
].map(([event, timeout]) => ({
  ...DROID,
  hookPath: ["hooks", event],
  timeout,
  entry(command: string) {
    return { hooks: [{ type: "command", command, timeout: this.timeout }] };
  },
  restores: false,
}));

/**
 * Cline CLI (3.0.65): its shell hooks' context never reaches the model, but it loads every module
 * in `.cline/plugins/` (`--user`: `$CLINE_DIR/plugins/`, else `~/.cline/plugins/`) as a plugin:
 * a thin plugin file running the hook command before a run (hooks/cline.ts), which sends a new
 * session's first run as SessionStart `clear` and the first run after a compaction as `compact`.
 * Cline loads the default export or `plugin`.
 */
export const CLINE: HookTarget = {
  ...OPENCODE,
  name: "cline",
  settingsPath: (scope, { root, env }) =>
    join(
      scope === "user" ? join(clineDir(env), "plugins") : join(root, ".cline", "plugins"),
      PLUGIN_FILE,
    ),
  file: pluginFormat("cline", "hooks/cline.ts", "plugin"),
};

/** An agent `install`, `uninstall` and `doctor` serve: its registrations and scopes. */
export interface AgentSpec {
  /** Its name, a row of the budget table (lib/frame/budget.ts). */
  name: Agent;
  /** The product's name, for messages. */
  label: string;
  /** Its registrations (one per hook event), written in this order. */
  targets: HookTarget[];
  /** The scopes it has (only Claude Code has a local settings file). */
  scopes: Scope[];
}

/**
 * Every agent by the name `--agent` takes. The nudge (UserPromptSubmit) goes to the agents whose
 * transcripts carry a usage figure this reads: Claude Code and Codex CLI. Gemini CLI gets no SessionEnd nor PreCompress: its chat
 * files are not read (nothing to draft from), its SessionEnd is not awaited, its PreCompress is
 * advisory and its SessionStart has no `compact` source to deliver a card with. Qwen Code and
 * opencode (and its fork Kilo Code CLI) get no SessionEnd nor PreCompact either: their transcripts
 * are not read, so there is nothing to draft from, and SessionStart `compact` gathers the card from
 * the store itself.
 * GitHub Copilot CLI gets no SessionEnd: it says `user_exit` for `/clear` too (no link to the next
 * session) and its events.jsonl is not read; its card comes with the prompt after a compaction.
 * Factory Droid gets SessionEnd for its clearing mark only (its transcripts are not read: no draft)
 * and PreCompact; no UserPromptSubmit (no usage figure read).
 */
export const AGENTS: Record<Agent, AgentSpec> = {
  claude: {
    name: "claude",
    label: "Claude Code",
    targets: [CLAUDE, CLAUDE_END, CLAUDE_COMPACT, CLAUDE_PROMPT],
    scopes: SCOPES,
  },
  codex: {
    name: "codex",
    label: "Codex CLI",
    targets: [CODEX, CODEX_END, CODEX_COMPACT, CODEX_PROMPT],
    scopes: ["project", "user"],
  },
  gemini: {
    name: "gemini",
    label: "Gemini CLI",
    targets: [GEMINI_START, GEMINI_DELIVER],
    scopes: ["project", "user"],
  },
  qwen: {
    name: "qwen",
    label: "Qwen Code",
    targets: [QWEN],
    scopes: ["project", "user"],
  },
  opencode: {
    name: "opencode",
    label: "opencode",
    targets: [OPENCODE],
    scopes: ["project", "user"],
  },
  copilot: {
    name: "copilot",
    label: "GitHub Copilot CLI",
    targets: [COPILOT, COPILOT_COMPACT, COPILOT_PROMPT],
    scopes: ["project", "user"],
  },
  kilo: {
    name: "kilo",
    label: "Kilo Code CLI",
    targets: [KILO],
    scopes: ["project", "user"],
  },
  droid: {
    name: "droid",
    label: "Factory Droid",
    targets: [DROID, DROID_END, DROID_COMPACT],
    scopes: ["project", "user"],
  },
  cline: {
    name: "cline",
    label: "Cline CLI",
    targets: [CLINE],
    scopes: ["project", "user"],
  },
};
