/**
 * End to end in the real opencode (pinned, offline, against the loopback Chat Completions
 * stand-in as a custom OpenAI-compatible provider), the flow of support/chat_flow.ts:
 * `install --agent opencode` writes the thin plugin file; dump through its bash tool, `/new`
 * restores the handover into the new session's system prompt once, `/compact` brings the card, a
 * second `/new` carries nothing, uninstall removes the plugin file.
 */

import assert from "node:assert/strict";
import { ensureOpencode } from "./support/chat_agents.ts";
import { chatFlow } from "./support/chat_flow.ts";
import { compactFork, opencodeSide } from "./support/cross_chat.ts";

const bin = await ensureOpencode();

Deno.test("opencode e2e: dump, /new restores once, /compact brings the card", (t) =>
  chatFlow(t, {
    agent: "opencode",
    configure: () => Promise.resolve(), // its config names the stand-in: opencodeSide writes it
    start: (world, env) => opencodeSide(bin, world, env),
    compact: compactFork,
    uninstalled: async (world) => {
      await assert.rejects(
        Deno.stat(`${world.project}/.opencode/plugins/session-restore.ts`),
        Deno.errors.NotFound,
      );
    },
  }));
