/**
 * End to end in the real GitHub Copilot CLI (pinned, offline, its BYOK provider the loopback Chat
 * Completions stand-in): `install --agent copilot` puts SessionStart in `.github/hooks/`; the
 * model dumps through Copilot's `bash` tool; after `/clear` the new session's first request carries
 * the handover, once (Copilot runs SessionStart with that prompt, source `new`); after `/compact`
 * the next prompt brings the card (PreCompact saved it, UserPromptSubmit delivers it); uninstall
 * removes the file. Then the round trip with
 * Claude Code both ways (`--user` registration: `~/.copilot/hooks/`), and a machine without Deno.
 */

import assert from "node:assert/strict";
import { cli, linkSkill, makeWorld } from "./support/agents.ts";
import { ensureClaude } from "./support/claude.ts";
import * as chat from "./support/chat_stand_in.ts";
import { inChatWorld, mustStep } from "./support/chat_flow.ts";
import { copilotSide, ensureCopilot, startCopilot } from "./support/copilot.ts";
import { banner, claudeSide, inScene, storeDoc } from "./support/cross.ts";
import { carried, carriedOnce, dumpOn, mark, pickUp } from "./support/pick_up.ts";
import { pathWithoutDeno } from "./support/process.ts";
import { isoStamp } from "../../lib/store/time.ts";
import { sleep, type Tmux } from "./support/tmux.ts";

const CARD = "[session] The context was just compacted";
const HOOKS = ".github/hooks/session-restore.json";

const [bin, claudeBin] = await Promise.all([ensureCopilot(), ensureClaude()]);

/** Whether `path` exists. */
async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("copilot e2e: dump, /clear restores once, the card after /compact, uninstall", (t) =>
  inChatWorld(async () => {}, async (world, env, hold) => {
    const step = (name: string, fn: () => Promise<void>) => mustStep(t, name, fn);
    const slug = "e2e-copilot";
    const body = mark("COPILOT");
    const installed = await cli(world, { env }, "install", "--agent", "copilot");
    assert.equal(installed.code, 0, installed.out);
    assert.ok(await exists(`${world.project}/${HOOKS}`), installed.out);
    await linkSkill(world);
    const s = hold(await copilotSide(bin, world, env));

    await step(
      "the skill is listed; the model's bash tool runs dump; its last line is /clear",
      async () => {
        const hello = await s.say("hello");
        // The skill from ~/.agents/skills (Copilot lists it with its description).
        assert.match(hello, /Handover that survives \/clear/);
        assert.ok(!hello.includes("[session] The previous session left"));
        await dumpOn(s, world, slug, body);
      },
    );

    await step("/clear: the new session's first request carries the handover, once", async () => {
      await s.clear();
      const text = await s.say("carry on");
      await carried(s, world, slug, body, text);
      assert.ok(!text.includes("please dump"), "the old conversation is gone");
    });

    await step("/compact: the next prompt carries the card, once", async () => {
      await s.tmux.submit("/compact");
      await s.tmux.waitForScreen("Compaction completed", 60_000);
      await sleep(2_000);
      const text = await s.say("after the compaction");
      assert.ok(text.includes(CARD), "the card");
      assert.ok(text.includes(body), "the handover's goal in the card");
      const next = await s.say("and the prompt after it");
      // Copilot keeps each prompt's context in the history: the card once, not a second time.
      assert.equal(next.split(CARD).length - 1, 1, "one card");
    });

    await step("another /clear carries nothing", async () => {
      await carriedOnce(s, slug, body, "second round");
    });

    await step("uninstall removes exactly what install added", async () => {
      const removed = await cli(world, { env }, "uninstall", "--agent", "copilot");
      assert.equal(removed.code, 0, removed.out);
      assert.ok(!(await exists(`${world.project}/${HOOKS}`)), "the hooks file is gone");
    });
  }));

Deno.test("copilot e2e: a handover crosses to and from Claude Code (--user registration)", (t) =>
  inScene(t, [["--agent", "copilot", "--user"]], async ({ world, env, start, step }) => {
    assert.ok(await exists(`${world.home}/.copilot/hooks/session-restore.json`));

    const claude = await start(claudeSide(claudeBin, world, env));
    const fromClaude = mark("CLAUDE");
    await step("Claude Code's model dumps through its Bash tool", async () => {
      await dumpOn(claude, world, "from-claude", fromClaude);
    });
    const copilot = await start(copilotSide(bin, world, env));
    await step(
      "Copilot, started after it: its first request carries the handover, once",
      async () => {
        // A launch's first session is `new`, as /clear's is: it restores what is pending.
        await carried(
          copilot,
          world,
          "from-claude",
          fromClaude,
          await copilot.say("hello copilot"),
        );
        await carriedOnce(copilot, "from-claude", fromClaude, "from claude");
      },
    );

    const fromCopilot = mark("COPILOT");
    await step("Copilot's model dumps through its bash tool", async () => {
      await dumpOn(copilot, world, "from-copilot", fromCopilot);
    });
    await step(
      "Claude Code /clear: the next request carries Copilot's handover, once",
      async () => {
        await pickUp(claude, world, "from-copilot", fromCopilot, "from copilot");
      },
    );
    await step("nor does Copilot's next session take it again", async () => {
      await copilot.clear();
      const text = await copilot.say("later copilot");
      assert.ok(!text.includes(banner("from-copilot")));
      assert.match(await storeDoc(world, "from-copilot"), /^consumed: true$/m);
    });
  }));

Deno.test("copilot e2e without Deno: the first request after /clear tells the model", async () => {
  const world = await makeWorld();
  const env = { SESSION_NOW: isoStamp(new Date("2026-11-30T12:00:00Z")) };
  const standIn = chat.startStandIn(() => ({ text: "OK." }));
  let tmux: Tmux | undefined;
  try {
    const installed = await cli(world, { env }, "install", "--agent", "copilot");
    assert.equal(installed.code, 0, installed.out);
    const PATH = await pathWithoutDeno(`${world.home}/../no-deno-bin`);
    tmux = await startCopilot(bin, world, standIn.url, { ...env, PATH });
    await tmux.submit("/clear");
    await sleep(3_000);
    const since = standIn.requests.length;
    await tmux.submit("carry on");
    const next = await standIn.waitFor(
      (r) => chat.isTurn(r) && chat.lastUser(r).includes("carry on"),
      { since, timeoutMs: 60_000 },
    );
    assert.ok(
      chat.requestText(next, "user").includes(
        "[session] No handover was restored or saved: Deno 2 was not found",
      ),
      chat.requestText(next, "user"),
    );
  } finally {
    await tmux?.kill();
    await standIn.close();
    await world.cleanup();
    await Deno.remove(`${world.home}/../no-deno-bin`, { recursive: true }).catch(() => {});
  }
});
