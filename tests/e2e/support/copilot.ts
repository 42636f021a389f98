/**
 * GitHub Copilot CLI for the end-to-end tests: installed pinned from npm into `.temp/e2e/`, run
 * offline (`COPILOT_OFFLINE`) against the Chat Completions stand-in as its BYOK provider
 * (`COPILOT_PROVIDER_BASE_URL`; Copilot's default wire API is Chat Completions), every tool and
 * path allowed and the project trusted (`COPILOT_ALLOW_ALL=true`), interactive in tmux.
 * @module
 */

import { ensureClient, type World } from "./agents.ts";
import * as chat from "./chat_stand_in.ts";
import { chatSide, script, started } from "./cross_chat.ts";
import { clientEnv } from "./process.ts";
import { projectFile } from "../../../lib/agents/command.ts";
import { sleep, startTmux, type Tmux } from "./tmux.ts";

/** The GitHub Copilot CLI version the end-to-end tests run (and that the README names). */
export const COPILOT_VERSION = "1.0.102";

/** Installs the pinned Copilot CLI (once); returns its `copilot` binary. */
export function ensureCopilot(): Promise<string> {
  return ensureClient("@github/copilot", COPILOT_VERSION, "copilot");
}

/**
 * Where the binary unpacks its bundled package on first start (~230 MB, `~/.cache/copilot`): one
 * folder for every run, linked into each scratch HOME (the rest of `~/.cache`, the launcher's
 * stamps among it, stays the world's own). Under a `node_modules`, which `deno check .` skips:
 * the package holds TypeScript of its own.
 */
const CACHE = projectFile(".temp/e2e/node_modules/copilot-cache");

async function linkCache(world: World): Promise<void> {
  await Deno.mkdir(CACHE, { recursive: true });
  await Deno.mkdir(`${world.home}/.cache`, { recursive: true });
  await Deno.symlink(CACHE, `${world.home}/.cache/copilot`).catch((err) => {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
  });
}

/** Starts interactive Copilot CLI in tmux against the stand-in at `baseUrl`; waits for its prompt. */
export async function startCopilot(
  bin: string,
  world: World,
  baseUrl: string,
  env: Record<string, string> = {},
): Promise<Tmux> {
  await linkCache(world);
  const tmux = await startTmux({
    command: [bin, "--yolo", "--no-auto-update"],
    cwd: world.project,
    env: clientEnv(world.home, {
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: baseUrl,
      COPILOT_MODEL: "e2e-model",
      COPILOT_AUTO_UPDATE: "false",
      COPILOT_ALLOW_ALL: "true",
      ...env,
    }),
  });
  // The first start unpacks the package: minutes on a loaded machine.
  await tmux.waitForScreen("? help", 240_000).catch(async (err) => {
    await tmux.kill(); // a client that never came up must not outlive the test
    throw err;
  });
  await sleep(1_500);
  return tmux;
}

/**
 * Real Copilot CLI (its `bash` tool) with its own stand-in, as a side of the cross-agent tests. Its
 * SessionStart runs with a session's first prompt, not within `/clear`.
 */
export async function copilotSide(bin: string, world: World, env: Record<string, string>) {
  const standIn = chat.startStandIn(
    script("bash", (command) => ({ command, description: "Dump the session handover" })),
  );
  const tmux = await started(standIn, () => startCopilot(bin, world, standIn.url, env));
  return chatSide("GitHub Copilot CLI", standIn, tmux, "/clear", false);
}
