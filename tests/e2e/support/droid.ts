/**
 * Factory Droid for the end-to-end tests: installed pinned from npm into `.temp/e2e/`, run offline
 * (`FACTORY_AIRGAP_ENABLED=1`, no sign-in) against the Chat Completions stand-in as its one custom
 * model (`customModels[]`, provider `generic-chat-completion-api`), the project trusted
 * (`trustedFolders` in `~/.factory/settings.json`), autonomy high (`--auto high`: its `Execute` tool
 * runs the dump without asking), interactive in tmux.
 * @module
 */

import { ensureClient, type World } from "./agents.ts";
import * as chat from "./chat_stand_in.ts";
import { chatSide, script, started } from "./cross_chat.ts";
import type { Side } from "./cross.ts";
import { clientEnv } from "./process.ts";
import { sleep, startTmux, type Tmux } from "./tmux.ts";

/** The Factory Droid version the end-to-end tests run (and that the README names). */
export const DROID_VERSION = "0.215.0";

/** Installs the pinned Droid (once); returns its `droid` binary. */
export function ensureDroid(): Promise<string> {
  return ensureClient("droid", DROID_VERSION, "droid");
}

/**
 * Droid's user settings: the stand-in at `baseUrl` as its model, the project trusted; merged into
 * a settings file an `install --user` wrote already (its hooks kept).
 */
export async function configureDroid(world: World, baseUrl: string): Promise<void> {
  const path = `${world.home}/.factory/settings.json`;
  await Deno.mkdir(`${world.home}/.factory`, { recursive: true });
  const settings = JSON.parse(await Deno.readTextFile(path).catch(() => "{}"));
  settings.customModels = [{
    model: "e2e-model",
    displayName: "E2E",
    baseUrl,
    apiKey: "e2e-key",
    provider: "generic-chat-completion-api",
    maxOutputTokens: 4096,
  }];
  settings.trustedFolders = { [world.project]: { trustedAt: new Date().toISOString() } };
  settings.logoAnimation = "off";
  await Deno.writeTextFile(path, JSON.stringify(settings, null, 2));
}

/** Starts interactive Droid in tmux (`args` after its own); waits for its prompt. */
export async function startDroid(
  bin: string,
  world: World,
  env: Record<string, string>,
  args: string[] = [],
): Promise<Tmux> {
  const tmux = await startTmux({
    command: [bin, "--auto", "high", ...args],
    cwd: world.project,
    env: clientEnv(world.home, {
      FACTORY_AIRGAP_ENABLED: "1",
      FACTORY_DROID_AUTO_UPDATE_ENABLED: "false",
      ...env,
    }),
  });
  await tmux.waitForScreen("? for help", 90_000).catch(async (err) => {
    await tmux.kill(); // a client that never came up must not outlive the test
    throw err;
  });
  await sleep(1_500);
  return tmux;
}

/**
 * Real Droid (its `Execute` tool) with its own stand-in, configured here: a {@link Side} whose
 * `/clear` (or `/new`) runs SessionEnd, then the new session's SessionStart, within the command.
 */
export async function droidSide(
  bin: string,
  world: World,
  env: Record<string, string>,
  fresh: "/clear" | "/new" = "/clear",
  args: string[] = [],
): Promise<Side> {
  const standIn = chat.startStandIn(
    script("Execute", (command) => ({
      command,
      summary: "Dump the session handover",
      riskLevel: "low",
      riskLevelReason: "This writes a handover file in the project's own store.",
    })),
  );
  const tmux = await started(standIn, async () => {
    await configureDroid(world, standIn.url);
    return await startDroid(bin, world, env, args);
  });
  const side = chatSide("Factory Droid", standIn, tmux, fresh, true);
  // A message typed while Droid still sets up the new session is lost: wait until the screen is
  // the new session's (its line, no reply of the old conversation's `⛬` left).
  const clear = async () => {
    await sleep(3_000);
    await tmux.submit(fresh);
    await tmux.waitForScreen((s) => s.includes("New session created") && !s.includes("⛬"), 30_000);
    await sleep(2_000);
  };
  return { ...side, clear };
}

/** The id of the newest session Droid keeps for `world`'s project (`~/.factory/sessions/`). */
export async function newestSession(world: World): Promise<string> {
  const dir = `${world.home}/.factory/sessions/${world.project.replaceAll("/", "-")}`;
  let newest: { id: string; at: number } | undefined;
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".jsonl")) continue;
    const at = (await Deno.stat(`${dir}/${e.name}`)).mtime?.getTime() ?? 0;
    if (!newest || at > newest.at) newest = { id: e.name.slice(0, -6), at };
  }
  if (!newest) throw new Error(`no Droid session in ${dir}`);
  return newest.id;
}

/** Droid's compaction: `/compress`, confirmed; done once the new session loaded the summary. */
export async function compressDroid(side: Side): Promise<void> {
  await side.tmux.submit("/compress");
  await side.tmux.waitForScreen("Confirm /compress", 30_000);
  await sleep(500);
  await side.tmux.press("Enter");
  await side.tmux.waitForScreen("Loaded summary from session", 60_000);
}
