/**
 * The context-pressure nudge as users run it: `install` registers UserPromptSubmit, and its
 * command, read back from the settings file, runs with a Claude Code payload and a transcript
 * under a scratch HOME: each side of each threshold, once per session, both at once, the 1M
 * window, two sessions at once, missing or malformed usage, the statusline's figure preferred,
 * `--nudge A,B` and `--no-nudge`.
 */

import assert from "node:assert/strict";
import { join } from "../lib/fs/path.ts";
import { FILL_PREFIX, NUDGED_PREFIX } from "../lib/pressure/state.ts";
import { assistantLine, placeTranscript } from "./support/transcript.ts";
import { scratchDir, scratchProject } from "./support/scratch.ts";
import { contextOf } from "./support/run.ts";
import { installHook, reasonOf, runRegistered } from "./support/registered.ts";

const USER = JSON.stringify({ type: "user", message: { role: "user", content: "go on" } });

/** A scratch project with the nudge installed, and a way to send one prompt of a session. */
async function world(flags: string[] = []) {
  const p = await scratchProject({ store: false });
  const homeDir = await scratchDir("session-home-");
  const home = homeDir.path;
  const command = await installHook(p.root, { home, flags, event: "UserPromptSubmit" });
  /** One prompt of session `sid` whose transcript's newest usage adds up to `used`. */
  async function prompt(sid: string, used: number | string | undefined) {
    const body = used === undefined
      ? `${USER}\n`
      : `${USER}\n${typeof used === "string" ? used : assistantLine(used)}\n${USER}\n`;
    const path = await placeTranscript(home, p.root, sid, body);
    const payload = JSON.stringify({
      session_id: sid,
      transcript_path: path,
      cwd: p.root,
      hook_event_name: "UserPromptSubmit",
      prompt: "next",
    });
    const ran = await runRegistered(command, payload, {
      cwd: p.root,
      projectDir: p.root,
      env: { HOME: home },
    });
    assert.equal(ran.code, 0, ran.stderr);
    return { context: contextOf(ran), reason: reasonOf(ran) ?? ran.stderr };
  }
  return {
    p,
    home,
    command,
    prompt,
    async [Symbol.asyncDispose]() {
      await homeDir[Symbol.asyncDispose]();
      await p[Symbol.asyncDispose]();
    },
  };
}

