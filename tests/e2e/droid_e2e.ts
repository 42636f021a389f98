/**
 * End to end in the real Factory Droid (pinned, offline in its airgap mode, against the loopback
 * Chat Completions stand-in as its custom model): the flow of support/chat_flow.ts —
 * `install --agent droid` writes SessionStart, SessionEnd and PreCompact into
 * `.factory/settings.json`; the model dumps through its `Execute` tool; `/clear` (which Droid
 * reports as SessionEnd `clear`, then SessionStart `resume` of the new session) restores the
 * handover once; `/compress` (a new session continuing the old one) brings the card; a second
 * `/clear` carries nothing; uninstall removes what install added. Then a real resume restores
 * nothing, and the round trip with Claude Code both ways (Droid registered `--user`, its `/new`).
 * Last, without Deno: what the launcher's line brings to the user and to the model after `/clear`.
 */

import assert from "node:assert/strict";
import { isoStamp } from "../../lib/store/time.ts";
import { cli, makeWorld } from "./support/agents.ts";
import * as chat from "./support/chat_stand_in.ts";
import { ensureClaude } from "./support/claude.ts";
import { chatFlow, inChatWorld, mustStep } from "./support/chat_flow.ts";
import {
  compressDroid,
  configureDroid,
  droidSide,
  ensureDroid,
  newestSession,
  startDroid,
} from "./support/droid.ts";
import { banner, claudeSide, inScene, storeDoc } from "./support/cross.ts";
import { dumpOn, mark, pickUp } from "./support/pick_up.ts";
import { pathWithoutDeno } from "./support/process.ts";
import { sleep, type Tmux } from "./support/tmux.ts";

const USER_LINE = "Deno 2 was not found";
const AGENT_LINE = "[session] No handover was restored or saved: Deno 2 was not found";

const [bin, claudeBin] = await Promise.all([ensureDroid(), ensureClaude()]);

Deno.test("droid e2e: dump, /clear restores once, /compress brings the card", (t) =>
  chatFlow(t, {
    agent: "droid",
    configure: () => Promise.resolve(), // its settings name the stand-in: droidSide writes them
    start: (world, env) => droidSide(bin, world, env),
    compact: compressDroid,
    uninstalled: async (world) => {
      const left = await Deno.readTextFile(`${world.project}/.factory/settings.json`).catch(
        () => undefined,
      );
      assert.ok(left === undefined || !left.includes("session_restore.ts"), "no hook of ours");
    },
  }));

Deno.test("droid e2e: a real resume (--resume) restores nothing; its /clear then does", (t) =>
  inChatWorld(() => Promise.resolve(), async (world, env, hold) => {
    const installed = await cli(world, { env }, "install", "--agent", "droid");
    assert.equal(installed.code, 0, installed.out);
    const first = hold(await droidSide(bin, world, env));
    await mustStep(t, "the model dumps; Droid exits", async () => {
      await dumpOn(first, world, "droid-resume", "RESUME-MARK");
      await sleep(2_000);
      await first.stop();
    });
    const id = await newestSession(world);
    const resumed = hold(await droidSide(bin, world, env, "/clear", ["--resume", id]));
    await mustStep(t, "--resume: SessionStart resume with no clearing mark, nothing", async () => {
      const text = await resumed.say("resumed now");
      assert.ok(text.includes("please dump"), "the resumed conversation is there");
      assert.ok(!text.includes(banner("droid-resume")), "no handover in a resumed session");
      assert.match(await storeDoc(world, "droid-resume"), /^consumed: false$/m);
    });
    await mustStep(t, "its /clear restores the handover, once", async () => {
      await pickUp(resumed, world, "droid-resume", "RESUME-MARK", "after resume");
    });
  }));

Deno.test("droid e2e: a handover crosses to and from Claude Code (/new, --user registration)", (t) =>
  inScene(t, [["--agent", "droid", "--user"]], async ({ world, env, start, step }) => {
    assert.match(
      await Deno.readTextFile(`${world.home}/.factory/settings.json`),
      /session_restore\.ts/,
    );
    const claude = await start(claudeSide(claudeBin, world, env));
    const droid = await start(droidSide(bin, world, env, "/new"));
    await step("Droid's first session, before any dump, carries nothing", async () => {
      assert.ok(!(await droid.say("hello droid")).includes("[session] The previous session left"));
    });
    const fromDroid = mark("DROID");
    await step("Droid's model dumps through its Execute tool", async () => {
      await dumpOn(droid, world, "from-droid", fromDroid);
    });
    await step("Claude Code /clear: the next request carries Droid's handover, once", async () => {
      await pickUp(claude, world, "from-droid", fromDroid, "from droid");
    });

    const fromClaude = mark("CLAUDE");
    await step(
      "Claude Code's model dumps through its Bash tool, and Claude Code exits",
      async () => {
        await dumpOn(claude, world, "from-claude", fromClaude);
        // Droid's /new names the session it ends: a handover of a Claude Code session still open
        // waits for that session's own /clear. Once it exited, any session may take it.
        await claude.tmux.submit("/exit");
        await sleep(5_000);
      },
    );
    await step("Droid /new: the new session carries Claude Code's handover, once", async () => {
      await pickUp(droid, world, "from-claude", fromClaude, "from claude");
    });
    await step("nor does Droid's next session take Droid's own again", async () => {
      await droid.clear();
      const text = await droid.say("later droid");
      assert.ok(!text.includes(banner("from-droid")));
      assert.match(await storeDoc(world, "from-droid"), /^consumed: true$/m);
    });
  }));

Deno.test("droid e2e without Deno: /clear exits 0; what reaches the user and the model", async (t) => {
  const world = await makeWorld();
  const env = { SESSION_NOW: isoStamp(new Date()) };
  const standIn = chat.startStandIn(() => ({ text: "OK." }));
  const noDeno = `${world.home}/../no-deno-bin`;
  let tmux: Tmux | undefined;
  try {
    const installed = await cli(world, { env }, "install", "--agent", "droid");
    assert.equal(installed.code, 0, installed.out);
    await configureDroid(world, standIn.url);
    tmux = await startDroid(bin, world, { ...env, PATH: await pathWithoutDeno(noDeno) });
    await sleep(2_000);
    await tmux.submit("/clear");
    await tmux.waitForScreen("New session created", 30_000);
    await sleep(2_000);
    await t.step("the model: additionalContext in the next request", async () => {
      const since = standIn.requests.length;
      await tmux!.submit("carry on");
      const next = await standIn.waitFor(
        (r) => chat.isTurn(r) && chat.lastUser(r).includes("carry on"),
        { since, timeoutMs: 45_000 },
      );
      assert.ok(chat.requestText(next, "user").includes(AGENT_LINE));
    });
    // Droid 0.215.0 shows no SessionStart output (nor its systemMessage): asserted so that a Droid
    // that starts showing it is noticed.
    await t.step("the user: nothing on the screen", async () => {
      await sleep(2_000);
      const screen = await tmux!.screen();
      assert.ok(!screen.includes(USER_LINE), screen);
      assert.doesNotMatch(screen, /exit code 127/i);
    });
  } finally {
    await tmux?.kill();
    await standIn.close();
    await world.cleanup();
    await Deno.remove(noDeno, { recursive: true }).catch(() => {});
  }
});
