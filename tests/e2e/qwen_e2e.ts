/**
 * End to end in the real Qwen Code (pinned, offline, against the loopback Chat Completions
 * stand-in), the flow of support/chat_flow.ts: dump through its shell tool, `/clear` restores the
 * handover into the system instruction once, `/compress` brings the card, a second `/clear`
 * carries nothing, uninstall removes what install added.
 */

import assert from "node:assert/strict";
import { configureQwen, ensureQwen } from "./support/chat_agents.ts";
import { chatFlow } from "./support/chat_flow.ts";
import { qwenSide } from "./support/cross_chat.ts";

const bin = await ensureQwen();

Deno.test("qwen e2e: dump, /clear restores once, /compress brings the card", (t) =>
  chatFlow(t, {
    agent: "qwen",
    configure: configureQwen,
    start: (world, env) => qwenSide(bin, world, env),
    compact: async (side) => {
      // Enough history for Qwen to find a compression worth it.
      await side.say(`background ${"lorem ipsum dolor sit amet ".repeat(300).trim()}`);
      await side.tmux.waitForScreen("OK.", 30_000);
      await side.tmux.submit("/compress");
      await side.tmux.waitForScreen("Chat history compressed", 60_000);
    },
    uninstalled: async (world) => {
      // Qwen itself stamps the file with its settings version on first start: that key stays.
      const left = JSON.parse(await Deno.readTextFile(`${world.project}/.qwen/settings.json`));
      assert.deepEqual(Object.keys(left), ["$version"]);
    },
  }));
