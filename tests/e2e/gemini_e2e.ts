/**
 * End to end in the real Gemini CLI (pinned, offline, against the loopback Gemini API stand-in):
 * the model dumps through its shell tool, the user sends `/clear`, and the next model request
 * carries the handover, once (Gemini drops SessionStart context on /clear, so the hook defers it
 * to the next BeforeAgent: see lib/hook/answer.ts); a second `/clear` carries nothing, nor an old dump.
 */

import assert from "node:assert/strict";
import { isoStamp } from "../../lib/store/time.ts";
import {
  cli,
  configureGemini,
  dumpCommand,
  ensureGemini,
  handoverBody,
  linkSkill,
  makeWorld,
  startGemini,
} from "./support/agents.ts";
import {
  contentsText,
  isAgentTurn,
  isToolOutput,
  type Recorded,
  startStandIn,
} from "./support/gemini_stand_in.ts";
import { sleep } from "./support/tmux.ts";

const STORE = ".claude/state/session";
const BANNER = "[session] The previous session left";

/** The text of the last user content of a request (what the user typed, plus hook context). */
function lastUser(r: Recorded): string {
  const users = (r.body.contents ?? []).filter((c) => c.role === "user");
  const last = users[users.length - 1];
  return last ? contentsText({ ...r, body: { contents: [last] } }) : "";
}

Deno.test("gemini e2e: dump via the shell tool, /clear, the handover reaches the model once", async (t) => {
  const bin = await ensureGemini();
  const world = await makeWorld();
  const standIn = startStandIn((r) => {
    if (isToolOutput(r)) return { text: "Dumped. Send /clear to continue." };
    if (lastUser(r).includes("please dump")) {
      return {
        tool: "run_shell_command",
        args: { command: dumpCommand("e2e-gemini", "mark-gemini-1"), description: "dump" },
      };
    }
    return { text: "OK." };
  });
  const env = { SESSION_NOW: isoStamp(new Date()) };
  let tmux;
  /** Sends `/clear`, then `message`; returns the model request that carries `message`. */
  const clearThen = async (message: string) => {
    await tmux!.submit("/clear");
    await sleep(2_000);
    const since = standIn.requests.length;
    await tmux!.submit(message);
    return await standIn.waitFor((r) => isAgentTurn(r) && lastUser(r).includes(message), {
      since,
      timeoutMs: 30_000,
    });
  };
  try {
    await configureGemini(world);
    const installed = await cli(world, { env }, "install", "--agent", "gemini");
    assert.equal(installed.code, 0, installed.out);
    await linkSkill(world);
    tmux = await startGemini(bin, world, standIn.url, env);

    const ok = await t.step(
      "the model's shell tool runs dump; its last line is /clear",
      async () => {
        const since = standIn.requests.length;
        await tmux!.submit("please dump the session");
        const back = await standIn.waitFor((r) => isToolOutput(r), { since, timeoutMs: 30_000 });
        const output = contentsText(back);
        // The skill from ~/.agents/skills is listed to the model, with its SKILL.md path.
        assert.match(
          JSON.stringify(back.body.systemInstruction),
          /<name>session<\/name>\\n\s*<description>Handover that survives \/clear\..*?skills\/session\/SKILL\.md/,
        );
        assert.match(output, /\/clear/, `dump's output:\n${output.slice(-800)}`);
        const doc = await Deno.readTextFile(`${world.project}/${STORE}/e2e-gemini.md`);
        assert.match(doc, /consumed: false/);
        await tmux!.waitForScreen("Dumped. Send /clear", 30_000);
      },
    );
    if (!ok) throw new Error("the dump step failed");

    await t.step("/clear: the next request carries the handover; the doc is consumed", async () => {
      const next = await clearThen("carry on");
      const text = lastUser(next);
      assert.ok(text.includes(`${BANNER} this handover: "e2e-gemini"`), "banner in the request");
      assert.ok(text.includes("mark-gemini-1"), "the body in the request");
      assert.ok(!contentsText(next).includes("please dump"), "the old conversation is gone");
      const doc = await Deno.readTextFile(`${world.project}/${STORE}/e2e-gemini.md`);
      assert.match(doc, /consumed: true/);
    });

    await t.step("a second /clear carries nothing", async () => {
      const next = await clearThen("second round");
      assert.ok(!contentsText(next).includes(BANNER));
    });

    await t.step("a dump older than the window carries nothing", async () => {
      const old = { SESSION_NOW: isoStamp(new Date(Date.now() - 45 * 60_000)) };
      const dumped = await cli(world, { env: old, input: handoverBody("old") }, "dump", "e2e-old");
      assert.equal(dumped.code, 0, dumped.out);
      const next = await clearThen("third round");
      assert.ok(!contentsText(next).includes(BANNER));
      assert.equal((await Deno.readTextFile(`${world.project}/${STORE}/LATEST`)).trim(), "e2e-old");
    });

    await t.step("uninstall removes exactly what install added", async () => {
      const removed = await cli(world, { env }, "uninstall", "--agent", "gemini");
      assert.equal(removed.code, 0, removed.out);
      await assert.rejects(
        Deno.stat(`${world.project}/.gemini/settings.json`),
        Deno.errors.NotFound,
      );
    });
  } catch (err) {
    console.error(`screen:\n${await tmux?.screen()}`);
    for (const r of standIn.requests) {
      console.error(`request: turn=${isAgentTurn(r)} user=${lastUser(r).slice(-120)}`);
    }
    throw err;
  } finally {
    await tmux?.kill();
    await standIn.close();
    await world.cleanup();
  }
});
