/**
 * The hook contract for GitHub Copilot CLI: its SessionStart payload (captured from the real client,
 * 1.0.102, registered under the PascalCase event name) in, exactly one JSON object out holding only
 * a top-level `additionalContext` (the one field Copilot reads); its `new` source, which stands for
 * a launch's first session and for `/clear` alike, read as `clear`, and `resume` silent.
 */
import assert from "node:assert/strict";
import { ourPayload, type Payload } from "../../lib/hook/input.ts";
import { docPath } from "../../lib/store/store.ts";
import { readLatest } from "../../lib/store/latest.ts";
import { NOW, scratchProject, writeDoc } from "../support/scratch.ts";
import { runHookProcess } from "../support/run.ts";

const minutes = (n: number) => new Date(NOW.getTime() - n * 60_000);

/** Copilot CLI 1.0.102's SessionStart payload (captured at /clear's first prompt; paths replaced). */
function copilotPayload(cwd: string, source = "new"): string {
  return JSON.stringify({
    hook_event_name: "SessionStart",
    session_id: "bf61c03f-7ed4-4d9f-9909-684bf922c400",
    timestamp: "2026-12-06T04:37:57.128Z",
    cwd,
    source,
    initial_prompt: "carry on",
  });
}

Deno.test("copilot: hook contract", async (t) => {
  await t.step("source new → one top-level additionalContext, document consumed", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "copilot-one", { created: minutes(3) });
    const ran = await runHookProcess(copilotPayload(p.root), { args: ["--agent", "copilot"] });
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout.trimEnd().split("\n").length, 1, ran.stdout);
    const json = JSON.parse(ran.stdout);
    assert.deepEqual(Object.keys(json), ["additionalContext"]);
    assert.match(
      json.additionalContext,
      /^\[session\] The previous session left this handover: "copilot-one"/,
    );
    assert.ok(json.additionalContext.includes("Ship the restore hook."));
    assert.equal(readLatest(p.store), undefined);
    assert.match(await Deno.readTextFile(docPath(p.store, "copilot-one")), /consumed: true/);
  });
  await t.step("resume stays silent unless opted in", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "copilot-two", { created: minutes(3) });
    const silent = await runHookProcess(copilotPayload(p.root, "resume"), {
      args: ["--agent", "copilot"],
    });
    assert.deepEqual([silent.code, silent.stdout], [0, ""]);
    const opted = await runHookProcess(copilotPayload(p.root, "resume"), {
      args: ["--agent", "copilot", "--source", "resume"],
    });
    assert.match(JSON.parse(opted.stdout).additionalContext, /"copilot-two"/);
  });
  await t.step("Claude Code's answer keeps its shape", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "claude-one", { created: minutes(3) });
    const ran = await runHookProcess(copilotPayload(p.root, "clear"), { args: [] });
    assert.deepEqual(Object.keys(JSON.parse(ran.stdout)), ["hookSpecificOutput"]);
  });
});

Deno.test("ourPayload: Copilot's `new` is clear, its transcript unread; other agents as sent", () => {
  const payload: Payload = {
    cwd: "/p",
    hook_event_name: "SessionStart",
    source: "new",
    transcript_path: "/h/.copilot/session-state/s/events.jsonl",
  };
  assert.deepEqual(ourPayload(payload, "copilot"), {
    ...payload,
    source: "clear",
    transcript_path: undefined,
  });
  assert.equal(ourPayload({ ...payload, source: "resume" }, "copilot").source, "resume");
  assert.equal(ourPayload({ ...payload, source: undefined }, "copilot").source, undefined);
  for (const agent of ["claude", "codex", "gemini", "qwen", "opencode", "kilo"] as const) {
    assert.equal(ourPayload(payload, agent), payload, agent);
  }
});

/** Copilot CLI 1.0.102's PreCompact payload (captured at /compact; paths replaced). */
function copilotPreCompact(cwd: string, session: string): string {
  return JSON.stringify({
    hook_event_name: "PreCompact",
    session_id: session,
    timestamp: "2026-12-06T04:38:14.370Z",
    cwd,
    transcript_path: `/h/.copilot/session-state/${session}/events.jsonl`,
    trigger: "manual",
    custom_instructions: "",
  });
}

/** Copilot CLI 1.0.102's UserPromptSubmit payload (as its PascalCase name sends it). */
function copilotPrompt(cwd: string, session: string): string {
  return JSON.stringify({
    hook_event_name: "UserPromptSubmit",
    session_id: session,
    timestamp: "2026-12-06T04:39:05.082Z",
    cwd,
    prompt: "after compact",
  });
}

Deno.test("copilot: the card comes with the first prompt after a compaction, once", async (t) => {
  await using p = await scratchProject();
  const session = "bf61c03f-7ed4-4d9f-9909-684bf922c400";
  const args = ["--agent", "copilot"];
  await writeDoc(p.store, "copilot-card", { created: minutes(3) });
  const restored = await runHookProcess(copilotPayload(p.root), { args });
  assert.match(restored.stdout, /copilot-card/);
  await t.step("a prompt before any compaction: nothing", async () => {
    const ran = await runHookProcess(copilotPrompt(p.root, session), { args });
    assert.deepEqual([ran.code, ran.stdout], [0, ""], ran.stderr);
  });
  await t.step("PreCompact prints nothing; the next prompt carries the card", async () => {
    const pre = await runHookProcess(copilotPreCompact(p.root, session), { args });
    assert.deepEqual([pre.code, pre.stdout], [0, ""], pre.stderr);
    const ran = await runHookProcess(copilotPrompt(p.root, session), { args });
    const json = JSON.parse(ran.stdout);
    assert.deepEqual(Object.keys(json), ["additionalContext"]);
    assert.match(json.additionalContext, /^\[session\] The context was just compacted/);
    assert.ok(json.additionalContext.includes("Ship the restore hook."), "the handover's goal");
  });
  await t.step("the prompt after that: nothing", async () => {
    const ran = await runHookProcess(copilotPrompt(p.root, session), { args });
    assert.deepEqual([ran.code, ran.stdout], [0, ""]);
  });
  await t.step("another agent's UserPromptSubmit stays the nudge's", async () => {
    await runHookProcess(copilotPreCompact(p.root, session), { args });
    const ran = await runHookProcess(copilotPrompt(p.root, session), {
      args: ["--agent", "codex"],
    });
    assert.doesNotMatch(ran.stdout, /just compacted/);
  });
});
