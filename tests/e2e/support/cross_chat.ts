/**
 * Qwen Code and opencode as {@link Side}s of the cross-agent end-to-end test: each a real client
 * in tmux with its own Chat Completions stand-in, whose scripted model dumps through the client's
 * shell tool when asked `please dump as <slug> with <mark>` (support/cross.ts), and answers "OK."
 * otherwise. What a side "carried" is all the text of its next agent request, system prompt and
 * tool descriptions included (both put the restored context in the system prompt).
 * @module
 */

import { dumpAsked, dumpPrompt, type Side } from "./cross.ts";
import { dumpCommand, type World } from "./agents.ts";
import {
  configureKilo,
  configureOpencode,
  startKilo,
  startOpencode,
  startQwen,
} from "./chat_agents.ts";
import * as chat from "./chat_stand_in.ts";
import { sleep, type Tmux } from "./tmux.ts";

const WAIT_MS = 45_000;

/**
 * A side over a started client: `shell` names its shell tool, `fresh` the slash command;
 * `onClear`: whether its hook runs within `fresh` (default: for `/clear`).
 */
export function chatSide(
  name: string,
  standIn: chat.StandIn,
  tmux: Tmux,
  fresh: "/clear" | "/new",
  onClear = fresh === "/clear",
): Side {
  const say = async (message: string) => {
    const since = standIn.requests.length;
    // Qwen reads keys typed in quick succession as a paste: Enter waits until the text settled.
    await tmux.type(message);
    await sleep(1_000);
    await tmux.press("Enter");
    const r = await standIn.waitFor(
      (r) => chat.isTurn(r) && chat.lastUser(r).includes(message),
      { since, timeoutMs: WAIT_MS },
    );
    return `${chat.requestText(r)}\n${chat.toolsText(r)}`;
  };
  return {
    name,
    tmux,
    // Qwen runs its SessionStart within /clear; opencode's plugin with the new session's first message.
    restoresOnClear: onClear,
    say,
    dump: async (slug, mark) => {
      const since = standIn.requests.length;
      await say(dumpPrompt(slug, mark));
      const r = await standIn.waitFor((r) => chat.isTurn(r) && chat.isToolOutput(r), {
        since,
        timeoutMs: WAIT_MS,
      });
      return chat.requestText(r, "tool");
    },
    clear: async () => {
      await sleep(3_000); // side calls after a turn (Qwen: memory, suggestions) settle first
      await tmux.submit(fresh);
      await sleep(3_000);
    },
    log: () =>
      standIn.requests.map((r) =>
        `${name}: turn=${chat.isTurn(r)} tool=${chat.isToolOutput(r)} user=${
          chat.lastUser(r).slice(-80)
        }`
      ),
    stop: async () => {
      await tmux.kill();
      await standIn.close();
    },
  };
}

/** The stand-in's script for a client whose shell tool is `shell`. */
export function script(
  shell: string,
  args: (command: string) => Record<string, unknown>,
): chat.Script {
  return (r) => {
    if (!chat.isTurn(r)) return { text: "E2E title" };
    if (chat.isToolOutput(r)) return { text: "Dumped. Send /clear to continue." };
    const asked = dumpAsked(chat.lastUser(r));
    return asked ? { tool: shell, args: args(dumpCommand(asked.slug, asked.mark)) } : {
      text: "OK.",
    };
  };
}

/** Starts `start` with a new stand-in; the stand-in is closed when the client does not come up. */
export async function started(
  standIn: chat.StandIn,
  start: () => Promise<Tmux>,
): Promise<Tmux> {
  return await start().catch(async (err) => {
    await standIn.close();
    throw err;
  });
}

/**
 * Real Qwen Code (its `run_shell_command` tool) started with `args`; its settings are already in
 * the world's HOME.
 */
export async function qwenSide(
  bin: string,
  world: World,
  env: Record<string, string>,
  args: string[] = [],
) {
  const standIn = chat.startStandIn(
    script("run_shell_command", (command) => ({ command, description: "dump" })),
  );
  const tmux = await started(standIn, () => startQwen(bin, world, standIn.url, env, args));
  return chatSide("Qwen Code", standIn, tmux, "/clear");
}

/** opencode's and Kilo's compaction: `/compact`, done once the screen says so. */
export async function compactFork(side: Side): Promise<void> {
  await side.tmux.submit("/compact");
  await side.tmux.waitForScreen("Compaction", 60_000);
}

/** Real opencode (its `bash` tool), configured here for its own stand-in. */
export async function opencodeSide(bin: string, world: World, env: Record<string, string>) {
  const standIn = chat.startStandIn(
    script("bash", (command) => ({ command, description: "Dump the session handover" })),
  );
  const tmux = await started(standIn, async () => {
    await configureOpencode(world, standIn.url);
    return await startOpencode(bin, world, env);
  });
  return chatSide("opencode", standIn, tmux, "/new");
}

/**
 * Real Kilo Code CLI (opencode's `bash` tool), configured here for its own stand-in; `fresh`: its
 * `/new`, or `/clear` (an alias of it). Either way the plugin runs with the new session's first
 * message, as opencode's does.
 */
export async function kiloSide(
  bin: string,
  world: World,
  env: Record<string, string>,
  fresh: "/new" | "/clear" = "/new",
) {
  const standIn = chat.startStandIn(
    script("bash", (command) => ({ command, description: "Dump the session handover" })),
  );
  const tmux = await started(standIn, async () => {
    await configureKilo(world, standIn.url);
    return await startKilo(bin, world, env);
  });
  return chatSide("Kilo Code CLI", standIn, tmux, fresh, false);
}
