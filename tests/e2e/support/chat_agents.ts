/**
 * Qwen Code, opencode and Kilo Code CLI for the end-to-end tests: installed pinned from npm into `.temp/e2e/`,
 * configured in a scratch HOME to talk to the Chat Completions stand-in (support/chat_stand_in.ts)
 * with no update check, telemetry or approval prompt, and started interactive in tmux.
 * @module
 */

import { ensureClient, type World } from "./agents.ts";
import { clientEnv } from "./process.ts";
import { sleep, startTmux, type Tmux } from "./tmux.ts";

/** The Qwen Code version the end-to-end tests run (and that the README names). */
export const QWEN_VERSION = "0.24.4";
/** The opencode version the end-to-end tests run (and that the README names). */
export const OPENCODE_VERSION = "1.18.33";
/**
 * The Kilo Code CLI version the end-to-end tests run (and that the README names): the newest whose
 * Linux binary package (`@kilocode/cli-linux-x64`, which its postinstall fetches) is on the npm
 * registry this runs against; 7.8.1's is not.
 */
export const KILO_VERSION = "7.7.7";

/** The model name both clients ask the stand-in for. */
const MODEL = "e2e-model";

/** Installs the pinned Qwen Code (once); returns its `qwen` binary. */
export function ensureQwen(): Promise<string> {
  return ensureClient("@qwen-code/qwen-code", QWEN_VERSION, "qwen");
}

/** Installs the pinned opencode (once); returns its `opencode` binary. */
export function ensureOpencode(): Promise<string> {
  return ensureClient("opencode-ai", OPENCODE_VERSION, "opencode");
}

/** Installs the pinned Kilo Code CLI (once); returns its `kilo` binary. */
export function ensureKilo(): Promise<string> {
  return ensureClient("@kilocode/cli", KILO_VERSION, "kilo");
}

/** Kills a client that never came up, so it cannot outlive the test. */
async function ready(tmux: Tmux, prompt: string, timeoutMs: number): Promise<Tmux> {
  await tmux.waitForScreen(prompt, timeoutMs).catch(async (err) => {
    await tmux.kill();
    throw err;
  });
  await sleep(1_500);
  return tmux;
}

/** Qwen's user settings: OpenAI-compatible auth, no update checks or telemetry. */
export async function configureQwen(world: World): Promise<void> {
  await Deno.mkdir(`${world.home}/.qwen`, { recursive: true });
  await Deno.writeTextFile(
    `${world.home}/.qwen/settings.json`,
    JSON.stringify({
      security: { auth: { selectedType: "openai" } },
      model: { name: MODEL },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    }),
  );
}

/**
 * Starts interactive Qwen Code in tmux against the stand-in, YOLO approvals, with `args` (such as
 * `--worktree <name>`); waits for the prompt.
 */
export async function startQwen(
  bin: string,
  world: World,
  baseUrl: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<Tmux> {
  const tmux = await startTmux({
    command: [bin, "--approval-mode", "yolo", ...args],
    cwd: world.project,
    env: clientEnv(world.home, {
      OPENAI_API_KEY: "e2e-stand-in-key",
      OPENAI_BASE_URL: baseUrl,
      OPENAI_MODEL: MODEL,
      ...env,
    }),
  });
  return await ready(tmux, "Type your message", 60_000);
}

/** opencode's user config (`~/.config/opencode/opencode.json`), for the stand-in. */
export async function configureOpencode(world: World, baseUrl: string): Promise<void> {
  await Deno.mkdir(`${world.home}/.config/opencode`, { recursive: true });
  await Deno.writeTextFile(
    `${world.home}/.config/opencode/opencode.json`,
    JSON.stringify({ $schema: "https://opencode.ai/config.json", ...providerConfig(baseUrl) }),
  );
}

/**
 * What opencode's config and Kilo's (its fork, the same schema) share: the stand-in as an
 * OpenAI-compatible provider (`baseURL`), its model the default, every tool allowed (the model's
 * shell runs the checkout's `session.ts`, outside the project), no autoupdate or sharing.
 */
function providerConfig(baseUrl: string) {
  return {
    autoupdate: false,
    share: "disabled",
    model: `standin/${MODEL}`,
    permission: { "*": "allow", external_directory: "allow" },
    provider: {
      standin: {
        npm: "@ai-sdk/openai-compatible",
        name: "Stand-in",
        options: { baseURL: baseUrl, apiKey: "e2e-stand-in-key" },
        models: { [MODEL]: { name: "E2E model" } },
      },
    },
  };
}

/** Kilo Code CLI's user config (`~/.config/kilo/kilo.json`): opencode's, for the stand-in. */
export async function configureKilo(world: World, baseUrl: string): Promise<void> {
  await Deno.mkdir(`${world.home}/.config/kilo`, { recursive: true });
  await Deno.writeTextFile(
    `${world.home}/.config/kilo/kilo.json`,
    JSON.stringify(providerConfig(baseUrl)),
  );
}

/**
 * Starts the TUI of opencode or its fork Kilo (`prefix`: the agent's variable prefix, `OPENCODE`
 * or `KILO`) in tmux with no autoupdate, model list or LSP download; waits for its prompt.
 */
async function startForkTui(
  bin: string,
  world: World,
  prefix: "OPENCODE" | "KILO",
  env: Record<string, string>,
): Promise<Tmux> {
  const off = ["AUTOUPDATE", "MODELS_FETCH", "LSP_DOWNLOAD"]
    .map((what) => [`${prefix}_DISABLE_${what}`, "1"]);
  const tmux = await startTmux({
    command: [bin],
    cwd: world.project,
    env: clientEnv(world.home, { ...Object.fromEntries(off), ...env }),
  });
  return await ready(tmux, "Ask anything", 90_000);
}

/** Starts the opencode TUI in tmux; waits for its prompt. */
export function startOpencode(
  bin: string,
  world: World,
  env: Record<string, string> = {},
): Promise<Tmux> {
  return startForkTui(bin, world, "OPENCODE", env);
}

/** Starts the Kilo Code CLI TUI in tmux (no session upload either); waits for its prompt. */
export function startKilo(
  bin: string,
  world: World,
  env: Record<string, string> = {},
): Promise<Tmux> {
  return startForkTui(bin, world, "KILO", { KILO_DISABLE_SESSION_INGEST: "1", ...env });
}