Deno.test("the nudge, as install registers it", async (t) => {
  await t.step("each side of 70 % and 85 %, each once per session", async () => {
    await using w = await world();
    let r = await w.prompt("s-1", 139_999);
    assert.equal(r.context, undefined);
    assert.match(r.reason, /no new threshold \(transcript: 139999\/200000\)/);
    r = await w.prompt("s-1", 140_000);
    assert.match(r.context ?? "", /^\[session\] The context is 70 % \(140k of 200k tokens\) full/);
    assert.match(r.reason, /nudged at 70 %/);
    r = await w.prompt("s-1", 150_000);
    assert.equal(r.context, undefined, "70 % fires once");
    r = await w.prompt("s-1", 169_999);
    assert.equal(r.context, undefined);
    r = await w.prompt("s-1", 170_000);
    assert.match(r.context ?? "", /85 % \(170k of 200k tokens\)/);
    r = await w.prompt("s-1", 190_000);
    assert.equal(r.context, undefined, "85 % fires once");
    assert.equal(
      await Deno.readTextFile(join(w.p.store.dir, `${NUDGED_PREFIX}s-1`)),
      "70,85\n",
    );
  });
  await t.step("a prompt past both thresholds fires once and marks both", async () => {
    await using w = await world();
    const r = await w.prompt("s-2", 180_000);
    assert.match(r.context ?? "", /90 %/);
    assert.match(r.reason, /nudged at 70 and 85 %/);
    assert.equal((await w.prompt("s-2", 190_000)).context, undefined);
  });
  await t.step("above 200k the window is 1M", async () => {
    await using w = await world();
    assert.match((await w.prompt("s-3", 250_000)).reason, /no new threshold.*250000\/1000000/);
    assert.match((await w.prompt("s-3", 700_000)).context ?? "", /70 % \(700k of 1M tokens\)/);
  });
  await t.step("two sessions at once: each is nudged once, its own mark", async () => {
    await using w = await world();
    const [a, b] = await Promise.all([w.prompt("s-a", 150_000), w.prompt("s-b", 150_000)]);
    assert.ok(a.context && b.context, `${a.reason} / ${b.reason}`);
    const [a2, b2] = await Promise.all([w.prompt("s-a", 160_000), w.prompt("s-b", 100_000)]);
    assert.equal(a2.context, undefined);
    assert.equal(b2.context, undefined);
  });
  await t.step("no usage record, a malformed one, no transcript: nothing", async () => {
    await using w = await world();
    assert.match((await w.prompt("s-4", undefined)).reason, /no usage record/);
    const bad = assistantLine(190_000).replace('"input_tokens":10', '"input_tokens":null');
    assert.match((await w.prompt("s-4", bad)).reason, /no usage record/);
    assert.match((await w.prompt("s-4", "{not json")).reason, /no usage record/);
    const payload = JSON.stringify({
      session_id: "s-4",
      transcript_path: join(w.home, ".claude/projects/x/none.jsonl"),
      cwd: w.p.root,
      hook_event_name: "UserPromptSubmit",
    });
    const ran = await runRegistered(w.command, payload, { cwd: w.p.root, env: { HOME: w.home } });
    assert.equal(ran.stdout, "");
    assert.match(reasonOf(ran) ?? ran.stderr, /transcript not read/);
  });
  await t.step("the statusline's figure is preferred over the transcript's", async () => {
    await using w = await world();
    await Deno.mkdir(w.p.store.dir, { recursive: true });
    const fill = (used: number) =>
      Deno.writeTextFile(
        join(w.p.store.dir, `${FILL_PREFIX}s-5`),
        JSON.stringify({ used, size: 200_000 }),
      );
    await fill(20_000);
    let r = await w.prompt("s-5", 160_000);
    assert.equal(r.context, undefined);
    assert.match(r.reason, /statusline: 20000\/200000/);
    await fill(150_000);
    r = await w.prompt("s-5", 20_000);
    assert.match(r.context ?? "", /75 % \(150k of 200k tokens\)/);
  });
  await t.step(
    "a recorded window of 0 tokens is ignored: the transcript's figure counts",
    async () => {
      await using w = await world();
      await Deno.mkdir(w.p.store.dir, { recursive: true });
      await Deno.writeTextFile(
        join(w.p.store.dir, `${FILL_PREFIX}s-0`),
        JSON.stringify({ used: 150_000, size: 0 }),
      );
      const r = await w.prompt("s-0", 160_000);
      assert.match(r.context ?? "", /80 % \(160k of 200k tokens\)/, r.reason);
      assert.match(r.reason, /transcript: 160000\/200000/);
    },
  );
  await t.step("install --nudge 60,80 moves the thresholds", async () => {
    await using w = await world(["--nudge", "60,80"]);
    assert.match(w.command, /--nudge 60,80$/);
    assert.equal((await w.prompt("s-6", 119_999)).context, undefined);
    assert.match((await w.prompt("s-6", 120_000)).context ?? "", /60 %/);
    assert.match((await w.prompt("s-6", 160_000)).context ?? "", /80 %/);
  });
});

Deno.test("the nudge for Codex: the rollout's token_count against its own window, in words", async () => {
  await using p = await scratchProject({ store: false });
  await using homeDir = await scratchDir("session-home-");
  const home = homeDir.path;
  const command = await installHook(p.root, {
    agent: "codex",
    home,
    event: "UserPromptSubmit",
  });
  assert.match(command, /--agent codex$/);
  const dir = join(home, ".codex/sessions/2026/11/30");
  await Deno.mkdir(dir, { recursive: true });
  const rollout = join(dir, "rollout-2026-11-30T11-00-00-thread.jsonl");
  const count = (input: number) =>
    JSON.stringify({
      type: "event_msg",
      payload: {
        type: "token_count",
        info: {
          last_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: 0 },
          model_context_window: 258_400,
        },
      },
    });
  const prompt = async (input: number) => {
    await Deno.writeTextFile(rollout, `${count(input)}\n`);
    const payload = JSON.stringify({
      session_id: "thread-1",
      transcript_path: rollout,
      cwd: p.root,
      hook_event_name: "UserPromptSubmit",
      prompt: "next",
    });
    const ran = await runRegistered(command, payload, { cwd: p.root, env: { HOME: home } });
    return { context: contextOf(ran), reason: reasonOf(ran) ?? ran.stderr };
  };
  assert.match((await prompt(180_000)).reason, /no new threshold \(transcript: 180000\/258400\)/);
  const r = await prompt(181_000);
  assert.match(r.context ?? "", /70 % \(181k of 258k tokens\)/);
  // Codex has no `/session` command: the agent offers a dump in words.
  assert.match(r.context ?? "", /offer the user a handover \("dump the session"\)/);
  assert.ok(!r.context?.includes("/session"), r.context);
});
