/**
 * End to end in the real Claude Code (every pinned version, offline, against the loopback
 * stand-in): continuity without a dump. The hooks are installed the way a user does
 * (`session.ts install`); the stand-in model edits files, creates tasks and dumps through its
 * tools. (a) work without a dump, `/clear`: the next request carries the short notice with the
 * files and the unfinished task; (b) dump, more work, `/clear`: the dump and a "Since the dump"
 * section; (c) a restored handover, several turns, `/compact`: the next request carries the card
 * with the handover's Decisions and Next step (and the same for a handover dumped in the
 * session); (d) `/exit`, start again: `recall` prints the draft; (e) with `install --startup`,
 * the next start announces that draft.
 *
 * Claude Code's system prompt lists `git status` and recent commit subjects: every file whose
 * name a test looks for in a request is committed (subject "wip") before the `/clear`, so the
 * name can only have come from the hook.
 */

import assert from "node:assert/strict";
import { CLI_FLAGS } from "../../lib/agents/command.ts";
import {
  type Claude,
  ensureClaudes,
  makeWorld,
  type Scene,
  startClaude,
} from "./support/claude.ts";
import { dumpCommand } from "./support/agents.ts";
import { hookContext, onlyFromHook, splitRequest } from "./support/hook_context.ts";
import { playScript } from "./support/plays.ts";
import { runCli } from "./support/process.ts";
import {
  commitAll,
  storeDocs,
  waitForClear,
  waitForDraft,
  waitUntil,
} from "./support/scene_store.ts";
import {
  carriesPrompt,
  isSummaryRequest,
  isToolResult,
  lastMessage,
  messageText,
  type Reply,
  startStandIn,
} from "./support/stand_in.ts";
import { sleep } from "./support/tmux.ts";
import { ask as askIn, work as workIn } from "./support/turns.ts";

const REPO = decodeURIComponent(new URL("../../", import.meta.url).pathname).replace(/\/$/, "");
const STORE = ".claude/state/session";
/** The task tools: allowing one opts 2.1.332 into them (it offers them behind ToolSearch). */
const TASK_TOOLS = ["TaskCreate", "TaskUpdate"];

/** The shell command that runs the session CLI from the checkout. */
function cliCommand(args: string): string {
  return `deno run ${CLI_FLAGS.join(" ")} ${REPO}/session.ts ${args}`;
}

const carries = carriesPrompt;

/** Types a prompt and returns the agent request that carries it. */
const ask = (s: Scene, prompt: string) => askIn(s, prompt, carries);

/** Types a prompt and waits until the model's last scripted step (`done`, a text) is on screen. */
const work = (s: Scene, prompt: string, done: string) => workIn(s, prompt, done, carries);

/** A Write tool call that creates `file` (relative to the project). */
const write = (s: Scene, file: string): Reply => ({
  tool: "Write",
  input: { file_path: `${s.world.project}/${file}`, content: "export {};\n" },
});

/** `/compact`: the stand-in answers the summary request, the client is back at its prompt. */
async function compact(s: Scene) {
  const since = s.standIn.requests.length;
  await s.tmux!.submit("/compact");
  await s.standIn.waitFor(isSummaryRequest, { since, timeoutMs: 60_000 });
  await s.tmux!.waitForScreen(
    (screen) => /compact/i.test(screen) && screen.includes("? for shortcuts"),
    60_000,
  );
  await sleep(2_000);
}

/** The first tool output the model got back from request index `since` on. */
async function toolOutput(s: Scene, since: number): Promise<string> {
  const r = await s.standIn.waitFor(isToolResult, { since, timeoutMs: 60_000 });
  return messageText(lastMessage(r)!);
}

/** Installs the hooks as a user does, commits the setup, starts the client. */
async function begin(s: Scene, installArgs: string[] = []) {
  const r = await runCli(s.world, ["install", ...installArgs]);
  assert.equal(r.code, 0, r.stderr);
  await commitAll(s.world, "setup");
  s.tmux = await startClaude(s.claude.bin, s.world, s.standIn, { args: TASK_TOOLS });
}

