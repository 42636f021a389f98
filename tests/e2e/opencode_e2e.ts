/**
 * End to end in the real opencode (pinned, offline, against the loopback Chat Completions
 * stand-in as a custom OpenAI-compatible provider): `install --agent opencode` writes the thin
 * plugin file; the model dumps through its bash tool, the user sends `/new`, and the new session's
 * system prompt carries the handover, once; `/compact` brings the continuity card; a second `/new`
 * carries nothing; uninstall removes the plugin file.
 */

import assert from "node:assert/strict";
import { isoStamp } from "../../lib/store/time.ts";
import { cli, dumpCommand, linkSkill, makeWorld } from "./support/agents.ts";
import { configureOpencode, ensureOpencode, startOpencode } from "./support/chat_agents.ts";
import {
  isToolOutput,
  isTurn,
  lastUser,
  type Recorded,
  requestText,
  startStandIn,
} from "./support/chat_stand_in.ts";
import { sleep, type Tmux } from "./support/tmux.ts";

const STORE = ".claude/state/session";
const PLUGIN = ".opencode/plugins/session-restore.ts";
const BANNER = "[session] The previous session left";
const CARD = "[session] The context was just compacted";

Deno.test("opencode e2e: dump, /new restores once, /compact brings the card", async (t) => {
  const bin = await ensureOpencode();
  const world = await makeWorld();
  const standIn = startStandIn((r) => {
    if (!isTurn(r)) return { text: "E2E title" };
    if (isToolOutput(r)) return { text: "Dumped. Send /new to continue." };
    if (lastUser(r).includes("please dump")) {
      const command = dumpCommand("e2e-opencode", "mark-opencode-1");
      return { tool: "bash", args: { command, description: "Dump the session handover" } };
    }
    return { text: "OK." };
  });
  const env = { SESSION_NOW: isoStamp(new Date()) };
  let tmux: Tmux | undefined;
  /** Submits `message`; the first agent turn from then on whose last user message carries it. */
  const say = async (message: string): Promise<Recorded> => {
    const since = standIn.requests.length;
    await tmux!.submit(message);
    return await standIn.waitFor((r) => isTurn(r) && lastUser(r).includes(message), {
      since,
      timeoutMs: 45_000,
    });
  };
  const newThen = async (message: string) => {
    await tmux!.submit("/new");
    await sleep(2_000);
    return await say(message);
  };
  /** A step that, when it fails, stops the test (whose failure shows the screen and requests). */
  const step = async (name: string, fn: () => Promise<void>) => {
    if (!(await t.step(name, fn))) throw new Error(`step failed: ${name}`);
  };
  try {
    await configureOpencode(world, standIn.url);
    const installed = await cli(world, { env }, "install", "--agent", "opencode");
    assert.equal(installed.code, 0, installed.out);
    await linkSkill(world);
    tmux = await startOpencode(bin, world, env);

    await step("the model's bash tool runs dump; its last line is /clear", async () => {
      const asked = await say("please dump the session");
      // The skill from ~/.agents/skills is listed to the model.
      assert.match(requestText(asked, "system"), /session\/SKILL\.md/);
      assert.ok(!requestText(asked, "system").includes(BANNER), "nothing to restore yet");
      const back = await standIn.waitFor((r) => isTurn(r) && isToolOutput(r), {
        timeoutMs: 45_000,
      });
      assert.match(requestText(back, "tool"), /\/clear\s*$/m, requestText(back, "tool"));
      const doc = await Deno.readTextFile(`${world.project}/${STORE}/e2e-opencode.md`);
      assert.match(doc, /consumed: false/);
      await tmux!.waitForScreen("Dumped. Send /new", 30_000);
    });

    await step("/new: the new session's system prompt carries the handover", async () => {
      const next = await newThen("carry on");
      const system = requestText(next, "system");
      assert.ok(system.includes(`${BANNER} this handover: "e2e-opencode"`), "banner in the system");
      assert.ok(system.includes("mark-opencode-1"), "the body in the system");
      assert.ok(!requestText(next).includes("please dump"), "the old conversation is gone");
      const doc = await Deno.readTextFile(`${world.project}/${STORE}/e2e-opencode.md`);
      assert.match(doc, /consumed: true/);
    });

    await step("/compact: the card of the handover this session started from", async () => {
      await tmux!.submit("/compact");
      await tmux!.waitForScreen("Compaction", 60_000);
      await sleep(2_000);
      const system = requestText(await say("after the compaction"), "system");
      assert.ok(system.includes(CARD), "the card in the system");
      assert.ok(system.includes("mark-opencode-1"), "the handover's goal in the card");
    });

    await step("a second /new carries nothing", async () => {
      const next = await newThen("second round");
      assert.ok(!requestText(next).includes(BANNER));
      assert.ok(!requestText(next).includes("mark-opencode-1"));
    });

    await step("uninstall removes exactly what install added", async () => {
      const removed = await cli(world, { env }, "uninstall", "--agent", "opencode");
      assert.equal(removed.code, 0, removed.out);
      await assert.rejects(Deno.stat(`${world.project}/${PLUGIN}`), Deno.errors.NotFound);
    });
  } catch (err) {
    console.error(`screen:\n${await tmux?.screen()}`);
    for (const r of standIn.requests) {
      console.error(
        `request: turn=${isTurn(r)} tool=${isToolOutput(r)} user=${lastUser(r).slice(-80)}`,
      );
    }
    throw err;
  } finally {
    await tmux?.kill();
    await standIn.close();
    await world.cleanup();
  }
});
