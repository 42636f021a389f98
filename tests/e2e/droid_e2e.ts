/**
 * End to end in the real Factory Droid (pinned, offline in its airgap mode, against the loopback
 * Chat Completions stand-in as its custom model): the flow of support/chat_flow.ts —
 * `install --agent droid` writes SessionStart, SessionEnd and PreCompact into
 * `.factory/settings.json`; the model dumps through its `Execute` tool; `/clear` (which Droid
 * reports as SessionEnd `clear`, then SessionStart `resume` of the new session) restores the
 * handover once; `/compress` (a new session continuing the old one) brings the card; a second
 * `/clear` carries nothing; uninstall removes what install added. Then a real resume restores
 * nothing, and the round trip with Claude Code both ways (Droid registered `--user`, its `/new`).
 */

import assert from "node:assert/strict";
import { ensureClaude } from "./support/claude.ts";
import { chatFlow } from "./support/chat_flow.ts";
import { compressDroid, droidSide, ensureDroid } from "./support/droid.ts";
import { banner, claudeSide, inScene, storeDoc } from "./support/cross.ts";
import { dumpOn, mark, pickUp } from "./support/pick_up.ts";
import { sleep } from "./support/tmux.ts";

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
    await step("Claude Code's model dumps through its Bash tool, and Claude Code exits", async () => {
      await dumpOn(claude, world, "from-claude", fromClaude);
      // Droid's /new names the session it ends: a handover of a Claude Code session still open
      // waits for that session's own /clear. Once it exited, any session may take it.
      await claude.tmux.submit("/exit");
      await sleep(5_000);
    });
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
