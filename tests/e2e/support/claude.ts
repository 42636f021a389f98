/**
 * The real Claude Code, installed pinned from npm into a private prefix and run offline against
 * the stand-in: a scratch HOME with onboarding, trust and the API key preseeded, a project dir,
 * and the interactive client in tmux.
 * @module
 */

import { projectFile } from "../../../lib/agents/command.ts";
import { clientEnv, commitAll, npmInstall, run } from "./process.ts";
import { type StandIn } from "./stand_in.ts";
import { sleep, startTmux, type Tmux } from "./tmux.ts";

/**
 * The Claude Code versions the end-to-end tests run (and that the README names): the long-pinned
 * one, and the newest on npm when it was last bumped (pinned too: bump it deliberately, rerun
 * `deno task e2e`, say so in the README). Every Claude Code e2e runs against each.
 */
export const CLAUDE_CODE_VERSIONS = ["2.1.197", "2.1.332"] as const;

/** The oldest pinned version (the one the docs' verified facts name). */
export const CLAUDE_CODE_VERSION = CLAUDE_CODE_VERSIONS[0];

/** The fake API key the stand-in accepts. */
export const API_KEY = "sk-ant-api03-e2e-stand-in-key-000000000000000000000000000000";

/** Where a pinned client is installed (kept between runs; `.temp/` is git-ignored). */
export function prefix(version: string): string {
  return projectFile(`.temp/e2e/claude-code-${version}`);
}

/**
 * The installed client: the package's `bin` (its postinstall puts the native binary there), else
 * the platform package's binary itself, for npm setups that skip install scripts.
 */
async function installedBinary(version: string): Promise<string | undefined> {
  const scope = `${prefix(version)}/node_modules/@anthropic-ai`;
  const candidates = [`${prefix(version)}/node_modules/.bin/claude`];
  try {
    for await (const e of Deno.readDir(scope)) {
      if (e.name.startsWith("claude-code-")) candidates.push(`${scope}/${e.name}/claude`);
    }
  } catch {
    // not installed yet
  }
  for (const bin of candidates) {
    try {
      if ((await run(bin, ["--version"])).includes(version)) return bin;
    } catch {
      // a placeholder stub, or another platform's binary
    }
  }
  return undefined;
}

/** A pinned Claude Code to run: its version and its `claude` binary. */
export interface Claude {
  version: string;
  bin: string;
}

/** Installs a pinned Claude Code (once) and returns the path of its `claude` binary. */
export async function ensureClaude(version: string = CLAUDE_CODE_VERSION): Promise<string> {
  const found = await installedBinary(version);
  if (found) return found;
  await npmInstall(prefix(version), `@anthropic-ai/claude-code@${version}`);
  const bin = await installedBinary(version);
  if (!bin) throw new Error(`Claude Code ${version} installed but no binary runs`);
  return bin;
}

/** Installs every pinned Claude Code (once each). */
export async function ensureClaudes(): Promise<Claude[]> {
  const out: Claude[] = [];
  for (const version of CLAUDE_CODE_VERSIONS) {
    out.push({ version, bin: await ensureClaude(version) });
  }
  return out;
}

/** A scratch world: HOME and a git project directory. */
export interface World {
  home: string;
  project: string;
  /** Removes everything. */
  cleanup: () => Promise<void>;
}

/**
 * Creates a scratch HOME (onboarded for `version`, project trusted, key approved) and a git
 * project.
 */
export async function makeWorld(version: string = CLAUDE_CODE_VERSION): Promise<World> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "session-e2e-" }));
  const home = `${base}/home`;
  const project = `${base}/project`;
  await Deno.mkdir(`${home}/.claude`, { recursive: true });
  await Deno.mkdir(project, { recursive: true });
  await run("git", ["init", "-q", "-b", "main"], project);
  await commitAll(project, "init");
  const claudeJson = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: version,
    numStartups: 1,
    autoUpdates: false,
    bypassPermissionsModeAccepted: true,
    customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
    projects: {
      [project]: {
        hasTrustDialogAccepted: true,
        hasCompletedProjectOnboarding: true,
        allowedTools: [],
      },
    },
  };
  await Deno.writeTextFile(`${home}/.claude.json`, JSON.stringify(claudeJson, null, 2));
  return {
    home,
    project,
    cleanup: () => Deno.remove(base, { recursive: true }).catch(() => {}),
  };
}

/** The environment Claude Code runs with: offline, the stand-in as the API, scratch HOME. */
export function claudeEnv(
  world: World,
  standIn: StandIn,
  extra: Record<string, string> = {},
): Record<string, string> {
  return clientEnv(world.home, {
    ANTHROPIC_BASE_URL: standIn.url,
    ANTHROPIC_API_KEY: API_KEY,
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: "1",
    IS_SANDBOX: "1",
    ...extra,
  });
}

/**
 * Starts interactive Claude Code in tmux and waits for its prompt. `--permission-mode default`:
 * 2.1.332 starts in auto mode, whose safety check runs on Anthropic's servers and stalls every
 * tool call against the stand-in ("Auto mode can't check actions"); the allowed tools run without
 * asking in default mode, in both versions.
 */
export async function startClaude(
  bin: string,
  world: World,
  standIn: StandIn,
  options: {
    args?: string[];
    env?: Record<string, string>;
    /** The idle screen, when not the default footer (a status line takes its place). */
    ready?: (screen: string) => boolean;
  } = {},
): Promise<Tmux> {
  const ready = options.ready ?? ((s: string) => s.includes("? for shortcuts"));
  const tmux = await startTmux({
    command: [
      bin,
      "--permission-mode",
      "default",
      "--allowedTools",
      "Bash",
      "Write",
      "Edit",
      ...(options.args ?? []),
    ],
    cwd: world.project,
    env: claudeEnv(world, standIn, options.env),
  });
  // The idle prompt's footer; a start-up dialog (e.g. a settings error) would take keys instead.
  const screen = await tmux.waitForScreen(
    (s) => ready(s) || /malformed|Settings Error|error/i.test(s),
    60_000,
  ).catch(async (err) => {
    await tmux.kill();
    throw err;
  });
  if (!ready(screen)) {
    await tmux.kill();
    throw new Error(`Claude Code did not reach its prompt:\n${screen}`);
  }
  await sleep(500);
  return tmux;
}

/** What a Claude Code scenario runs in: the client, its world, the stand-in, its tmux once started. */
export interface Scene {
  claude: Claude;
  world: World;
  standIn: StandIn;
  tmux?: Tmux;
}
