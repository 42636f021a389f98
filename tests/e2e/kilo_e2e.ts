/**
 * End to end in the real Kilo Code CLI (pinned, offline, against the loopback Chat Completions
 * stand-in as a custom OpenAI-compatible provider). Kilo is a fork of opencode and loads the same
 * plugin module (hooks/opencode.ts): the flow of support/chat_flow.ts — `install --agent kilo`
 * writes the thin plugin file into `.kilo/plugins/`; dump through its bash tool, `/new` restores
 * the handover into the new session's system prompt once, `/compact` brings the card, a second
 * `/new` carries nothing, uninstall removes the plugin file. Then the round trip with Claude Code
 * both ways, through Kilo's `/clear` (its alias of `/new`) and a `--user` registration
 * (`~/.config/kilo/plugins/`).
 */

import assert from "node:assert/strict";
import { ensureClaude } from "./support/claude.ts";
import { ensureKilo } from "./support/chat_agents.ts";
import { chatFlow } from "./support/chat_flow.ts";
import { compactFork, kiloSide } from "./support/cross_chat.ts";
import { banner, claudeSide, inScene, storeDoc } from "./support/cross.ts";
import { dumpOn, mark, pickUp } from "./support/pick_up.ts";

const PLUGIN = "plugins/session-restore.ts";

const [bin, claudeBin] = await Promise.all([ensureKilo(), ensureClaude()]);

/** Whether `path` exists. */
async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("kilo e2e: dump, /new restores once, /compact brings the card", (t) =>
  chatFlow(t, {
    agent: "kilo",
    configure: () => Promise.resolve(), // its config names the stand-in: kiloSide writes it
    start: (world, env) => kiloSide(bin, world, env),
    compact: compactFork,
    uninstalled: async (world) => {
      assert.ok(!(await exists(`${world.project}/.kilo/${PLUGIN}`)), "the plugin file is gone");
    },
  }));

Deno.test("kilo e2e: a handover crosses to and from Claude Code (/clear, --user registration)", (t) =>
  inScene(t, [["--agent", "kilo", "--user"]], async ({ world, env, start, step }) => {
    assert.ok(await exists(`${world.home}/.config/kilo/${PLUGIN}`));
    const claude = await start(claudeSide(claudeBin, world, env));
    const kilo = await start(kiloSide(bin, world, env, "/clear"));
    await step("Kilo's first session, before any dump, carries nothing", async () => {
      assert.ok(!(await kilo.say("hello kilo")).includes("[session] The previous session left"));
    });
    const fromClaude = mark("CLAUDE");
    await step("Claude Code's model dumps through its Bash tool", async () => {
      await dumpOn(claude, world, "from-claude", fromClaude);
    });
    await step("Kilo /clear: the new session carries Claude Code's handover, once", async () => {
      await pickUp(kilo, world, "from-claude", fromClaude, "from claude");
    });

    const fromKilo = mark("KILO");
    await step("Kilo's model dumps through its bash tool", async () => {
      await dumpOn(kilo, world, "from-kilo", fromKilo);
    });
    await step("Claude Code /clear: the next request carries Kilo's handover, once", async () => {
      await pickUp(claude, world, "from-kilo", fromKilo, "from kilo");
    });
    await step("nor does Kilo's next session take it again", async () => {
      await kilo.clear();
      const text = await kilo.say("later kilo");
      assert.ok(!text.includes(banner("from-kilo")));
      assert.match(await storeDoc(world, "from-kilo"), /^consumed: true$/m);
    });
  }));
