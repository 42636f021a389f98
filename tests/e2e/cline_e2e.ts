/**
 * End to end in the real Cline CLI (pinned, offline, against the loopback Chat Completions
 * stand-in as an OpenAI-compatible provider), interactive in tmux. `install --agent cline` writes
 * the thin plugin file into `.cline/plugins/`; the model dumps through `run_commands`; after
 * `/clear` (Cline's "Start a new session") the new session's first request carries the handover,
 * once; after `/compact` the next message carries the card (the plugin sees the compacted
 * history's summary; Cline sends it no compaction event); another `/clear` carries nothing; `uninstall` removes the plugin file. Then a handover crosses from Claude Code
 * and back (Cline registered `--user`: `~/.cline/plugins/`), and without Deno the launcher's line
 * reaches the model.
 */

import assert from "node:assert/strict";
import { isoStamp } from "../../lib/store/time.ts";
import { cli, linkSkill, makeWorld } from "./support/agents.ts";
import { ensureClaude } from "./support/claude.ts";
import { clineSide, ensureCline } from "./support/cline.ts";
import { inChatWorld, mustStep } from "./support/chat_flow.ts";
import { banner, claudeSide, inScene, storeDoc } from "./support/cross.ts";
import { dumpOn, mark, pickUp } from "./support/pick_up.ts";
import { pathWithoutDeno } from "./support/process.ts";
import { sleep } from "./support/tmux.ts";

const PLUGIN = ".cline/plugins/session-restore.ts";
const CARD = "[session] The context was just compacted";

const [bin, claudeBin] = await Promise.all([ensureCline(), ensureClaude()]);

/** Whether `path` exists. */
async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** How often `part` occurs in `text`. */
function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

Deno.test("cline e2e: dump, /clear restores once, the card after /compact, uninstall", (t) =>
  inChatWorld(() => Promise.resolve(), async (world, env, hold) => {
    const slug = "e2e-cline";
    const body = "mark-cline-1";
    const step = (name: string, fn: () => Promise<void>) => mustStep(t, name, fn);
    let skillListed = false;
    const installed = await cli(world, { env }, "install", "--agent", "cline");
    assert.equal(installed.code, 0, installed.out);
    assert.ok(await exists(`${world.project}/${PLUGIN}`));
    const doctor = await cli(world, { env }, "doctor", "--agent", "cline");
    assert.match(
      doctor.out,
      /✓ SessionStart hook in .*\.cline\/plugins\/session-restore\.ts/,
      doctor.out,
    );
    await linkSkill(world);
    const s = hold(await clineSide(bin, world, env));

    await step("the model's run_commands runs dump; its last line is /clear", async () => {
      const hello = await s.say("hello");
      assert.ok(!hello.includes("[session] The previous session left"), "nothing to restore yet");
      // Cline names its skills in its `skills` tool, by name only.
      skillListed = /Available skills: [^"]*\bsession\b/.test(hello);
      const output = await s.dump(slug, body);
      assert.match(output, /\/clear\s*$/m, output);
      assert.match(await storeDoc(world, slug), /^consumed: false$/m);
    });

    await step("/clear: the new session's first request carries the handover, once", async () => {
      await s.clear();
      const text = await s.say("carry on");
      assert.ok(text.includes(banner(slug)), "the banner");
      assert.ok(text.includes(body), "the body");
      assert.ok(!text.includes("please dump"), "the old conversation is gone");
      assert.match(await storeDoc(world, slug), /^consumed: true$/m);
      const next = await s.say("and next");
      assert.equal(count(next, banner(slug)), 1, "kept in the history, never added again");
    });

    await step("/compact: the next message carries the card of that handover, once", async () => {
      await s.tmux.submit("/compact");
      await sleep(8_000);
      const text = await s.say("after the compaction");
      assert.ok(text.includes("Context summary:"), "Cline compacted the history");
      assert.equal(count(text, CARD), 1, "the card");
      assert.ok(text.includes(body), "the handover's goal in the card");
      const next = await s.say("later still");
      assert.equal(count(next, CARD), 1, "kept in the history, never added again");
    });

    await step("another /clear carries nothing", async () => {
      await s.clear();
      const text = await s.say("second round");
      assert.ok(!text.includes(banner(slug)));
      assert.ok(!text.includes(body));
    });

    await step("the skill from ~/.agents/skills/ is named in the skills tool", () => {
      assert.ok(skillListed, "session among the skills tool's available skills");
      return Promise.resolve();
    });

    await step("uninstall removes exactly the plugin file", async () => {
      const removed = await cli(world, { env }, "uninstall", "--agent", "cline");
      assert.equal(removed.code, 0, removed.out);
      assert.ok(!(await exists(`${world.project}/${PLUGIN}`)), "the plugin file is gone");
    });
  }));

Deno.test("cline e2e: a handover crosses to and from Claude Code (--user registration)", (t) =>
  inScene(t, [["--agent", "cline", "--user"]], async ({ world, env, start, step }) => {
    assert.ok(await exists(`${world.home}/.cline/plugins/session-restore.ts`));
    const claude = await start(claudeSide(claudeBin, world, env));
    const cline = await start(clineSide(bin, world, env));
    await step("Cline's first session, before any dump, carries nothing", async () => {
      assert.ok(!(await cline.say("hello cline")).includes("[session] The previous session left"));
    });
    const fromClaude = mark("CLAUDE");
    await step("Claude Code's model dumps through its Bash tool", async () => {
      await dumpOn(claude, world, "from-claude", fromClaude);
    });
    await step("Cline /clear: the new session carries Claude Code's handover, once", async () => {
      await pickUp(cline, world, "from-claude", fromClaude, "from claude");
    });
    const fromCline = mark("CLINE");
    await step("Cline's model dumps through run_commands", async () => {
      await dumpOn(cline, world, "from-cline", fromCline);
    });
    await step("Claude Code /clear: the next request carries Cline's handover, once", async () => {
      await pickUp(claude, world, "from-cline", fromCline, "from cline");
    });
  }));

Deno.test("cline e2e without Deno: the launcher's line reaches the model", async (t) => {
  const world = await makeWorld();
  const env = { SESSION_NOW: isoStamp(new Date()) };
  const installed = await cli(world, { env }, "install", "--agent", "cline");
  assert.equal(installed.code, 0, installed.out);
  const PATH = await pathWithoutDeno(`${world.home}/../no-deno-bin`);
  const s = await clineSide(bin, world, { ...env, PATH });
  try {
    await mustStep(t, "the first request says Deno 2 was not found", async () => {
      const text = await s.say("hello without deno");
      assert.ok(
        text.includes("[session] No handover was restored or saved: Deno 2 was not found"),
        "the agent's line",
      );
    });
  } catch (err) {
    console.error(`screen:\n${await s.tmux.screen()}`);
    throw err;
  } finally {
    await s.stop();
    await world.cleanup();
  }
});
