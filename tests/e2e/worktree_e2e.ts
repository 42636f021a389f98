/**
 * End to end in the real Claude Code (every pinned version, offline, against the loopback
 * stand-in): one store per repository across `claude --worktree`. `install --local` in the main
 * checkout; `claude --worktree feat`: the model dumps, `/clear` restores the handover once; the
 * model dumps again and parks an item, `/exit` with no changes lets Claude Code remove the
 * worktree; from the main checkout `list` shows both handovers and the item, and `recall` prints
 * the second.
 *
 * Gemini CLI's `--worktree` (`.gemini/worktrees/<name>`): the project install, committed, fires in
 * the worktree; the dump lands in the repository's store and `/clear` restores it once. Codex CLI
 * in a sibling worktree (`git worktree add ../<project>-side`): the hooks its checkout carries.
 */

import assert from "node:assert/strict";
import { CLI_FLAGS, projectFile } from "../../lib/agents/command.ts";
import {
  type Claude,
  ensureClaudes,
  makeWorld,
  startClaude,
  type World,
} from "./support/claude.ts";
import {
  cli,
  configureCodex,
  configureGemini,
  dumpCommand,
  ensureCodex,
  ensureGemini,
  startCodex,
  startGemini,
} from "./support/agents.ts";
import {
  inputText as responsesText,
  isToolOutput as isResponsesToolOutput,
  type Recorded as CodexRecorded,
  startStandIn as startResponsesStandIn,
} from "./support/responses_stand_in.ts";
import {
  contentsText,
  isAgentTurn,
  isToolOutput,
  type Recorded as GeminiRecorded,
  startStandIn as startGeminiStandIn,
} from "./support/gemini_stand_in.ts";
import { isoStamp } from "../../lib/store/time.ts";
import { hookContext } from "./support/hook_context.ts";
import { playScript } from "./support/plays.ts";
import { run, runCli } from "./support/process.ts";
import { commitAll, storeDocs, waitForClear, waitUntil } from "./support/scene_store.ts";
import { isSummaryRequest, type Recorded, startStandIn } from "./support/stand_in.ts";
import { sleep, type Tmux } from "./support/tmux.ts";
import { ask as askIn, work as workIn } from "./support/turns.ts";

const REPO = decodeURIComponent(new URL("../../", import.meta.url).pathname).replace(/\/$/, "");

/** An agent turn (not a side call, not the compaction) carrying what the user typed. */
const carries = (r: Recorded, prompt: string) =>
  (r.body.tools?.length ?? 0) > 0 && !isSummaryRequest(r) && lastUser(r).includes(prompt);

function lastUser(r: Recorded): string {
  const m = r.body.messages?.findLast((m) => m.role === "user");
  if (m === undefined) return "";
  return typeof m.content === "string"
    ? m.content
    : m.content.map((b) => typeof b.text === "string" ? b.text : "").join("\n");
}

