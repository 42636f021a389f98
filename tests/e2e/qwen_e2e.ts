/**
 * End to end in the real Qwen Code (pinned, offline, against the loopback Chat Completions
 * stand-in): the model dumps through its shell tool, the user sends `/clear`, and the next model
 * request's system instruction carries the handover, once; `/compress` brings the continuity card;
 * a second `/clear` carries nothing; uninstall removes what install added.
 */

import assert from "node:assert/strict";
import { isoStamp } from "../../lib/store/time.ts";
import { cli, dumpCommand, linkSkill, makeWorld } from "./support/agents.ts";
import { configureQwen, ensureQwen, startQwen } from "./support/chat_agents.ts";
import {
  isToolOutput,
  lastUser,
  type Recorded,
  requestText,
  startStandIn,
} from "./support/chat_stand_in.ts";
import { sleep, type Tmux } from "./support/tmux.ts";

const STORE = ".claude/state/session";
const BANNER = "[session] The previous session left";
const CARD = "[session] The context was just compacted";

Deno.test("qwen e2e: dump, /clear restores once, /compress brings the card", async (t) => {
  const bin = await ensureQwen();
  const world = await makeWorld();
  const standIn = startStandIn((r) => {
    if (isToolOutput(r)) return { text: "Dumped. Send /clear to continue." };
    if (lastUser(r).includes("please dump")) {
      const command = dumpCommand("e2e-qwen", "mark-qwen-1");
      return { tool: "run_shell_command", args: { command, description: "dump" } };
    }
    return { text: "OK." };
  });
  const env = { SESSION_NOW: isoStamp(new Date()) };
  let tmux: Tmux | undefined;
  /** Submits `message`; the first request from then on whose last user message carries it. */
  const say = async (message: string): Promise<Recorded> => {
    const since = standIn.requests.length;
    // Qwen reads keys typed in quick succession as a paste: Enter waits until the text settled.
    await tmux!.type(message);
    await sleep(1_000);
    await tmux!.press("Enter");
    return await standIn.waitFor((r) => lastUser(r).includes(message), {
      since,
      timeoutMs: 45_000,
    });
  };
  /** Sends `/clear` once Qwen is idle, waits until the screen is cleared, then says `message`. */
  const clearThen = async (message: string) => {
    await sleep(3_000); // Qwen's side calls after a turn (memory, suggestions) settle first
    await tmux!.submit("/clear");
    await tmux!.waitForScreen((s) => !s.includes("◆") && s.includes("Type your message"), 20_000);
    await sleep(1_000);
    return await say(message);
  };
  /** A step that, when it fails, stops the test (whose failure shows the screen and requests). */
  const step = async (name: string, fn: () => Promise<void>) => {
    if (!(await t.step(name, fn))) throw new Error(`step failed: ${name}`);
  };
  try {
    await configureQwen(world);
    const installed = await cli(world, { env }, "install", "--agent", "qwen");
    assert.equal(installed.code, 0, installed.out);
    await linkSkill(world);
    tmux = await startQwen(bin, world, standIn.url, env);

    await step("the model's shell tool runs dump; its last line is /clear", async () => {
      const asked = await say("please dump the session");
      // The skill from ~/.agents/skills is offered to the model.
      assert.match(JSON.stringify(asked.body), /session\/SKILL\.md|Handover that survives/);
      const back = await standIn.waitFor(isToolOutput, { timeoutMs: 45_000 });
      assert.match(requestText(back, "tool"), /\/clear\s*$/m, requestText(back, "tool"));
      const doc = await Deno.readTextFile(`${world.project}/${STORE}/e2e-qwen.md`);
      assert.match(doc, /consumed: false/);
      await tmux!.waitForScreen("Dumped. Send /clear", 30_000);
    });

    await step("/clear: the next request's system instruction carries the handover", async () => {
      const next = await clearThen("carry on");
      const system = requestText(next, "system");
      assert.ok(system.includes(`${BANNER} this handover: "e2e-qwen"`), "banner in the system");
      assert.ok(system.includes("mark-qwen-1"), "the body in the system");
      assert.ok(!requestText(next).includes("please dump"), "the old conversation is gone");
      const doc = await Deno.readTextFile(`${world.project}/${STORE}/e2e-qwen.md`);
      assert.match(doc, /consumed: true/);
    });

    await step("/compress: the card of the handover this session started from", async () => {
      // Enough history for Qwen to find a compression worth it.
      await say(`background ${"lorem ipsum dolor sit amet ".repeat(300).trim()}`);
      await tmux!.waitForScreen("OK.", 30_000);
      await tmux!.submit("/compress");
      await tmux!.waitForScreen("Chat history compressed", 60_000);
      const next = await say("after the compression");
      const system = requestText(next, "system");
      assert.ok(system.includes(CARD), "the card in the system");
      assert.ok(system.includes("mark-qwen-1"), "the handover's goal in the card");
    });

    await step("a second /clear carries nothing", async () => {
      const next = await clearThen("second round");
      assert.ok(!requestText(next).includes(BANNER));
      assert.ok(!requestText(next).includes("mark-qwen-1"));
    });

    await step("uninstall removes exactly what install added", async () => {
      const removed = await cli(world, { env }, "uninstall", "--agent", "qwen");
      assert.equal(removed.code, 0, removed.out);
      // Qwen itself stamps the file with its settings version on first start: that key stays.
      const left = JSON.parse(await Deno.readTextFile(`${world.project}/.qwen/settings.json`));
      assert.deepEqual(Object.keys(left), ["$version"]);
    });
  } catch (err) {
    console.error(`screen:\n${await tmux?.screen()}`);
    for (const r of standIn.requests) {
      console.error(`request: tool=${isToolOutput(r)} user=${lastUser(r).slice(-80)}`);
    }
    throw err;
  } finally {
    await tmux?.kill();
    await standIn.close();
    await world.cleanup();
  }
});
