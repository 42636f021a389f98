/**
 * End to end in the real Claude Code (every pinned version, offline, against the loopback
 * stand-in): context pressure. Installed as a user does (`session.ts install --statusline`); the
 * stand-in answers with usage figures that put the context at ~72 % and then ~88 % of a 1M
 * window. The next request after each carries the nudge once (and the ones after it no new one);
 * the status line prints for the live session (its JSON captured to `.temp/`); after a `/compact`
 * in a session without a dump, the card quotes a correction the user typed, verbatim.
 */

import assert from "node:assert/strict";
import { ensureClaudes, makeWorld, type Scene, startClaude } from "./support/claude.ts";
import { splitRequest } from "./support/hook_context.ts";
import { playScript } from "./support/plays.ts";
import { runCli } from "./support/process.ts";
import { commitAll, storeDocs } from "./support/scene_store.ts";
import {
  carriesPrompt,
  isSummaryRequest,
  messageText,
  type Recorded,
  startStandIn,
  type Usage,
} from "./support/stand_in.ts";
import { sleep } from "./support/tmux.ts";
import { ask as askIn, work as workIn } from "./support/turns.ts";

const REPO = decodeURIComponent(new URL("../../", import.meta.url).pathname).replace(/\/$/, "");
/** What every nudge opens with (`sessionLine` of lib/pressure/fill.ts `nudgeText`). */
const NUDGE = "[session] The context is ";

const carries = carriesPrompt;
const ask = (s: Scene, prompt: string) => askIn(s, prompt, carries);
const work = (s: Scene, prompt: string, done: string) => workIn(s, prompt, done, carries);

/** How many nudges a request's messages hold (the conversation keeps the earlier ones). */
function nudges(r: Recorded): string[] {
  const text = (r.body.messages ?? []).map(messageText).join("\n");
  return text.split(NUDGE).slice(1).map((rest) => NUDGE + rest.slice(0, 60));
}

/**
 * Usage figures adding up to `pct` % of a 1M window (input + cache creation + cache read +
 * output): both pinned versions default to a 1M-context model (the status line says so), and the
 * transcript's rule takes a usage over 200k to mean that window too.
 */
function at(pct: number): Usage {
  const used = pct * 10_000;
  return {
    input_tokens: 50,
    cache_creation_input_tokens: 1_000,
    cache_read_input_tokens: used - 1_060,
    output_tokens: 10,
  };
}

