/**
 * End to end in the real Codex CLI (pinned, offline, against the loopback Responses API
 * stand-in): continuity without a dump where Codex's events allow — SessionEnd (since
 * 0.145), PreCompact and SessionStart `clear|compact`. The hooks are installed as a user does
 * (`session.ts install --agent codex`). Codex offers this unknown model no plan or patch tool:
 * the model edits through `apply_patch` run by its shell tool (the rollout's files come from
 * it) and makes no tasks. Codex 0.171 fires the old thread's SessionEnd only when the process
 * exits, not at `/clear` (SessionStart `clear` runs at once for the new thread): so no notice
 * and no "Since the dump" after `/clear` are possible there. (a) work without a dump, `/clear`,
 * `/exit`: the cleared session is drafted at exit; (c) a restored handover, turns, `/compact`:
 * the card with the handover's Decisions and Next step; (d) `/exit`, start again: `recall`
 * prints the draft.
 *
 * Gemini CLI gets none of these: `install --agent gemini` registers no SessionEnd or PreCompress
 * (its SessionEnd is not awaited, PreCompress is advisory, its chat files are not read and its
 * SessionStart has no `compact` source); gemini_e2e.ts covers what it does get.
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
import { commitAll, storeDocs, waitForDraft, waitUntil } from "./support/scene_store.ts";
import { carries, isCompaction, plays } from "./support/codex_plays.ts";
import { inputText, type Recorded, startStandIn } from "./support/responses_stand_in.ts";
import { sleep, type Tmux } from "./support/tmux.ts";
import { ask as askIn, work as workIn } from "./support/turns.ts";

/** A shell command that applies a patch adding `path` (Codex runs `apply_patch` itself). */
function addFile(path: string): string {
  return `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ${path}\n+export {};\n*** End Patch\nEOF`;
}

/** What a scenario runs in. */
interface Scene {
  bin: string;
  world: World;
  standIn: ReturnType<typeof startStandIn>;
  tmux?: Tmux;
}

/** Types a prompt; returns the agent turn that carries it. */
const ask = (s: Scene, prompt: string) => askIn(s, prompt, carries);

/** Types a prompt and waits for the play's closing text on screen. */
const work = (s: Scene, prompt: string, done: string) => workIn(s, prompt, done, carries);

/** `/clear` in Codex (its hooks run before the next turn), then a prompt. */
async function clearThen(s: Scene, prompt: string): Promise<Recorded> {
  await s.tmux!.submit("/clear");
  await sleep(2_000);
  return await ask(s, prompt);
}

async function begin(s: Scene, env: Record<string, string> = {}) {
  await configureCodex(s.world, s.standIn.url);
  const r = await cli(s.world, { env }, "install", "--agent", "codex");
  assert.equal(r.code, 0, r.out);
  await commitAll(s.world, "setup");
  s.tmux = await startCodex(s.bin, s.world, { env, reviewHooks: true });
}

function scenario(name: string, fn: (t: Deno.TestContext, s: Scene) => Promise<void>) {
  Deno.test(`Codex CLI: ${name}`, async (t) => {
    const s: Scene = {
      bin: await ensureCodex(),
      world: await makeWorld(),
      standIn: startStandIn(),
    };
    try {
      await fn(t, s);
    } finally {
      const file = new URL(
        `../../.temp/codex-continuity-${name.slice(1, 2)}.json`,
        import.meta.url,
      );
      await Deno.writeTextFile(file, JSON.stringify(s.standIn.requests, null, 1)).catch(() => {});
      await s.tmux?.kill();
      await s.standIn.close();
      await s.world.cleanup();
    }
  });
}

