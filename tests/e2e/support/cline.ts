/**
 * Cline CLI for the end-to-end tests: installed pinned from npm into `.temp/e2e/`, its provider
 * set to the Chat Completions stand-in (support/chat_stand_in.ts) as an OpenAI-compatible one
 * through its own `cline auth`, started interactive (`cline -i`) in tmux with no ClinePass notice,
 * and driven as a {@link Side} (support/cross.ts) whose model dumps through `run_commands`.
 * @module
 */

import { dumpCommand, ensureClient, type World } from "./agents.ts";
import { started } from "./cross_chat.ts";
import { dumpAsked, dumpPrompt, type Side } from "./cross.ts";
import * as chat from "./chat_stand_in.ts";
import { clientEnv } from "./process.ts";
import { sleep, startTmux, type Tmux } from "./tmux.ts";

const WAIT_MS = 45_000;

/** The Cline CLI version the end-to-end tests run (and that the README names). */
export const CLINE_VERSION = "3.0.65";

/** Installs the pinned Cline CLI (once); returns its `cline` binary. */
export function ensureCline(): Promise<string> {
  return ensureClient("cline", CLINE_VERSION, "cline");
}

/**
 * What Cline runs with besides the scratch HOME: the local session backend, no ClinePass notice
 * (it takes the first keys typed), and a hub port of its own — the TUI starts a hub daemon
 * anyway, on a fixed port unless told, which {@link stopHub} ends.
 */
function clineEnv(world: World, env: Record<string, string>): Record<string, string> {
  return clientEnv(world.home, {
    CLINE_SESSION_BACKEND_MODE: "local",
    CLINE_DISABLE_CLINE_PASS_NOTICE: "1",
    CLINE_HUB_PORT: String(30_000 + Math.floor(Math.random() * 20_000)),
    ...env,
  });
}

/** Points Cline's provider at `baseUrl` (`cline auth`, which writes `~/.cline/data/settings/`). */
async function configureCline(
  bin: string,
  world: World,
  baseUrl: string,
  env: Record<string, string>,
) {
  const args = ["auth", "-p", "openai-compatible", "-k", "e2e-stand-in-key", "-m", "e2e-model"];
  const out = await new Deno.Command(bin, {
    args: [...args, "-b", baseUrl],
    cwd: world.project,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`cline auth: ${new TextDecoder().decode(out.stderr)}`);
}

/** Sends `signal` to `pid` (gone already: nothing). */
function signal(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Whether `pid` still runs (a zombie does not). */
async function alive(pid: number): Promise<boolean> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  return stat !== "" && !/\) Z /.test(stat);
}

/**
 * Ends the hub daemons Cline started for `world` (they outlive the TUI) and waits until they are
 * gone (one still shutting down would write into the world's HOME after its removal): each names
 * the world's project in its arguments, so no other process is touched.
 */
export async function stopHub(world: World): Promise<void> {
  const pids: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const args = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (args.includes("--cline-hub-daemon") && args.includes(world.project)) {
      pids.push(Number(entry.name));
    }
  }
  for (const pid of pids) {
    signal(pid, "SIGTERM");
    for (let i = 0; i < 50 && await alive(pid); i++) await sleep(100);
    if (await alive(pid)) signal(pid, "SIGKILL");
  }
}

/**
 * The user's turn in a request: every user message after the last assistant message, joined. A
 * session's first turn ends with the plugin's `<hook_context>` message, after the typed one.
 */
export function userTurn(r: chat.Recorded): string {
  const messages = r.body.messages ?? [];
  const last = messages.findLastIndex((m) => m.role === "assistant" || m.role === "tool");
  return messages.slice(last + 1).filter((m) => m.role === "user").map(chat.messageText)
    .join("\n");
}

/** The stand-in's script: a dump through `run_commands` when the user's turn asks for one. */
function script(): chat.Script {
  return (r) => {
    if (!chat.isTurn(r)) return { text: "E2E title" };
    if (chat.isToolOutput(r)) return { text: "Dumped. Send /clear to continue." };
    const asked = dumpAsked(userTurn(r));
    return asked
      ? { tool: "run_commands", args: { commands: [dumpCommand(asked.slug, asked.mark)] } }
      : { text: "OK." };
  };
}

/**
 * What the commands printed: `run_commands` answers a JSON list of `{ query, result }`; any other
 * text is given back as it is.
 */
export function commandOutput(text: string): string {
  try {
    const results = JSON.parse(text) as { result?: unknown }[];
    return results.map((r) => String(r.result ?? "")).join("\n");
  } catch {
    return text;
  }
}

/** A side over a started Cline: what it "carried" is all the text of its next request. */
function side(world: World, standIn: chat.StandIn, tmux: Tmux): Side {
  const say = async (message: string) => {
    const since = standIn.requests.length;
    await tmux.type(message);
    await sleep(1_000);
    await tmux.press("Enter");
    const r = await standIn.waitFor(
      (r) => chat.isTurn(r) && userTurn(r).includes(message),
      { since, timeoutMs: WAIT_MS },
    );
    return `${chat.requestText(r)}\n${chat.toolsText(r)}`;
  };
  return {
    name: "Cline CLI",
    tmux,
    restoresOnClear: false, // the plugin runs with the new session's first message
    say,
    dump: async (slug, mark) => {
      const since = standIn.requests.length;
      await say(dumpPrompt(slug, mark));
      const r = await standIn.waitFor((r) => chat.isTurn(r) && chat.isToolOutput(r), {
        since,
        timeoutMs: WAIT_MS,
      });
      return commandOutput(chat.requestText(r, "tool"));
    },
    clear: async () => {
      await sleep(2_000);
      await tmux.submit("/clear");
      await sleep(3_000);
    },
    log: () =>
      standIn.requests.map((r) =>
        `Cline CLI: turn=${chat.isTurn(r)} tool=${chat.isToolOutput(r)} user=${
          userTurn(r).slice(-80)
        }`
      ),
    stop: async () => {
      await tmux.kill();
      await standIn.close();
      await stopHub(world);
    },
  };
}

/**
 * Real Cline CLI (its `run_commands` tool) with its own stand-in; its `/clear` starts a new
 * session, whose plugin runs with the session's first message.
 */
export async function clineSide(
  bin: string,
  world: World,
  env: Record<string, string>,
): Promise<Side> {
  const standIn = chat.startStandIn(script());
  const full = clineEnv(world, env);
  const tmux = await started(standIn, async () => {
    await configureCline(bin, world, standIn.url, full);
    const tmux = await startTmux({ command: [bin, "-i"], cwd: world.project, env: full });
    await tmux.waitForScreen("What can I do for you", 60_000).catch(async (err) => {
      await tmux.kill();
      throw err;
    });
    await sleep(1_500);
    return tmux;
  });
  return side(world, standIn, tmux);
}
