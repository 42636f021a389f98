/**
 * End to end in the real Codex CLI (pinned, offline, against the loopback Responses API
 * stand-in): context pressure. Installed as a user does (`session.ts install --agent codex`); the
 * stand-in reports `usage` in `response.completed`, which Codex writes into its rollout as a
 * `token_count` event with the window it uses (`model_context_window`). A first turn reads that
 * window from the rollout; then figures at ~72 % and ~88 % of it: the next request after each
 * carries the `[session]` nudge once (Codex hands UserPromptSubmit's `additionalContext` to the
 * model as a developer message), and a further prompt none.
 */

import assert from "node:assert/strict";
import {
  cli,
  configureCodex,
  ensureCodex,
  makeWorld,
  startCodex,
  type World,
} from "./support/agents.ts";
import { carries, plays } from "./support/codex_plays.ts";
import {
  inputText,
  type Recorded,
  startStandIn,
  type Usage,
} from "./support/responses_stand_in.ts";
import { commitAll } from "./support/scene_store.ts";
import type { Tmux } from "./support/tmux.ts";
import { ask as askIn, work as workIn } from "./support/turns.ts";

const REPO = decodeURIComponent(new URL("../../", import.meta.url).pathname).replace(/\/$/, "");
/** What every nudge opens with (`sessionLine` of lib/pressure/fill.ts `nudgeText`). */
const NUDGE = "[session] The context is ";
/**
 * The window configured for the stand-in's model: not 200k, the window Claude Code's transcript
 * rule would assume, so a nudge that ignored Codex's own figure would not fire.
 */
const CONFIGURED_WINDOW = 100_000;

/** The nudges a request's input holds, each to its line's end (the conversation keeps them all). */
function nudges(r: Recorded): string[] {
  return inputText(r).split(NUDGE).slice(1).map((rest) => NUDGE + rest.split("\n")[0]);
}

/** Usage figures adding up to `pct` % of `window` (input, most of it cached, + output). */
function at(pct: number, window: number): Usage {
  const used = Math.round((pct * window) / 100);
  return { input_tokens: used - 10, cached_tokens: used - 2_000, output_tokens: 10 };
}

/** The `token_count` events of every rollout under the world's `~/.codex/sessions`, parsed. */
async function tokenCounts(world: World): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.name.endsWith(".jsonl")) {
        for (const line of (await Deno.readTextFile(path)).split("\n")) {
          if (!line.includes('"token_count"')) continue;
          const info = JSON.parse(line).payload?.info;
          if (info) out.push(info);
        }
      }
    }
  };
  await walk(`${world.home}/.codex/sessions`);
  return out;
}

Deno.test("Codex CLI: context pressure", async (t) => {
  const bin = await ensureCodex();
  const world = await makeWorld();
  const s: { tmux?: Tmux; standIn: ReturnType<typeof startStandIn> } = { standIn: startStandIn() };
  const ask = (prompt: string) => askIn(s, prompt, carries);
  const work = (prompt: string, done: string) => workIn(s, prompt, done, carries);
  try {
    await t.step("install --agent codex, as a user does", async () => {
      await configureCodex(world, s.standIn.url, [`model_context_window = ${CONFIGURED_WINDOW}`]);
      const r = await cli(world, {}, "install", "--agent", "codex");
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /Installed: UserPromptSubmit hook in .*\.codex\/hooks\.json/);
      await commitAll(world, "setup");
      s.tmux = await startCodex(bin, world, { reviewHooks: true });
    });
    let window = 0;
    await t.step("the rollout's token_count carries the figures and the window", async () => {
      s.standIn.setScript(plays([{
        prompt: "Warm up.",
        steps: [{ text: "Warmed up.", usage: { input_tokens: 1_990, output_tokens: 10 } }],
      }]));
      await work("Warm up.", "Warmed up");
      const counts = await tokenCounts(world);
      const last = counts.at(-1) as {
        last_token_usage?: { input_tokens?: number; output_tokens?: number };
        model_context_window?: number;
      };
      assert.equal(last?.last_token_usage?.input_tokens, 1_990, JSON.stringify(counts));
      assert.equal(last?.last_token_usage?.output_tokens, 10);
      window = last.model_context_window ?? 0;
      // Codex states the part of the configured window it lets a conversation use.
      assert.ok(window > 0 && window <= CONFIGURED_WINDOW, `window ${window}`);
    });
    const prompts = {
      fill72: "Fill step one.",
      after72: "Fill step two.",
      fill88: "Fill step three.",
      after88: "Fill step four.",
      quiet: "Fill step five.",
    };
    s.standIn.setScript(plays([
      { prompt: prompts.fill72, steps: [{ text: "Seventy-two done.", usage: at(72, window) }] },
      { prompt: prompts.after72, steps: [{ text: "Seventy-three done.", usage: at(73, window) }] },
      { prompt: prompts.fill88, steps: [{ text: "Eighty-eight done.", usage: at(88, window) }] },
      { prompt: prompts.after88, steps: [{ text: "Eighty-nine done.", usage: at(89, window) }] },
      { prompt: prompts.quiet, steps: [{ text: "Ninety done.", usage: at(89, window) }] },
    ]));
    await t.step("at ~72 %: the next request carries the nudge, once", async () => {
      await work(prompts.fill72, "Seventy-two done");
      const next = await ask(prompts.after72);
      assert.equal(nudges(next).length, 1, JSON.stringify(nudges(next)));
      const k = Math.round(window / 1_000);
      assert.match(nudges(next)[0], new RegExp(`The context is 72 % \\(\\d+k of ${k}k tokens\\)`));
      // Codex has no `/session` command ("Unrecognized command"): the user asks in words.
      assert.ok(!nudges(next)[0].includes("/session"), nudges(next)[0]);
      assert.match(nudges(next)[0], /"dump the session"/);
      await s.tmux!.waitForScreen("Seventy-three done", 60_000);
    });
    await t.step("at ~88 %: one more nudge, then none", async () => {
      await work(prompts.fill88, "Eighty-eight done");
      const second = await ask(prompts.after88);
      assert.equal(nudges(second).length, 2, JSON.stringify(nudges(second)));
      assert.match(nudges(second)[1], /The context is 88 %/);
      await s.tmux!.waitForScreen("Eighty-nine done", 60_000);
      const later = await ask(prompts.quiet);
      assert.equal(nudges(later).length, 2, "85 % fired once");
      await s.tmux!.waitForScreen("Ninety done", 60_000);
    });
  } finally {
    const file = `${REPO}/.temp/codex-pressure.json`;
    await Deno.writeTextFile(file, JSON.stringify(s.standIn.requests, null, 1)).catch(() => {});
    await s.tmux?.kill();
    await s.standIn.close();
    await world.cleanup();
  }
});
