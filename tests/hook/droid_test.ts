/**
 * The hook contract for Factory Droid: its payloads (captured from the real client, 0.215.0; paths
 * and ids replaced) in. Droid names the session its `/clear` starts `resume`, as it names a real
 * resume: the hook restores there only after SessionEnd `clear` left the clearing mark, and a
 * compaction's new session (`previous_session_id`) gets the card of the session it continues.
 */
import assert from "node:assert/strict";
import { ourPayload, type Payload } from "../../lib/hook/input.ts";
import { docPath } from "../../lib/store/store.ts";
import { NOW, scratchProject, writeDoc } from "../support/scratch.ts";
import { runHookProcess } from "../support/run.ts";

const minutes = (n: number) => new Date(NOW.getTime() - n * 60_000);
const ARGS = ["--agent", "droid"];
const OLD = "6f7b7ec3-81c2-4ff5-b6d7-cd7e409e0dd3";
const NEW = "70bb6dee-a936-44b7-aaa9-2be64c9f6fb5";

/** The fields every Droid 0.215.0 hook payload carries. */
function base(cwd: string, session: string, event: string) {
  return {
    session_id: session,
    transcript_path: `/home/dev/.factory/sessions/-home-dev-project/${session}.jsonl`,
    cwd,
    permission_mode: "off",
    hook_event_name: event,
  };
}

/** SessionEnd of the session `/clear` ends. */
function clearEnd(cwd: string): string {
  return JSON.stringify({
    ...base(cwd, OLD, "SessionEnd"),
    reason: "clear",
    session_duration_ms: 9676.19,
    message_count: 6,
  });
}

/** SessionStart of a session: `/clear`'s and a resume's alike; a compaction's names `previous`. */
function start(cwd: string, source: string, previous?: string): string {
  return JSON.stringify({
    ...base(cwd, NEW, "SessionStart"),
    source,
    ...(previous ? { previous_session_id: previous } : {}),
    CLAUDE_ENV_FILE: `/home/dev/.factory/temp/env/droid-env-${NEW}.sh`,
  });
}

/** The context of a hook answer in Claude Code's shape. */
function context(stdout: string): string {
  return JSON.parse(stdout).hookSpecificOutput.additionalContext;
}

Deno.test("droid: /clear (SessionEnd clear, then SessionStart resume) restores once", async (t) => {
  await using p = await scratchProject();
  await writeDoc(p.store, "droid-one", { created: minutes(3) });
  await t.step("a resume with no clearing mark before it: nothing", async () => {
    const ran = await runHookProcess(start(p.root, "resume"), { args: ARGS });
    assert.deepEqual([ran.code, ran.stdout], [0, ""], ran.stderr);
    assert.match(await Deno.readTextFile(docPath(p.store, "droid-one")), /consumed: false/);
  });
  await t.step("SessionEnd clear, then resume: the handover, consumed", async () => {
    const end = await runHookProcess(clearEnd(p.root), { args: ARGS });
    assert.deepEqual([end.code, end.stdout], [0, ""], end.stderr);
    const ran = await runHookProcess(start(p.root, "resume"), { args: ARGS });
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(
      context(ran.stdout),
      /^\[session\] The previous session left this handover: "droid-one"/,
    );
    assert.match(await Deno.readTextFile(docPath(p.store, "droid-one")), /consumed: true/);
  });
  await t.step("the mark is taken: a later resume restores nothing", async () => {
    await writeDoc(p.store, "droid-two", { created: minutes(1) });
    const ran = await runHookProcess(start(p.root, "resume"), { args: ARGS });
    assert.deepEqual([ran.code, ran.stdout], [0, ""]);
  });
  await t.step("a clearing mark older than a minute links nothing", async () => {
    await runHookProcess(clearEnd(p.root), { args: ARGS, now: minutes(2) });
    const ran = await runHookProcess(start(p.root, "resume"), { args: ARGS });
    assert.deepEqual([ran.code, ran.stdout], [0, ""]);
  });
  await t.step("one within the minute still does", async () => {
    await runHookProcess(clearEnd(p.root), { args: ARGS, now: new Date(NOW.getTime() - 50_000) });
    const ran = await runHookProcess(start(p.root, "resume"), { args: ARGS });
    assert.match(context(ran.stdout), /"droid-two"/);
  });
});

Deno.test("droid: startup restores only with --startup", async () => {
  await using p = await scratchProject();
  await writeDoc(p.store, "droid-start", { created: minutes(3) });
  const silent = await runHookProcess(start(p.root, "startup"), { args: ARGS });
  assert.deepEqual([silent.code, silent.stdout], [0, ""]);
  const opted = await runHookProcess(start(p.root, "startup"), {
    args: [...ARGS, "--source", "startup"],
  });
  assert.match(context(opted.stdout), /"droid-start"/);
});

Deno.test("droid: a compaction's new session gets the card of the session it continues", async () => {
  await using p = await scratchProject();
  await writeDoc(p.store, "droid-card", { created: minutes(3) });
  // The session that compacts is the one /clear started; it restored droid-card.
  await runHookProcess(clearEnd(p.root), { args: ARGS });
  assert.match(
    (await runHookProcess(start(p.root, "resume"), { args: ARGS })).stdout,
    /droid-card/,
  );
  const pre = JSON.stringify({
    ...base(p.root, NEW, "PreCompact"),
    trigger: "auto",
    message_count: 6,
    estimated_tokens: 78,
  });
  const saved = await runHookProcess(pre, { args: ARGS });
  assert.deepEqual([saved.code, saved.stdout], [0, ""], saved.stderr);
  const successor = JSON.stringify({
    ...JSON.parse(start(p.root, "resume", NEW)),
    session_id: "97464da2-ba10-4a73-bb32-ee91851198c4",
  });
  const ran = await runHookProcess(successor, { args: ARGS });
  const card = context(ran.stdout);
  assert.match(card, /^\[session\] The context was just compacted/);
  assert.ok(card.includes("Ship the restore hook."), "the handover's goal");
});

Deno.test("ourPayload: Droid's compaction successor is compact of the session it continues", () => {
  const payload: Payload = {
    cwd: "/p",
    hook_event_name: "SessionStart",
    session_id: "new",
    source: "resume",
    previous_session_id: "old",
    transcript_path: "/h/.factory/sessions/p/new.jsonl",
  };
  assert.deepEqual(ourPayload(payload, "droid"), {
    ...payload,
    source: "compact",
    session_id: "old",
    transcript_path: undefined,
  });
  // A resume without a previous session stays `resume` (restore.ts asks for the clearing mark).
  const { previous_session_id: _, ...plain } = payload;
  assert.deepEqual(ourPayload(plain, "droid"), { ...plain, transcript_path: undefined });
  for (const agent of ["claude", "codex", "qwen"] as const) {
    assert.equal(ourPayload(payload, agent), payload, agent);
  }
});
