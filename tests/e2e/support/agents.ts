/**
 * Codex CLI and Gemini CLI for the end-to-end tests: installed pinned from npm into a private
 * prefix, run offline in tmux against their loopback stand-ins, with a scratch HOME whose config
 * points them at the stand-in and trusts the project (so no login, update or trust dialog blocks).
 * @module
 */

import { CLI_FLAGS, projectFile } from "../../../lib/agents/command.ts";
import { makeWorld, type World } from "./claude.ts";
import { clientEnv, npmInstall, run, runCli } from "./process.ts";
import { sleep, startTmux, type Tmux } from "./tmux.ts";

/** The Codex CLI version the end-to-end tests run (and that the README names). */
export const CODEX_VERSION = "0.171.0";
/** The Gemini CLI version the end-to-end tests run (and that the README names). */
export const GEMINI_VERSION = "0.61.0";

/** Installs `pkg@version` (once) into `.temp/e2e/` and returns the path of its `bin`. */
export async function ensureClient(pkg: string, version: string, bin: string): Promise<string> {
  const prefix = projectFile(
    `.temp/e2e/${pkg.replace(/[@/]+/g, "-").replace(/^-/, "")}-${version}`,
  );
  const path = `${prefix}/node_modules/.bin/${bin}`;
  const ok = async () => (await run(path, ["--version"]).catch(() => "")).includes(version);
  if (await ok()) return path;
  await npmInstall(prefix, `${pkg}@${version}`);
  if (!(await ok())) throw new Error(`${path} --version does not say ${version}`);
  return path;
}

/** Installs the pinned Codex CLI (once); returns its `codex` binary. */
export function ensureCodex(): Promise<string> {
  return ensureClient("@openai/codex", CODEX_VERSION, "codex");
}

/** Installs the pinned Gemini CLI (once); returns its `gemini` binary. */
export function ensureGemini(): Promise<string> {
  return ensureClient("@google/gemini-cli", GEMINI_VERSION, "gemini");
}

// The scratch world (HOME and a git project with one commit) is Claude Code's e2e world: its
// preseeded ~/.claude.json is inert for the other clients.
export { makeWorld, type World };

/** Links the checkout into `~/.agents/skills/session`, where both CLIs discover skills. */
export async function linkSkill(world: World): Promise<void> {
  await Deno.mkdir(`${world.home}/.agents/skills`, { recursive: true });
  await Deno.symlink(projectFile("").replace(/\/$/, ""), `${world.home}/.agents/skills/session`);
}

/**
 * Codex's config: the stand-in as a Responses API provider, the project trusted; `extra` lines go
 * at the top level (before the tables), e.g. `model_context_window = 100000`.
 */
export async function configureCodex(
  world: World,
  baseUrl: string,
  extra: string[] = [],
): Promise<void> {
  await Deno.mkdir(`${world.home}/.codex`, { recursive: true });
  await Deno.writeTextFile(
    `${world.home}/.codex/config.toml`,
    [
      `model = "gpt-e2e"`,
      `model_provider = "standin"`,
      `check_for_update_on_startup = false`,
      ...extra,
      `[model_providers.standin]`,
      `name = "loopback stand-in"`,
      `base_url = "${baseUrl}"`,
      `wire_api = "responses"`,
      `[projects."${world.project}"]`,
      `trust_level = "trusted"`,
      "",
    ].join("\n"),
  );
}

/**
 * Starts interactive Codex in tmux (no sandbox, no approvals: the e2e runs `deno` through its
 * shell tool). With `reviewHooks` (new hooks registered), Codex asks for a review before its
 * prompt accepts input; the test trusts them the way a person does ("Trust all and continue").
 */
export async function startCodex(
  bin: string,
  world: World,
  options: { env?: Record<string, string>; reviewHooks?: boolean } = {},
): Promise<Tmux> {
  const tmux = await startTmux({
    command: [bin, "--no-daemon", "--sandbox", "danger-full-access", "--ask-for-approval", "never"],
    cwd: world.project,
    env: clientEnv(world.home, { CODEX_HOME: `${world.home}/.codex`, ...options.env }),
  });
  try {
    if (options.reviewHooks) {
      await tmux.waitForScreen("Trust all and continue", 60_000);
      // The dialog can draw before it takes keys: select option 2, check, confirm, until it is gone.
      for (let i = 0; i < 20; i++) {
        await sleep(500);
        const screen = await tmux.screen();
        if (!screen.includes("Trust all and continue")) break;
        if (/›\s*2\. Trust all/.test(screen)) await tmux.press("Enter");
        else await tmux.press("Down");
      }
      await tmux.waitForScreen((s) => s.includes("Ask Codex") && !s.includes("Trust all"), 30_000);
    } else {
      await tmux.waitForScreen("Ask Codex", 60_000);
    }
  } catch (err) {
    await tmux.kill(); // a client that never came up must not outlive the test
    throw err;
  }
  await sleep(500);
  return tmux;
}

/** Gemini's config: API-key auth, no update checks or telemetry, the project trusted. */
export async function configureGemini(world: World): Promise<void> {
  await Deno.mkdir(`${world.home}/.gemini`, { recursive: true });
  await Deno.writeTextFile(
    `${world.home}/.gemini/settings.json`,
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    }),
  );
  await Deno.writeTextFile(
    `${world.home}/.gemini/trustedFolders.json`,
    JSON.stringify({ [world.project]: "TRUST_FOLDER" }),
  );
}

/**
 * Starts interactive Gemini CLI in tmux against the stand-in (`GOOGLE_GEMINI_BASE_URL`), with a
 * fixed model (no routing side calls) and YOLO approvals; waits for the prompt.
 */
export async function startGemini(
  bin: string,
  world: World,
  baseUrl: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<Tmux> {
  const tmux = await startTmux({
    command: [bin, "--model", "gemini-2.5-flash", "--approval-mode", "yolo", ...args],
    cwd: world.project,
    env: clientEnv(world.home, {
      GEMINI_API_KEY: "e2e-stand-in-key",
      GOOGLE_GEMINI_BASE_URL: baseUrl,
      GEMINI_CLI_NO_RELAUNCH: "1",
      ...env,
    }),
  });
  await tmux.waitForScreen("Type your message", 60_000).catch(async (err) => {
    await tmux.kill(); // a client that never came up must not outlive the test
    throw err;
  });
  await sleep(1_500);
  return tmux;
}

/** The handover body the model "writes"; `mark` makes it findable in a request. */
export function handoverBody(mark: string): string {
  return [
    "## Goal",
    `Prove the handover survives /clear (${mark}).`,
    "## Decisions",
    "- Stand-in API on loopback — why: offline, every request recorded.",
    "## Next step",
    "Check the restored context.",
  ].join("\n");
}

/** The shell command the model runs to dump: the real CLI with the body on stdin. */
export function dumpCommand(slug: string, mark: string): string {
  return `deno run ${CLI_FLAGS.join(" ")} ${projectFile("session.ts")} dump ${slug} <<'EOF'\n${
    handoverBody(mark)
  }\nEOF`;
}

/** Runs the CLI in the world's project (for install, and for setting up old dumps). */
export async function cli(
  world: World,
  options: { env?: Record<string, string>; input?: string },
  ...args: string[]
): Promise<{ code: number; out: string }> {
  const r = await runCli(world, args, { env: options.env, stdin: options.input });
  return { code: r.code, out: r.stdout + r.stderr };
}