/** The shell command the model runs to park an item (the real CLI). */
function parkCommand(summary: string): string {
  return `deno run ${CLI_FLAGS.join(" ")} ${projectFile("session.ts")} park ${summary}`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The text of the last user content of a Gemini request (what the user typed, plus context). */
function geminiLastUser(r: GeminiRecorded): string {
  const users = (r.body.contents ?? []).filter((c) => c.role === "user");
  const last = users[users.length - 1];
  return last ? contentsText({ ...r, body: { contents: [last] } }) : "";
}

/** Codex's own turns (with tools), not side calls such as title generation. */
const isCodexTurn = (r: CodexRecorded) => (r.body.tools?.length ?? 0) > 0;

/** The text of the last user message of a Codex request. */
function codexLastUser(r: CodexRecorded): string {
  const users = (r.body.input ?? []).filter((i) => i.role === "user");
  const last = users[users.length - 1];
  return last ? responsesText({ ...r, body: { input: [last] } }) : "";
}

/**
 * A client in a worktree, driven through its shell tool: the model's dump lands in the
 * repository's store with `worktree:`; `/clear` brings the handover to the next request, and a
 * second `/clear` does not. `say` types a message and returns the text the model got with it.
 */
async function dumpThenClear(
  t: Deno.TestContext,
  o: {
    world: World;
    slug: string;
    worktree: string;
    mark: string;
    tmux: Tmux;
    say: (message: string) => Promise<string>;
    settleMs: number;
  },
) {
  await t.step(
    "the shell tool's dump in the worktree lands in the repository's store",
    async () => {
      await o.say("please dump the session");
      await o.tmux.waitForScreen("Dumped. Send /clear", 30_000);
      const doc = (await storeDocs(o.world)).find((d) => d.slug === o.slug);
      assert.ok(doc, "in the main checkout's store");
      assert.equal(doc.fields.worktree, o.worktree);
    },
  );
  await t.step("/clear in the worktree: the next request carries the handover, once", async () => {
    await o.tmux.submit("/clear");
    await sleep(o.settleMs);
    assert.ok((await o.say("carry on")).includes(o.mark));
    await o.tmux.submit("/clear");
    await sleep(o.settleMs);
    assert.ok(!(await o.say("second round")).includes(o.mark));
  });
}

function scenario(claude: Claude) {
  Deno.test(`Claude Code ${claude.version}: --worktree: dump, /clear, park, /exit`, async (t) => {
    const world = await makeWorld(claude.version);
    const standIn = startStandIn();
    let tmux: Tmux | undefined;
    const s = {
      get tmux() {
        return tmux;
      },
      standIn,
    };
    const id = crypto.randomUUID().slice(0, 8);
    const first = `FIRST-${id}`;
    const second = `SECOND-${id}`;
    const parked = `parked-${id}`;
    const worktree = `${world.project}/.claude/worktrees/feat`;
    standIn.setScript(playScript([
      {
        prompt: "Dump the first handover.",
        steps: [
          { tool: "Bash", input: { command: dumpCommand("wt-first", first), description: "Dump" } },
          { text: "First handover dumped." },
        ],
      },
      {
        prompt: "Dump again and park.",
        steps: [
          {
            tool: "Bash",
            input: { command: dumpCommand("wt-second", second), description: "Dump" },
          },
          { tool: "Bash", input: { command: parkCommand(parked), description: "Park" } },
          { text: "Second handover dumped, item parked." },
        ],
      },
    ]));
    const ask = (prompt: string) => askIn(s, prompt, carries);
    const work = (prompt: string, done: string) => workIn(s, prompt, done, carries);
    try {
      await t.step("install --local in the main checkout; claude --worktree feat", async () => {
        const r = await runCli(world, ["install", "--local"]);
        assert.equal(r.code, 0, r.stderr);
        const ignored = await new Deno.Command("git", {
          args: ["check-ignore", "-q", ".claude/settings.local.json"],
          cwd: world.project,
        }).output();
        assert.ok(ignored.success, "install --local keeps settings.local.json out of git");
        await commitAll(world, "setup");
        tmux = await startClaude(claude.bin, world, standIn, { args: ["--worktree", "feat"] });
        assert.ok(await exists(worktree), "Claude Code made the worktree");
      });
      await t.step("the model dumps in the worktree: the repository's store", async () => {
        await work("Dump the first handover.", "First handover dumped");
        const doc = (await storeDocs(world)).find((d) => d.slug === "wt-first");
        assert.ok(doc, "in the main checkout's store");
        assert.equal(doc.fields.worktree, ".claude/worktrees/feat");
        assert.ok(!(await exists(`${worktree}/.claude/state/session/wt-first.md`)));
      });
      await t.step("/clear: the handover reaches the model once", async () => {
        await tmux!.submit("/clear");
        await waitUntil(
          world,
          "the first handover consumed",
          async () =>
            (await storeDocs(world)).find((d) =>
              d.slug === "wt-first" && d.fields.consumed === "true"
            ),
        );
        const r = await ask("What now?");
        assert.ok(hookContext(r).includes(first), `the handover:\n${hookContext(r)}`);
        await tmux!.submit("/clear");
        await waitForClear(world);
        const again = await ask("And now?");
        assert.ok(!hookContext(again).includes(first), hookContext(again));
      });
      await t.step("dump again, park, /exit: Claude Code removes the clean worktree", async () => {
        await work("Dump again and park.", "item parked");
        await tmux!.submit("/exit");
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline && await exists(worktree)) await sleep(500);
        assert.ok(!(await exists(worktree)), `the worktree is gone:\n${await tmux!.screen()}`);
        await sleep(3_000); // SessionEnd runs after the removal
      });
      await t.step(
        "from the main checkout: list shows both, recall prints the second",
        async () => {
          const list = await runCli(world, ["list"]);
          assert.equal(list.code, 0, list.stderr);
          assert.match(list.stdout, /wt-first/);
          assert.match(list.stdout, /wt-second/);
          assert.match(list.stdout, new RegExp(parked));
          const recall = await runCli(world, ["recall", "wt-second"]);
          assert.equal(recall.code, 0, recall.stderr);
          assert.ok(recall.stdout.includes(second), recall.stdout);
          const drafts = (await storeDocs(world)).filter((d) => d.fields.draft === "auto");
          for (const d of drafts) assert.notEqual(d.fields.branch, "main", d.text);
        },
      );
    } finally {
      const file = `${REPO}/.temp/worktree-${claude.version}.json`;
      await Deno.writeTextFile(file, JSON.stringify(standIn.requests, null, 1)).catch(() => {});
      await tmux?.kill();
      await standIn.close();
      await world.cleanup();
    }
  });
}

for (const claude of await ensureClaudes()) scenario(claude);