scenario("(a) work without a dump, /clear, /exit: the cleared session is drafted", async (t, s) => {
  const prompt = "Build the zephyr widget.";
  s.standIn.setScript(plays([{
    prompt,
    steps: [
      { tool: "exec_command", args: { cmd: addFile("src/zephyr_widget.ts") } },
      { text: "Widget written; the tests remain." },
    ],
  }]));
  await begin(s);
  await t.step("the model adds a file through apply_patch; no dump", async () => {
    await work(s, prompt, "the tests remain");
    await commitAll(s.world);
    assert.deepEqual(await storeDocs(s.world), []);
  });
  await t.step("/clear, then /exit: the session before /clear is drafted at exit", async () => {
    // Codex 0.171 runs SessionStart(clear) for the new thread at once, but the old thread's
    // SessionEnd (reason "other") only when the process exits: no notice is possible at /clear.
    await clearThen(s, "something else");
    await s.tmux!.submit("/exit");
    const d = await waitUntil(s.world, "the cleared session's draft", async () => {
      for (const doc of await storeDocs(s.world)) {
        if (doc.fields.draft !== "auto") continue;
        if (doc.text.includes("zephyr_widget.ts")) return doc;
      }
      return undefined;
    });
    await s.tmux!.kill();
    s.tmux = undefined;
    const r = await cli(s.world, {}, "recall", d.slug);
    assert.equal(r.code, 0, r.out);
    assert.ok(r.out.includes("Build the zephyr widget"), r.out);
  });
});

scenario("(c) restored handover, turns, /compact: the continuity card", async (t, s) => {
  const mark = crypto.randomUUID().slice(0, 8);
  const body = [
    "## Goal",
    `Finish the orbit planner (GOAL-${mark}).`,
    "## Decisions",
    `- Keep the planner pure (DECISION-${mark}) — why: testable.`,
    "## Next step",
    `Write the orbit tests (NEXT-${mark}).`,
  ].join("\n");
  s.standIn.setScript(plays([
    { prompt: "Orbit step one.", steps: [{ text: "Step one done." }] },
    { prompt: "Orbit step two.", steps: [{ text: "Step two done." }] },
  ]));
  await begin(s);
  await t.step("a handover dumped outside is restored on /clear", async () => {
    const r = await cli(s.world, { input: body }, "dump", "e2e-orbit");
    assert.equal(r.code, 0, r.out);
    const first = await clearThen(s, "restored?");
    assert.ok(inputText(first).includes(`DECISION-${mark}`));
  });
  await t.step("turns, /compact: the next request carries the card", async () => {
    await work(s, "Orbit step one.", "Step one done");
    await work(s, "Orbit step two.", "Step two done");
    const since = s.standIn.requests.length;
    await s.tmux!.submit("/compact");
    await s.standIn.waitFor(isCompaction, { since, timeoutMs: 60_000 });
    await sleep(3_000);
    const r = await ask(s, "where do we stand?");
    const text = inputText(r);
    // Codex keeps the user's messages through a compaction, but not the restored context: what
    // follows the summary is the card.
    const summary = text.indexOf("E2E summary of the work.");
    assert.ok(summary >= 0, "compacted");
    const after = text.slice(summary);
    assert.ok(after.includes(`DECISION-${mark}`), `Decisions in the card:\n${after}`);
    assert.ok(after.includes(`NEXT-${mark}`), `Next step in the card:\n${after}`);
  });
});

scenario("(d) /exit, start again: recall prints the draft", async (t, s) => {
  const prompt = "Sketch the comet cache.";
  s.standIn.setScript(plays([{
    prompt,
    steps: [
      { tool: "exec_command", args: { cmd: addFile("src/comet_cache.ts") } },
      { text: "Cache sketched." },
    ],
  }]));
  await begin(s);
  await t.step("work, then /exit: SessionEnd drafts the session", async () => {
    await work(s, prompt, "Cache sketched");
    await s.tmux!.submit("/exit");
    const d = await waitForDraft(s.world);
    assert.equal(d.fields.consumed, "false");
    await s.tmux!.kill();
    s.tmux = undefined;
  });
  await t.step("start again; recall prints the draft", async () => {
    await s.tmux?.kill(); // still running when the exit step failed
    s.tmux = await startCodex(s.bin, s.world, {});
    const r = await cli(s.world, {}, "recall");
    assert.equal(r.code, 0, r.out);
    assert.ok(r.out.includes("Sketch the comet cache"), r.out);
    assert.ok(r.out.includes("comet_cache.ts"), r.out);
  });
});
