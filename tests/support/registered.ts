/**
 * Test support: the hook exactly as an agent runs it. `install` registers a command in a settings
 * file; these helpers run `install` (from this checkout or a copy of it), read that command back
 * from the file and run it through `sh -c` with the payload on stdin and `CLAUDE_PROJECT_DIR` set,
 * as Claude Code does. A hook test that builds its own flags instead tests something no user runs.
 * @module
 */

import { AGENTS, type Scope } from "../../lib/agents/targets.ts";
import { findHooks } from "../../lib/agents/settings.ts";
import { join } from "../../lib/fs/path.ts";
import { isoStamp } from "../../lib/store/time.ts";
import { type Ran, runProcess, runScript } from "./run.ts";
import { NOW, REPO } from "./scratch.ts";
import type { Agent } from "../../lib/frame/budget.ts";

/** Where and how to install. */
export interface InstallOptions {
  /** An agent `--agent` takes (lib/frame/budget.ts); claude by default. */
  agent?: Agent;
  /** project (default), local or user. */
  scope?: Scope;
  /** The checkout whose session.ts installs (default: this one). */
  checkout?: string;
  /** HOME for a user install (required for `scope: "user"`; the agents' overrides are unset). */
  home?: string;
  /** The directory `install` runs in (default: the project root). */
  cwd?: string;
  /** More `install` flags, e.g. `--startup`. */
  flags?: string[];
  /** Which event's command to return (default: the agent's first, SessionStart). */
  event?: string;
}

/** The agents' user-settings overrides, unset so that `home` decides. */
const HOME_OVERRIDES = ["CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME"];

function installEnv(o: InstallOptions): Record<string, string> {
  return o.home === undefined ? {} : { HOME: o.home };
}

/**
 * Runs `install` for `root` and returns the command it registered for `o.event` (default: the
 * agent's first target, SessionStart). Throws with install's output when it fails.
 */
export async function installHook(root: string, o: InstallOptions = {}): Promise<string> {
  const agent = AGENTS[o.agent ?? "claude"];
  const scope = o.scope ?? "project";
  if (scope === "user" && o.home === undefined) throw new Error("a user install needs `home`");
  const args = ["install", ...(agent.name === "claude" ? [] : ["--agent", agent.name])];
  if (scope !== "project") args.push(`--${scope}`);
  args.push(...(o.flags ?? []));
  const r = await runScript(join(o.checkout ?? REPO, "session.ts"), args, {
    cwd: o.cwd ?? root,
    env: installEnv(o),
    unset: HOME_OVERRIDES,
  });
  if (r.code !== 0) throw new Error(`install ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return await registeredCommand(root, o);
}

/** The command registered for `o.event` (default SessionStart) by an earlier install. */
export async function registeredCommand(root: string, o: InstallOptions = {}): Promise<string> {
  const agent = AGENTS[o.agent ?? "claude"];
  const scope = o.scope ?? "project";
  const target = agent.targets.find((t) => t.hookPath.at(-1) === (o.event ?? "SessionStart"));
  if (!target) throw new Error(`${agent.name} registers no ${o.event}`);
  const env = (name: string) => name === "HOME" ? o.home : undefined;
  const path = target.settingsPath(scope, { root, env });
  const hooks = findHooks(await Deno.readTextFile(path), target);
  if (hooks.length !== 1) throw new Error(`expected one hook in ${path}, found ${hooks.length}`);
  return hooks[0].command;
}

/** How to run a registered command. */
export interface RunRegisteredOptions {
  /** CLAUDE_PROJECT_DIR (Claude Code sets it to the launch directory); unset when omitted. */
  projectDir?: string;
  /** The shell's working directory (Claude Code: the launch directory). */
  cwd: string;
  /** SESSION_NOW; default the tests' fixed now. */
  now?: Date;
  /** Extra environment. */
  env?: Record<string, string>;
}

/**
 * Runs `command` through `sh -c` as an agent does, with `payload` on stdin and SESSION_DEBUG=1,
 * so the hook prints its reason on stderr for every outcome (see {@link reasonOf}).
 */
export function runRegistered(
  command: string,
  payload: string,
  o: RunRegisteredOptions,
): Promise<Ran> {
  const deno = Deno.execPath();
  const env: Record<string, string> = {
    PATH: `${deno.slice(0, deno.lastIndexOf("/"))}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    HOME: Deno.env.get("HOME") ?? "/",
    SESSION_NOW: isoStamp(o.now ?? NOW),
    SESSION_DEBUG: "1",
    NO_COLOR: "1",
    ...(o.projectDir === undefined ? {} : { CLAUDE_PROJECT_DIR: o.projectDir }),
    ...o.env,
  };
  for (const name of ["DENO_DIR", "XDG_CACHE_HOME"]) {
    const value = Deno.env.get(name);
    if (value !== undefined && env[name] === undefined) env[name] = value;
  }
  return runProcess("sh", ["-c", command], { cwd: o.cwd, env, stdin: payload });
}

/**
 * The hook's final reason from its SESSION_DEBUG stderr (`session_restore: <reason>`), or
 * undefined when it printed none: a crash or a permission error is not a reason, so a test
 * asserting one cannot take either for silence.
 */
export function reasonOf(ran: Ran): string | undefined {
  const lines = ran.stderr.split("\n").filter((l) => l.startsWith("session_restore: "));
  return lines.at(-1)?.slice("session_restore: ".length);
}