Deno.test("Gemini CLI --worktree: dump, /clear restores once, /exit keeps the handover", async (t) => {
  const bin = await ensureGemini();
  const world = await makeWorld();
  const id = crypto.randomUUID().slice(0, 8);
  const mark = `GEMINI-${id}`;
  const standIn = startGeminiStandIn((r) => {
    if (isToolOutput(r)) return { text: "Dumped. Send /clear to continue." };
    if (geminiLastUser(r).includes("please dump")) {
      return {
        tool: "run_shell_command",
        args: { command: dumpCommand("wt-gemini", mark), description: "dump" },
      };
    }
    return { text: "OK." };
  });
  const env = { SESSION_NOW: isoStamp(new Date()) };
  const worktree = `${world.project}/.gemini/worktrees/feat`;
  let tmux: Tmux | undefined;
  const say = async (message: string) => {
    const since = standIn.requests.length;
    await tmux!.submit(message);
    return await standIn.waitFor(
      (r) => isAgentTurn(r) && geminiLastUser(r).includes(message),
      { since, timeoutMs: 30_000 },
    );
  };
  try {
    await configureGemini(world);
    // Gemini CLI 0.61.0 takes --worktree only with experimental.worktrees on.
    const settings = `${world.home}/.gemini/settings.json`;
    const config = JSON.parse(await Deno.readTextFile(settings));
    await Deno.writeTextFile(
      settings,
      JSON.stringify({ ...config, experimental: { ...config.experimental, worktrees: true } }),
    );
    const installed = await cli(world, { env }, "install", "--agent", "gemini");
    assert.equal(installed.code, 0, installed.out);
    await commitAll(world, "setup");
    tmux = await startGemini(bin, world, standIn.url, env, ["--worktree", "feat"]);
    assert.ok(await exists(worktree), "Gemini made the worktree");
    await dumpThenClear(t, {
      world,
      slug: "wt-gemini",
      worktree: ".gemini/worktrees/feat",
      mark,
      tmux: tmux!,
      say: async (m) => geminiLastUser(await say(m)),
      settleMs: 2_000,
    });
    await t.step("/exit, the worktree removed as Gemini says: the handover stays", async () => {
      // Gemini CLI 0.61.0 keeps a worktree at exit (its clean-up is never called) and prints
      // "To remove manually: git worktree remove <path>": done here as the user would.
      await tmux!.submit("/exit");
      await tmux!.waitForScreen("To remove manually", 30_000);
      const removed = await new Deno.Command("git", {
        args: ["worktree", "remove", worktree],
        cwd: world.project,
      }).output();
      assert.ok(removed.success, new TextDecoder().decode(removed.stderr));
      assert.ok(!(await exists(worktree)));
      const list = await runCli(world, ["list"]);
      assert.match(list.stdout, /wt-gemini/, list.stdout + list.stderr);
    });
  } finally {
    await tmux?.kill();
    await standIn.close();
    await world.cleanup();
  }
});

Deno.test("Codex CLI in a sibling worktree: its checkout's hooks, the repository's store", async (t) => {
  const bin = await ensureCodex();
  const world = await makeWorld();
  const mark = `CODEX-${crypto.randomUUID().slice(0, 8)}`;
  const side = `${world.project}-side`;
  const standIn = startResponsesStandIn((r) => {
    if (!isCodexTurn(r)) return { text: "Session title" };
    if (isResponsesToolOutput(r)) return { text: "Dumped. Send /clear to continue." };
    if (codexLastUser(r).includes("please dump")) {
      return { tool: "exec_command", args: { cmd: dumpCommand("wt-codex", mark) } };
    }
    return { text: "OK." };
  });
  const env = { SESSION_NOW: isoStamp(new Date()) };
  let tmux: Tmux | undefined;
  const say = async (message: string) => {
    const since = standIn.requests.length;
    await tmux!.submit(message);
    return await standIn.waitFor((r) => isCodexTurn(r) && codexLastUser(r).includes(message), {
      since,
      timeoutMs: 30_000,
    });
  };
  try {
    // A sibling worktree (as people keep by hand), then the project install committed on main
    // and brought into it: Codex reads `.codex/hooks.json` from the checkout it runs in.
    await run("git", ["worktree", "add", "-q", "-b", "side", side], world.project);
    const sideWorld = { ...world, project: side };
    await configureCodex(sideWorld, standIn.url);
    const installed = await cli(world, { env }, "install", "--agent", "codex");
    assert.equal(installed.code, 0, installed.out);
    await commitAll(world, "setup");
    await run("git", ["merge", "-q", "--ff-only", "main"], side);
    tmux = await startCodex(bin, sideWorld, { env, reviewHooks: true });
    await dumpThenClear(t, {
      world,
      slug: "wt-codex",
      worktree: side,
      mark,
      tmux: tmux!,
      say: async (m) => responsesText(await say(m)),
      settleMs: 1_500,
    });
  } finally {
    await tmux?.kill();
    await standIn.close();
    await Deno.remove(side, { recursive: true }).catch(() => {});
    await world.cleanup();
  }
});
