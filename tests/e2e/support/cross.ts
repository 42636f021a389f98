/**
 * The three clients behind one face, for the cross-agent end-to-end test: each {@link Side} is a
 * real client in tmux with its own loopback stand-in, whose scripted model dumps through the
 * client's shell tool when asked `please dump as <slug> with <mark>`, and answers "OK." otherwise.
 * A test then reads what each client's next model request carried, the same way for all three.
 * @module
 */

import { type World } from "./claude.ts";
import * as claude from "./claude.ts";
import assert from "node:assert/strict";
import { isoStamp } from "../../../lib/store/time.ts";
import { cli, dumpCommand, linkSkill, startCodex, startGemini } from "./agents.ts";
import * as anthropic from "./stand_in.ts";
import * as responses from "./responses_stand_in.ts";
import * as gemini from "./gemini_stand_in.ts";
import { sleep, type Tmux } from "./tmux.ts";

/** One client and its stand-in, driven the same way whichever it is. */
export interface Side {
  name: string;
  tmux: Tmux;
  /** Submits `message`; resolves with all the text of the agent turn that carries it. */
  say: (message: string) => Promise<string>;
  /** Has the model dump `slug` (body carrying `mark`) through its shell tool; the tool's output. */
  dump: (slug: string, mark: string) => Promise<string>;
  /** True when the client runs the restore hook within `/clear` (not with the next message). */
  restoresOnClear: boolean;
  /** Sends `/clear` and lets the client start its new session. */
  clear: () => Promise<void>;
  /** Every request the stand-in recorded, summed up for a failure report. */
  log: () => string[];
  /** Stops the client and its stand-in. */
  stop: () => Promise<void>;
}

const WAIT_MS = 30_000;

/** The project's store, from its root. */
export const STORE = ".claude/state/session";

/** The restore's factual banner for `slug` (injected text is framed as data). */
export const banner = (slug: string) =>
  `[session] The previous session left this handover: "${slug}"`;

/** The text of the store's document `slug`. */
export async function storeDoc(world: World, slug: string): Promise<string> {
  return await Deno.readTextFile(`${world.project}/${STORE}/${slug}.md`);
}

/** The dump a prompt asks for: `please dump as <slug> with <mark>`. */
export function dumpAsked(text: string): { slug: string; mark: string } | undefined {
  const m = /please dump as (\S+) with (\S+)/.exec(text);
  return m ? { slug: m[1], mark: m[2] } : undefined;
}

/** The prompt that makes a side's model dump. */
export function dumpPrompt(slug: string, mark: string): string {
  return `please dump as ${slug} with ${mark}`;
}

/** Real Claude Code (its `Bash` tool) against the Messages API stand-in. */
export async function claudeSide(bin: string, world: World, env: Record<string, string>) {
  const standIn = anthropic.startStandIn((r) => {
    if (anthropic.isToolResult(r)) return { text: "Handover saved — send /clear." };
    const asked = dumpAsked(anthropic.lastUserText(r));
    if (!asked) return { text: "OK." };
    const command = dumpCommand(asked.slug, asked.mark);
    return { tool: "Bash", input: { command, description: "Dump the session handover" } };
  });
  const tmux = await claude.startClaude(bin, world, standIn, { env }).catch(async (err) => {
    await standIn.close();
    throw err;
  });
  const turn = (r: anthropic.Recorded) => (r.body.tools?.length ?? 0) > 0;
  const say = async (message: string) => {
    const since = standIn.requests.length;
    await tmux.submit(message);
    const r = await standIn.waitFor(
      (r) => turn(r) && anthropic.lastUserText(r).includes(message),
      { since, timeoutMs: WAIT_MS },
    );
    return (r.body.messages ?? []).map(anthropic.messageText).join("\n");
  };
  return {
    name: "Claude Code",
    tmux,
    restoresOnClear: true,
    say,
    dump: async (slug, mark) => {
      const since = standIn.requests.length;
      await say(dumpPrompt(slug, mark));
      const r = await standIn.waitFor(anthropic.isToolResult, { since, timeoutMs: WAIT_MS });
      return anthropic.messageText(anthropic.lastMessage(r)!);
    },
    clear: async () => {
      await tmux.submit("/clear");
      await sleep(3_000);
    },
    log: () =>
      standIn.requests.map((r) =>
        `claude: turn=${turn(r)} tool=${anthropic.isToolResult(r)} user=${
          anthropic.lastUserText(r).slice(-80)
        }`
      ),
    stop: async () => {
      await tmux.kill();
      await standIn.close();
    },
  } satisfies Side;
}

