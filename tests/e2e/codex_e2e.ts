/**
 * End to end in the real Codex CLI (pinned, offline, against the loopback Responses API
 * stand-in): the model dumps through its shell tool, the user sends `/clear`, and the next model
 * request carries the handover, once; a second `/clear` carries nothing, nor does an old dump.
 */

import assert from "node:assert/strict";
import { CLI_FLAGS, projectFile } from "../../lib/agents/command.ts";
import { isoStamp } from "../../lib/store/time.ts";
import {
  cli,
  configureCodex,
  dumpCommand,
  ensureCodex,
  handoverBody,
  linkSkill,
  makeWorld,
  startCodex,
} from "./support/agents.ts";
import {
  inputText,
  isToolOutput,
  type Recorded,
  startStandIn,
} from "./support/responses_stand_in.ts";

const STORE = ".claude/state/session";

const BANNER = "[session] The previous session left";

/** True for the agent's own turns (with tools), not side calls such as title generation. */
const isTurn = (r: Recorded) => (r.body.tools?.length ?? 0) > 0;

/** The last user message's text of a request. */
function lastUser(r: Recorded): string {
  const users = (r.body.input ?? []).filter((i) => i.role === "user");
  const last = users[users.length - 1];
  return last ? inputText({ ...r, body: { input: [last] } }) : "";
}

Deno.test("codex e2e: dump via the shell tool, /clear, the handover reaches the model once", async (t) => {
  const bin = await ensureCodex();
  const world = await makeWorld();
  const standIn = startStandIn((r) => {
    if (!isTurn(r)) return { text: "Session title" };
    if (isToolOutput(r)) return { text: "Dumped. Send /clear to continue." };
    if (lastUser(r).includes("please dump")) {
      // Evidence first, as Codex's shell tool runs it (CODEX_THREAD_ID names this session).
      const evidence = `deno run ${CLI_FLAGS.join(" ")} ${
        projectFile("session.ts")
      } evidence --json > ${world.home}/evidence.json`;
      const cmd = `${evidence} && ${dumpCommand("e2e-codex", "mark-codex-1")}`;
      return { tool: "exec_command", args: { cmd } };
    }
    return { text: "OK." };
  });
  const env = { SESSION_NOW: isoStamp(new Date()) };
  let tmux;
  try {
    await configureCodex(world, standIn.url);
    const installed = await cli(world, { env }, "install", "--agent", "codex");
    assert.equal(installed.code, 0, installed.out);
    await linkSkill(world);
    tmux = await startCodex(bin, world, { env, reviewHooks: true });

    const ok = await t.step(
      "the model's shell tool runs dump; its last line is /clear",
      async () => {
        const since = standIn.requests.length;
        await tmux!.submit("please dump the session");
        const back = await standIn.waitFor((r) => isTurn(r) && isToolOutput(r), {
          since,
          timeoutMs: 30_000,
        });
        const output = inputText(back);
        // The skill from ~/.agents/skills is listed to the model, with its SKILL.md path.
        const skills = inputText(back).split("\n").filter((l) => l.includes("SKILL.md"));
        assert.ok(
          skills.some((l) =>
            /^- (session:)?session: Handover that survives \/clear\..*session\/SKILL\.md/.test(l)
          ),
          `skills listed:\n${skills.join("\n")}`,
        );
        assert.match(output, /\/clear\s*$/m, `dump's output:\n${output.slice(-800)}`);
        const doc = await Deno.readTextFile(`${world.project}/${STORE}/e2e-codex.md`);
        assert.match(doc, /consumed: false/);
        // Run inside Codex, evidence read this session's own rollout.
        const ev = JSON.parse(await Deno.readTextFile(`${world.home}/evidence.json`));
        assert.match(
          ev.transcript ?? "",
          /\/\.codex\/sessions\/.*\/rollout-.*\.jsonl$/,
          `no rollout read: ${ev.transcriptNote}`,
        );
        assert.equal(
          (await Deno.readTextFile(`${world.project}/${STORE}/LATEST`)).trim(),
          "e2e-codex",
        );
        await tmux!.waitForScreen("Dumped. Send /clear", 30_000);
      },
    );
    if (!ok) throw new Error("the dump step failed");

    await t.step("/clear: the next request carries the handover; the doc is consumed", async () => {
      await tmux!.submit("/clear");
      await new Promise((r) => setTimeout(r, 1_500));
      const since = standIn.requests.length;
      await tmux!.submit("carry on");
      const next = await standIn.waitFor((r) => isTurn(r) && lastUser(r).includes("carry on"), {
        since,
        timeoutMs: 30_000,
      });
      const text = inputText(next);
      assert.ok(text.includes(`${BANNER} this handover: "e2e-codex"`), "banner in the request");
      assert.ok(text.includes("mark-codex-1"), "the body in the request");
      assert.ok(!text.includes("please dump"), "the old conversation is gone");
      const doc = await Deno.readTextFile(`${world.project}/${STORE}/e2e-codex.md`);
      assert.match(doc, /consumed: true/);
    });

    await t.step("a second /clear carries nothing", async () => {
      await tmux!.submit("/clear");
      await new Promise((r) => setTimeout(r, 1_500));
      const since = standIn.requests.length;
      await tmux!.submit("second round");
      const next = await standIn.waitFor((r) => isTurn(r) && lastUser(r).includes("second round"), {
        since,
        timeoutMs: 30_000,
      });
      assert.ok(!inputText(next).includes(BANNER));
    });

    await t.step("a dump older than the window carries nothing", async () => {
      const old = { SESSION_NOW: isoStamp(new Date(Date.now() - 45 * 60_000)) };
      const dumped = await cli(world, { env: old, input: handoverBody("old") }, "dump", "e2e-old");
      assert.equal(dumped.code, 0, dumped.out);
      await tmux!.submit("/clear");
      await new Promise((r) => setTimeout(r, 1_500));
      const since = standIn.requests.length;
      await tmux!.submit("third round");
      const next = await standIn.waitFor((r) => isTurn(r) && lastUser(r).includes("third round"), {
        since,
        timeoutMs: 30_000,
      });
      assert.ok(!inputText(next).includes(BANNER));
      assert.equal((await Deno.readTextFile(`${world.project}/${STORE}/LATEST`)).trim(), "e2e-old");
    });

    await t.step("uninstall removes exactly what install added", async () => {
      const removed = await cli(world, { env }, "uninstall", "--agent", "codex");
      assert.equal(removed.code, 0, removed.out);
      await assert.rejects(Deno.stat(`${world.project}/.codex/hooks.json`), Deno.errors.NotFound);
    });
  } catch (err) {
    console.error(`screen:\n${await tmux?.screen()}`);
    for (const r of standIn.requests) {
      console.error(
        `request: turn=${isTurn(r)} tool=${isToolOutput(r)} user=${lastUser(r).slice(-80)}`,
      );
    }
    throw err;
  } finally {
    await tmux?.kill();
    await standIn.close();
    await world.cleanup();
  }
});