/** A scenario per pinned Claude Code, with a fresh world and stand-in, all gone after. */
function scenario(
  claude: Claude,
  name: string,
  fn: (t: Deno.TestContext, s: Scene) => Promise<void>,
) {
  Deno.test(`Claude Code ${claude.version}: ${name}`, async (t) => {
    const s: Scene = { claude, world: await makeWorld(claude.version), standIn: startStandIn() };
    try {
      await fn(t, s);
    } finally {
      // Every request the model got, for reading a failure (a failed step does not throw here).
      const slug = name.replace(/[^a-z0-9]+/gi, "-").slice(0, 40);
      const file = `${REPO}/.temp/continuity-${claude.version}-${slug}.json`;
      await Deno.writeTextFile(file, JSON.stringify(s.standIn.requests, null, 1)).catch(() => {});
      await s.tmux?.kill();
      await s.standIn.close();
      await s.world.cleanup();
    }
  });
}

for (const claude of await ensureClaudes()) {
  scenario(claude, "(a) work without a dump, /clear: the short notice", async (t, s) => {
    const prompt = "Build the zephyr widget.";
    s.standIn.setScript(playScript([{
      prompt,
      steps: [
        write(s, "src/zephyr_widget.ts"),
        { tool: "TaskCreate", input: { subject: "Add zephyr tests", description: "cover it" } },
        { text: "Widget written; the zephyr tests are next." },
      ],
    }]));
    await begin(s);
    await t.step("the model writes a file and creates a task; no dump", async () => {
      await work(s, prompt, "the zephyr tests are next");
      await commitAll(s.world);
      assert.deepEqual(await storeDocs(s.world), []);
    });
    let draft = "";
    await t.step("/clear: SessionEnd drafts the session (draft: auto)", async () => {
      await s.tmux!.submit("/clear");
      const d = await waitForDraft(s.world);
      draft = d.slug;
      // Not asserted unconsumed: SessionStart may already have announced (and consumed) it.
      assert.ok(d.fields.session, "the draft names its session");
    });
    await t.step(
      "the next request carries the notice: slug, where it stopped, file, task",
      async () => {
        const r = await ask(s, "what now?");
        const context = hookContext(r);
        assert.ok(context.includes(draft), `the draft's slug in the hook context:\n${context}`);
        assert.ok(
          context.includes("Where it stopped: in progress — it said what it does next"),
          `the state, from the transcript:\n${context}`,
        );
        assert.ok(context.includes("Task: Build the zephyr widget."), `the task:\n${context}`);
        onlyFromHook(r, "zephyr_widget.ts", "the file touched");
        onlyFromHook(r, "Add zephyr tests", "the unfinished task");
        assert.ok(context.includes("recall"), `the recall command:\n${context}`);
        // A notice, not the draft: ≤ ~700 characters plus Claude Code's own framing.
        assert.ok(context.length <= 1_000, `${context.length} chars:\n${context}`);
        const d = (await storeDocs(s.world)).find((d) => d.slug === draft);
        assert.equal(d?.fields.consumed, "true", "announced once: the draft is consumed");
      },
    );
    await t.step("a second /clear carries no notice of that draft", async () => {
      await s.tmux!.submit("/clear");
      await waitForClear(s.world);
      const r = await ask(s, "and now?");
      assert.ok(!hookContext(r).includes(draft), hookContext(r));
    });
  });

  scenario(claude, '(b) dump, more work, /clear: the dump and "Since the dump"', async (t, s) => {
    const mark = `QUASAR-${crypto.randomUUID().slice(0, 8)}`;
    const first = "Start the quasar parser.";
    const second = "Now add the nebula lexer.";
    s.standIn.setScript(playScript([
      {
        prompt: first,
        steps: [
          write(s, "src/quasar_parser.ts"),
          {
            tool: "Bash",
            input: { command: dumpCommand("e2e-quasar", mark), description: "Dump the handover" },
          },
          { text: "Dumped the quasar handover." },
        ],
      },
      {
        prompt: second,
        steps: [
          write(s, "src/nebula_lexer.ts"),
          { tool: "TaskCreate", input: { subject: "Wire the nebula lexer", description: "wire" } },
          { text: "Lexer written." },
        ],
      },
    ]));
    await begin(s);
    const doc = `${s.world.project}/${STORE}/e2e-quasar.md`;
    await t.step("the model dumps, then keeps working", async () => {
      await work(s, first, "Dumped the quasar handover");
      assert.match(await Deno.readTextFile(doc), /^consumed: false$/m);
      await sleep(2_000); // the dump's `created` has seconds: later work is strictly after it
      await work(s, second, "Lexer written");
      await commitAll(s.world);
    });
    await t.step("/clear: the next request carries the dump and what came after", async () => {
      await s.tmux!.submit("/clear");
      await waitUntil(
        s.world,
        "the dump consumed",
        async () =>
          /^consumed: true$/m.test(await Deno.readTextFile(doc).catch(() => "")) || undefined,
      );
      const r = await ask(s, "go on");
      const context = hookContext(r);
      assert.ok(context.includes(mark), `the dump:\n${context}`);
      assert.ok(context.includes("Since the dump"), `the section:\n${context}`);
      onlyFromHook(r, "nebula_lexer.ts", "the file written after the dump");
      onlyFromHook(r, "Wire the nebula lexer", "the task created after the dump");
    });
    await t.step("a dump is never shadowed: no automatic draft was written", async () => {
      const drafts = (await storeDocs(s.world)).filter((d) => d.fields.draft === "auto");
      assert.deepEqual(drafts.map((d) => d.slug), []);
    });
  });

  scenario(claude, "(c) restored handover, turns, /compact: the continuity card", async (t, s) => {
    const mark = crypto.randomUUID().slice(0, 8);
    const decision = `DECISION-${mark}`;
    const next = `NEXT-${mark}`;
    const body = [
      "## Goal",
      `Finish the orbit planner (GOAL-${mark}).`,
      "## Decisions",
      `- Keep the planner pure (${decision}) — why: testable.`,
      "## Next step",
      `Write the orbit tests (${next}).`,
    ].join("\n");
    const turns = ["Orbit step one.", "Orbit step two.", "Orbit step three."];
    s.standIn.setScript(playScript([
      {
        prompt: turns[0],
        steps: [
          write(s, "src/orbit_planner.ts"),
          { text: "Step one done." },
        ],
      },
      { prompt: turns[1], steps: [{ text: "Step two done." }] },
      { prompt: turns[2], steps: [{ text: "Step three done." }] },
    ]));
    await begin(s);
    const doc = `${s.world.project}/${STORE}/e2e-orbit.md`;
    await t.step("a handover dumped outside is restored on /clear", async () => {
      const r = await runCli(s.world, ["dump", "e2e-orbit"], { stdin: body });
      assert.equal(r.code, 0, r.stderr);
      await s.tmux!.submit("/clear");
      await waitUntil(
        s.world,
        "the handover consumed",
        async () =>
          /^consumed: true$/m.test(await Deno.readTextFile(doc).catch(() => "")) || undefined,
      );
      const first = await ask(s, "restored?");
      assert.ok(hookContext(first).includes(decision), hookContext(first));
    });
    await t.step("several turns", async () => {
      await work(s, turns[0], "Step one done");
      await work(s, turns[1], "Step two done");
      await work(s, turns[2], "Step three done");
      await commitAll(s.world);
    });
    await t.step("/compact: the next request carries the card: Decisions, Next step", async () => {
      await compact(s);
      const r = await ask(s, "where do we stand?");
      const context = hookContext(r);
      // Compacted: the old turn is gone from the conversation (the card quotes the user's words).
      assert.ok(!splitRequest(r).rest.includes("Orbit step two"), "compacted");
      onlyFromHook(r, decision, "the handover's Decisions in the card");
      onlyFromHook(r, next, "the handover's Next step in the card");
      assert.ok(context.length <= 4_500, `${context.length} chars`);
    });
  });

  scenario(claude, "(c) dump in the session, turns, /compact: the card", async (t, s) => {
    const mark = crypto.randomUUID().slice(0, 8);
    const body = [
      "## Goal",
      `Chart the comet belt (GOAL-${mark}).`,
      "## Decisions",
      `- Sample every tenth orbit (DECISION-${mark}) — why: enough.`,
      "## Next step",
      `Plot the samples (NEXT-${mark}).`,
    ].join("\n");
    s.standIn.setScript(playScript([
      {
        prompt: "Plan the comet belt.",
        steps: [
          {
            tool: "Bash",
            input: {
              command: cliCommand(`dump e2e-belt <<'EOF'\n${body}\nEOF`),
              description: "Dump the handover",
            },
          },
          { text: "Belt plan dumped." },
        ],
      },
      { prompt: "Belt step two.", steps: [{ text: "Step two done." }] },
    ]));
    await begin(s);
    await t.step("the model dumps, another turn follows", async () => {
      await work(s, "Plan the comet belt.", "Belt plan dumped");
      await work(s, "Belt step two.", "Step two done");
    });
    await t.step(
      "/compact: the card carries the dumped handover's Decisions, Next step",
      async () => {
        await compact(s);
        const r = await ask(s, "and the belt?");
        onlyFromHook(r, `DECISION-${mark}`, "the dumped handover's Decisions in the card");
        onlyFromHook(r, `NEXT-${mark}`, "the dumped handover's Next step in the card");
      },
    );
  });

  scenario(claude, "(d) /exit, start again: recall prints the draft", async (t, s) => {
    const prompt = "Sketch the comet cache.";
    s.standIn.setScript(playScript([
      {
        prompt,
        steps: [
          write(s, "src/comet_cache.ts"),
          { tool: "TaskCreate", input: { subject: "Benchmark the comet cache", description: "b" } },
          { text: "Done: the comet cache is sketched." },
        ],
      },
      {
        prompt: "recall the handover",
        steps: [
          { tool: "Bash", input: { command: cliCommand("recall"), description: "Recall" } },
          { text: "Recalled." },
        ],
      },
    ]));
    await begin(s);
    await t.step("work, then /exit: SessionEnd drafts the session", async () => {
      await work(s, prompt, "comet cache is sketched");
      await commitAll(s.world);
      await s.tmux!.submit("/exit");
      const d = await waitForDraft(s.world);
      assert.equal(d.fields.consumed, "false");
      await s.tmux!.kill();
      s.tmux = undefined;
    });
    await t.step("list shows the draft", async () => {
      const r = await runCli(s.world, ["list"]);
      const d = (await storeDocs(s.world)).find((d) => d.fields.draft === "auto")!;
      assert.ok(r.stdout.includes(d.slug), r.stdout + r.stderr);
    });
    await t.step(
      "start again: nothing injected at startup (opt-in); recall prints the draft",
      async () => {
        await s.tmux?.kill(); // still running when the exit step failed
        s.tmux = await startClaude(s.claude.bin, s.world, s.standIn, { args: TASK_TOOLS });
        const since = s.standIn.requests.length;
        const r = await ask(s, "recall the handover");
        assert.ok(!hookContext(r).includes("comet"), hookContext(r));
        const out = await toolOutput(s, since);
        assert.ok(out.includes("comet_cache.ts"), out);
        assert.ok(out.includes("Benchmark the comet cache"), out);
        // Where it stopped, from the transcript: reported done, so verify and ask — never "continue".
        assert.match(out, /- Last request \(line \d+\): “Sketch the comet cache\.”/);
        assert.ok(
          out.includes(
            "- State: finished — it reported the work done: “Done: the comet cache is sketched.”",
          ),
          out,
        );
        assert.ok(out.includes("ask the user for the next task"), out);
        assert.ok(!out.includes("Continue with the last request"), out);
      },
    );
  });

  scenario(
    claude,
    "(e) install --startup: /exit, start again: the draft is announced",
    async (t, s) => {
      const prompt = "Sketch the meteor index.";
      s.standIn.setScript(playScript([{
        prompt,
        steps: [
          write(s, "src/meteor_index.ts"),
          { text: "Index sketched." },
        ],
      }]));
      await begin(s, ["--startup"]);
      let draft = "";
      await t.step("work, then /exit: SessionEnd drafts the session", async () => {
        await work(s, prompt, "Index sketched");
        await commitAll(s.world);
        await s.tmux!.submit("/exit");
        draft = (await waitForDraft(s.world)).slug;
        await s.tmux!.kill();
        s.tmux = undefined;
      });
      await t.step("start again: the first request names the draft and its file", async () => {
        await s.tmux?.kill(); // still running when the exit step failed
        s.tmux = await startClaude(s.claude.bin, s.world, s.standIn, { args: TASK_TOOLS });
        const r = await ask(s, "hello again");
        assert.ok(hookContext(r).includes(draft), hookContext(r));
        onlyFromHook(r, "meteor_index.ts", "the file touched");
      });
    },
  );
}