/** The last user message's text of a Responses API request. */
function codexLastUser(r: responses.Recorded): string {
  const last = (r.body.input ?? []).findLast((i) => i.role === "user");
  return last ? responses.inputText({ ...r, body: { input: [last] } }) : "";
}

/**
 * Real Codex CLI (its `exec_command` tool) against the Responses API stand-in; `configure` writes
 * its config once the stand-in's URL is known. `reviewHooks`: trust the newly registered hooks.
 */
export async function codexSide(
  bin: string,
  world: World,
  env: Record<string, string>,
  configure: (url: string) => Promise<void>,
) {
  // The agent's own turns carry tools; side calls (the session title) do not.
  const turn = (r: responses.Recorded) => (r.body.tools?.length ?? 0) > 0;
  const standIn = responses.startStandIn((r) => {
    if (!turn(r)) return { text: "Session title" };
    if (responses.isToolOutput(r)) return { text: "Dumped. Send /clear to continue." };
    const asked = dumpAsked(codexLastUser(r));
    if (!asked) return { text: "OK." };
    return { tool: "exec_command", args: { cmd: dumpCommand(asked.slug, asked.mark) } };
  });
  let tmux: Tmux;
  try {
    await configure(standIn.url);
    tmux = await startCodex(bin, world, { env, reviewHooks: true });
  } catch (err) {
    await standIn.close();
    throw err;
  }
  const say = async (message: string) => {
    const since = standIn.requests.length;
    await tmux.submit(message);
    const r = await standIn.waitFor((r) => turn(r) && codexLastUser(r).includes(message), {
      since,
      timeoutMs: WAIT_MS,
    });
    return responses.inputText(r);
  };
  return {
    name: "Codex",
    tmux,
    restoresOnClear: false,
    say,
    dump: async (slug, mark) => {
      const since = standIn.requests.length;
      await say(dumpPrompt(slug, mark));
      const r = await standIn.waitFor((r) => turn(r) && responses.isToolOutput(r), {
        since,
        timeoutMs: WAIT_MS,
      });
      return responses.inputText(r);
    },
    clear: async () => {
      await tmux.submit("/clear");
      await sleep(1_500);
    },
    log: () =>
      standIn.requests.map((r) =>
        `codex: turn=${turn(r)} tool=${responses.isToolOutput(r)} user=${
          codexLastUser(r).slice(-80)
        }`
      ),
    stop: async () => {
      await tmux.kill();
      await standIn.close();
    },
  } satisfies Side;
}

/** The last user content's text of a Gemini API request (what was typed, plus hook context). */
function geminiLastUser(r: gemini.Recorded): string {
  const last = (r.body.contents ?? []).findLast((c) => c.role === "user");
  return last ? gemini.contentsText({ ...r, body: { contents: [last] } }) : "";
}

/** Every string inside a JSON value. */
function strings(v: unknown): string[] {
  if (typeof v === "string") return [v];
  return v && typeof v === "object" ? Object.values(v).flatMap(strings) : [];
}

/** Real Gemini CLI (its `run_shell_command` tool) against the Gemini API stand-in. */
export async function geminiSide(bin: string, world: World, env: Record<string, string>) {
  const standIn = gemini.startStandIn((r) => {
    if (gemini.isToolOutput(r)) return { text: "Dumped. Send /clear to continue." };
    const asked = dumpAsked(geminiLastUser(r));
    if (!asked) return { text: "OK." };
    const command = dumpCommand(asked.slug, asked.mark);
    return { tool: "run_shell_command", args: { command, description: "dump" } };
  });
  const tmux = await startGemini(bin, world, standIn.url, env).catch(async (err) => {
    await standIn.close();
    throw err;
  });
  // Gemini appends the BeforeAgent context to the user's message: that content is what it carried.
  const say = async (message: string) => {
    const since = standIn.requests.length;
    await tmux.submit(message);
    const r = await standIn.waitFor(
      (r) => gemini.isAgentTurn(r) && geminiLastUser(r).includes(message),
      { since, timeoutMs: WAIT_MS },
    );
    return gemini.contentsText(r);
  };
  return {
    name: "Gemini",
    tmux,
    restoresOnClear: false,
    say,
    dump: async (slug, mark) => {
      const since = standIn.requests.length;
      await say(dumpPrompt(slug, mark));
      const r = await standIn.waitFor(gemini.isToolOutput, { since, timeoutMs: WAIT_MS });
      // The function response as text (contentsText has it as JSON, its newlines escaped).
      const parts = r.body.contents?.at(-1)?.parts ?? [];
      return strings(parts.find((p) => p.functionResponse)?.functionResponse?.response).join("\n");
    },
    clear: async () => {
      await tmux.submit("/clear");
      await sleep(2_000);
    },
    log: () =>
      standIn.requests.map((r) =>
        `gemini: turn=${gemini.isAgentTurn(r)} tool=${gemini.isToolOutput(r)} user=${
          geminiLastUser(r).slice(-80)
        }`
      ),
    stop: async () => {
      await tmux.kill();
      await standIn.close();
    },
  } satisfies Side;
}

