/**
 * Two sessions in one project, as processes: `dump` records the writer (CLAUDE_CODE_SESSION_ID),
 * SessionEnd (`reason: "clear"`) leaves its clearing mark, and the SessionStart after it restores
 * only the handover of the session it succeeds. Without a known writer, or without SessionEnd (an
 * older registration, Codex's `/clear`), the plain rule holds: LATEST's handover.
 */
import assert from "node:assert/strict";
import { answer } from "../lib/hook/answer.ts";
import { parseHookArgs } from "../lib/hook/input.ts";
import { readLatest } from "../lib/store/latest.ts";
import { docPath } from "../lib/store/store.ts";
import { contextOf, runCliProcess, runHookProcess } from "./support/run.ts";
import { minutesAgo, timedTranscript, workSteps } from "./continuity/_fixture.ts";
import { join } from "../lib/fs/path.ts";
import { NOW, type ScratchProject, scratchProject } from "./support/scratch.ts";

const A = "aaaaaaaa-0000-4000-8000-00000000000a";
const B = "bbbbbbbb-0000-4000-8000-00000000000b";

/** `session.ts dump NAME` from session `session` (none: a plain terminal). */
async function dump(p: ScratchProject, name: string, session?: string): Promise<void> {
  const ran = await runCliProcess(["dump", name], {
    cwd: p.root,
    stdin: `## Goal\n\nThe work of ${name}.\n\n## Next step\n\nGo on with ${name}.\n`,
    env: session === undefined ? {} : { CLAUDE_CODE_SESSION_ID: session },
  });
  assert.equal(ran.code, 0, ran.stderr);
}

/** SessionEnd of session `session` with `reason`, as Claude Code sends it. */
async function end(
  p: ScratchProject,
  session: string,
  reason: string,
  transcript?: string,
): Promise<void> {
  const ended = await runHookProcess(
    JSON.stringify({
      session_id: session,
      transcript_path: transcript,
      cwd: p.root,
      hook_event_name: "SessionEnd",
      reason,
    }),
    { env: { CLAUDE_PROJECT_DIR: p.root } },
  );
  assert.equal(ended.code, 0, ended.stderr);
}

/**
 * `/clear` in session `session` as Claude Code runs it: SessionEnd (`reason: "clear"`, the old
 * id), then SessionStart (`source: "clear"`, a new id). Without `withEnd`, SessionStart alone (an
 * older registration). Returns what the new session is given.
 */
async function clear(
  p: ScratchProject,
  session: string,
  withEnd = true,
  transcript?: string,
): Promise<string | undefined> {
  if (withEnd) await end(p, session, "clear", transcript);
  const started = await runHookProcess(
    JSON.stringify({
      session_id: `${session.slice(0, 8)}-0000-4000-8000-${crypto.randomUUID().slice(-12)}`,
      cwd: p.root,
      hook_event_name: "SessionStart",
      source: "clear",
    }),
    { env: { CLAUDE_PROJECT_DIR: p.root, SESSION_DEBUG: "1" } },
  );
  assert.equal(started.code, 0, started.stderr);
  return contextOf(started);
}

const consumed = async (p: ScratchProject, slug: string) =>
  /^consumed: true$/m.test(await Deno.readTextFile(docPath(p.store, slug)));