for (const claude of await ensureClaudes()) {
  Deno.test(`Claude Code ${claude.version}: context pressure`, async (t) => {
    const s: Scene = { claude, world: await makeWorld(claude.version), standIn: startStandIn() };
    const capture = `${REPO}/.temp/statusline-${claude.version}.json`;
    try {
      // Auto-compaction would fire near 88 %: this test compacts by hand.
      const config = `${s.world.home}/.claude.json`;
      const json = JSON.parse(await Deno.readTextFile(config));
      await Deno.writeTextFile(config, JSON.stringify({ ...json, autoCompactEnabled: false }));
      const mark = crypto.randomUUID().slice(0, 8);
      const correction = `No: name the flag TOPAZ-${mark}, not the option; keep the default off.`;
      const prompts = {
        fill72: "Fill step one.",
        after72: "Fill step two.",
        fill88: "Fill step three.",
        after88: "Fill step four.",
        quiet: "Fill step five.",
      };
      s.standIn.setScript(playScript([
        { prompt: prompts.fill72, steps: [{ text: "Seventy-two done.", usage: at(72) }] },
        { prompt: prompts.after72, steps: [{ text: "Seventy-three done.", usage: at(73) }] },
        { prompt: prompts.fill88, steps: [{ text: "Eighty-eight done.", usage: at(88) }] },
        { prompt: prompts.after88, steps: [{ text: "Eighty-nine done.", usage: at(89) }] },
        { prompt: prompts.quiet, steps: [{ text: "Ninety done.", usage: at(89) }] },
        { prompt: correction, steps: [{ text: "Understood, TOPAZ it is.", usage: at(89) }] },
      ]));
      await t.step("install --statusline, as a user does", async () => {
        const r = await runCli(s.world, ["install", "--statusline"]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /Installed: UserPromptSubmit hook/);
        assert.match(r.stdout, /Installed: status line in /);
        // The JSON the client sends, captured on its way to the command install set.
        const path = `${s.world.project}/.claude/settings.json`;
        const settings = JSON.parse(await Deno.readTextFile(path));
        settings.statusLine.command = `tee '${capture}' | ${settings.statusLine.command}`;
        await Deno.writeTextFile(path, JSON.stringify(settings, null, 2));
        await commitAll(s.world, "setup");
        s.tmux = await startClaude(s.claude.bin, s.world, s.standIn, {
          env: { DISABLE_AUTO_COMPACT: "1" },
          // The status line stands where the "? for shortcuts" footer was.
          ready: (screen) => /session: no handover pending · 0 parked/.test(screen),
        });
      });
      await t.step("at ~72 %: the next request carries the nudge, once", async () => {
        await work(s, prompts.fill72, "Seventy-two done");
        // No store yet (install creates none, nothing dumped): the status line creates it for its
        // figures, since the project's settings register the hooks.
        await s.tmux!.waitForScreen((screen) => /context 7\d %/.test(screen), 30_000);
        const store = `${s.world.project}/.claude/state/session`;
        const fills = [...Deno.readDirSync(store)].filter((e) => e.name.startsWith(".fill-"));
        assert.equal(fills.length, 1, "the status line's figures, kept from the first reply");
        const quiet = await ask(s, prompts.after72);
        assert.equal(nudges(quiet).length, 1, JSON.stringify(nudges(quiet)));
        assert.match(nudges(quiet)[0], /The context is 7[23] %/);
        await s.tmux!.waitForScreen("Seventy-three done", 60_000);
        await sleep(1_000);
      });
      await t.step("the status line prints for the live session", async () => {
        await s.tmux!.waitForScreen(
          (screen) => /session: .* parked · context 7\d %/.test(screen),
          30_000,
        );
        const sent = JSON.parse(await Deno.readTextFile(capture));
        assert.equal(typeof sent.session_id, "string");
        assert.ok(sent.context_window, JSON.stringify(sent));
      });
      await t.step("at ~88 %: one more nudge, then none", async () => {
        await work(s, prompts.fill88, "Eighty-eight done");
        // The status line's figure is preferred: let it show 88 % before the next prompt.
        await s.tmux!.waitForScreen((screen) => /context 8[89] %/.test(screen), 30_000);
        const second = await ask(s, prompts.after88);
        assert.equal(nudges(second).length, 2, JSON.stringify(nudges(second)));
        assert.match(nudges(second)[1], /The context is 8\d %/);
        await s.tmux!.waitForScreen("Eighty-nine done", 60_000);
        await sleep(1_000);
        const later = await ask(s, prompts.quiet);
        assert.equal(nudges(later).length, 2, "85 % fired once");
        await s.tmux!.waitForScreen("Ninety done", 60_000);
        await sleep(1_000);
      });
      await t.step("/compact without a dump: the card quotes the user's correction", async () => {
        await work(s, correction, "TOPAZ it is");
        assert.deepEqual(await storeDocs(s.world), [], "no dump: the agent dumps only when asked");
        const since = s.standIn.requests.length;
        await s.tmux!.submit("/compact");
        await s.standIn.waitFor(isSummaryRequest, { since, timeoutMs: 60_000 });
        await s.tmux!.waitForScreen(
          (screen) => /compact/i.test(screen) && /session: .* parked/.test(screen),
          60_000,
        );
        await sleep(2_000);
        const r = await ask(s, "where were we?");
        const { hook } = splitRequest(r);
        assert.ok(
          hook.includes(`> ${correction}`),
          `the correction verbatim in the card:\n${hook}`,
        );
        assert.ok(hook.includes("The user's own words"), hook);
      });
    } finally {
      const file = `${REPO}/.temp/pressure-${claude.version}.json`;
      await Deno.writeTextFile(file, JSON.stringify(s.standIn.requests, null, 1)).catch(() => {});
      await s.tmux?.kill();
      await s.standIn.close();
      await s.world.cleanup();
    }
  });
}