/**
 * Runs `test` with the clients it starts (pushed to `sides`); when it fails, shows each client's
 * screen and recorded requests and the front matter of every file in the project's `store`.
 * Always stops the clients and removes the world.
 */
export async function withSides(
  world: World,
  store: string,
  test: (sides: Side[]) => Promise<void>,
): Promise<void> {
  const sides: Side[] = [];
  try {
    await test(sides);
  } catch (err) {
    for (const side of sides) {
      console.error(`${side.name} screen:\n${await side.tmux.screen()}`);
      for (const line of side.log()) console.error(line);
    }
    for await (const e of Deno.readDir(`${world.project}/${store}`)) {
      const text = await Deno.readTextFile(`${world.project}/${store}/${e.name}`).catch(() => "");
      console.error(`store: ${e.name}\n${text.split("\n---\n")[0]}`);
    }
    throw err;
  } finally {
    for (const side of sides) await side.stop();
    await world.cleanup();
  }
}

/**
 * A fresh world with the hook installed and the skill linked, `n` Claude Code sides started in it
 * (clock: `env`), handed to `test`; {@link withSides} reports a failure and cleans up.
 */
export async function withClaudeSides(
  bin: string,
  n: number,
  test: (world: World, sides: Side[], env: Record<string, string>) => Promise<void>,
): Promise<void> {
  const world = await claude.makeWorld();
  const env = { SESSION_NOW: isoStamp(new Date()) };
  await withSides(world, STORE, async (sides) => {
    const installed = await cli(world, { env }, "install");
    assert.equal(installed.code, 0, installed.out);
    await linkSkill(world);
    for (let i = 0; i < n; i++) sides.push(await claudeSide(bin, world, env));
    await test(world, sides, env);
  });
}

/** Claude Code and other clients in one project, as a test sees them. */
export interface Scene {
  world: World;
  /** One clock for every client, its shell tool and its hooks: each dump is "just now". */
  env: Record<string, string>;
  /** Starts a client (stopped after the test). */
  start: <S extends Side>(side: Promise<S>) => Promise<S>;
  /** A step of the test that, when it fails, stops the test. */
  step: (name: string, fn: () => Promise<void>) => Promise<void>;
}

/**
 * Runs `test` as the body of `t` in a fresh world with Claude Code's hook installed, then one
 * `install` per entry of `installs` (its arguments, e.g. `["--agent", "kilo", "--user"]`), and the
 * skill linked; {@link withSides} reports a failure and cleans up.
 */
export async function inScene(
  t: Deno.TestContext,
  installs: string[][],
  test: (scene: Scene) => Promise<void>,
): Promise<void> {
  const world = await claude.makeWorld();
  const env = { SESSION_NOW: isoStamp(new Date()) };
  await withSides(world, STORE, async (sides) => {
    for (const args of [[], ...installs]) {
      const installed = await cli(world, { env }, "install", ...args);
      assert.equal(installed.code, 0, installed.out);
    }
    await linkSkill(world);
    const start = async <S extends Side>(side: Promise<S>) => {
      const started = await side;
      sides.push(started);
      return started;
    };
    const step = async (name: string, fn: () => Promise<void>) => {
      if (!(await t.step(name, fn))) throw new Error(`step failed: ${name}`);
    };
    await test({ world, env, start, step });
  });
}