Deno.test("two sessions in one project: each handover goes to its own session's successor", async (t) => {
  await t.step("A dumps; B's /clear gets nothing of A's; A's /clear gets A's, once", async () => {
    await using p = await scratchProject();
    await dump(p, "a-work", A);
    assert.equal(await clear(p, B), undefined, "B is given nothing of A's");
    assert.equal(await consumed(p, "a-work"), false, "A's handover stays pending");
    assert.equal(readLatest(p.store), "a-work");
    assert.match(await clear(p, A) ?? "", /left this handover: "a-work"/);
    assert.equal(await consumed(p, "a-work"), true);
    assert.equal(await clear(p, A), undefined, "once");
  });
  await t.step(
    "B dumps after A: each /clear restores its own, LATEST names the newest",
    async () => {
      await using p = await scratchProject();
      await dump(p, "a-work", A);
      await dump(p, "b-work", B);
      assert.equal(readLatest(p.store), "b-work", "LATEST: the newest, for recall without a name");
      assert.match(await clear(p, A) ?? "", /left this handover: "a-work"/);
      assert.equal(readLatest(p.store), "b-work", "B's pointer survives A's restore");
      assert.equal(await consumed(p, "b-work"), false);
      assert.match(await clear(p, B) ?? "", /left this handover: "b-work"/);
      assert.equal(readLatest(p.store), undefined);
    },
  );
  await t.step(
    "B made no dump: its draft goes to B's successor, A's dump stays pending",
    async () => {
      await using p = await scratchProject();
      await dump(p, "a-work", A);
      const transcript = join(p.root, "b.jsonl");
      await Deno.writeTextFile(
        transcript,
        timedTranscript(p.root, [{ at: minutesAgo(3), steps: workSteps() }], B),
      );
      const notice = await clear(p, B, true, transcript);
      assert.match(notice ?? "", /automatic draft/, "B's successor: B's draft, as a notice");
      assert.doesNotMatch(notice ?? "", /a-work/);
      assert.equal(readLatest(p.store), "a-work", "A's pointer kept");
      assert.equal(await consumed(p, "a-work"), false);
      assert.match(await clear(p, A) ?? "", /left this handover: "a-work"/);
    },
  );
  await t.step("a handover with no known writer: the plain rule, whoever clears", async () => {
    await using p = await scratchProject();
    await dump(p, "terminal");
    assert.match(await clear(p, B) ?? "", /left this handover: "terminal"/);
  });
  await t.step("no SessionEnd registered (no clearing mark): the plain rule", async () => {
    await using p = await scratchProject();
    await dump(p, "a-work", A);
    assert.match(await clear(p, B, false) ?? "", /left this handover: "a-work"/);
  });
  await t.step(
    "a Codex dump names its thread: Claude Code's /clear leaves it, Codex's /clear takes it",
    async () => {
      await using p = await scratchProject();
      const ran = await runCliProcess(["dump", "codex-work"], {
        cwd: p.root,
        stdin: "## Goal\n\nThe work in Codex.\n",
        env: { CODEX_THREAD_ID: "01a2346d-88da-7222-8166-b560b95adb77" },
      });
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(await clear(p, B), undefined, "Claude Code's successor is given nothing");
      assert.equal(await consumed(p, "codex-work"), false);
      // Codex 0.171 fires no SessionEnd on /clear: SessionStart alone, the plain rule.
      assert.match(await clear(p, A, false) ?? "", /left this handover: "codex-work"/);
    },
  );
  await t.step(
    "a writer that ended for good (exit) leaves its handover to any /clear",
    async () => {
      await using p = await scratchProject();
      await dump(p, "a-work", A);
      assert.equal(await clear(p, B), undefined, "A is still open: its handover waits for it");
      await end(p, A, "prompt_input_exit");
      assert.match(
        await clear(p, B) ?? "",
        /left this handover: "a-work"/,
        "A has no successor now",
      );
      assert.equal(await consumed(p, "a-work"), true);
    },
  );
  await t.step("recall without a name still prints the newest", async () => {
    await using p = await scratchProject();
    await dump(p, "a-work", A);
    await dump(p, "b-work", B);
    const ran = await runCliProcess(["recall"], { cwd: p.root });
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /The work of b-work/);
  });
});

Deno.test("Gemini arms per session: another window's message leaves the arm", async () => {
  await using p = await scratchProject();
  await dump(p, "gem", A);
  const gemini = parseHookArgs(["--agent", "gemini"]);
  const payload = (session: string, event: string) => ({
    session_id: session,
    cwd: p.root,
    hook_event_name: event,
    ...(event === "SessionStart" ? { source: "clear" } : {}),
  });
  const armed = await answer(payload("g1", "SessionStart"), gemini, {}, NOW);
  assert.match(armed.stdout ?? "", /will be restored with your next message/, armed.reason);
  const other = await answer(payload("g2", "BeforeAgent"), gemini, {}, NOW);
  assert.equal(other.stdout, undefined, other.reason);
  const own = await answer(payload("g1", "BeforeAgent"), gemini, {}, NOW);
  assert.match(own.stdout ?? "", /left this handover: \\"gem\\"/, own.reason);
  const again = await answer(payload("g1", "BeforeAgent"), gemini, {}, NOW);
  assert.equal(again.stdout, undefined, "once");
});
