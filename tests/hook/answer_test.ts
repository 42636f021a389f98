/**
 * The hook contract for Codex CLI and Gemini CLI: their payloads (as captured from the real
 * clients, Codex 0.171.0 and Gemini CLI 0.61.0) in, exactly one JSON object out, the agent's budget
 * respected; and Gemini's deferred restore (arm on SessionStart/clear, deliver on BeforeAgent).
 */
import assert from "node:assert/strict";
import { takeArm } from "../../lib/hook/answer.ts";
import { buildContext } from "../../lib/hook/context.ts";
import { BUDGETS } from "../../lib/frame/budget.ts";
import { utf8Length } from "../../lib/text/bytes.ts";
import { armPath, docPath } from "../../lib/store/store.ts";
import { readLatest } from "../../lib/store/latest.ts";
import { NOW, type ScratchProject, scratchProject, writeDoc } from "../support/scratch.ts";
import { clearPayload, type Ran, runHookProcess } from "../support/run.ts";

const minutes = (n: number) => new Date(NOW.getTime() - n * 60_000);

/** Codex 0.171.0's SessionStart payload after `/clear` (captured; paths replaced). */
function codexPayload(cwd: string, source = "clear"): string {
  return JSON.stringify({
    session_id: "01a22abc-8842-7da3-861b-290a0d9e0557",
    transcript_path:
      "/home/u/.codex/sessions/2026/11/30/rollout-2026-11-30T04-35-28-01a22abc-8842-7da3-861b-290a0d9e0557.jsonl",
    cwd,
    hook_event_name: "SessionStart",
    model: "gpt-e2e",
    permission_mode: "default",
    source,
  });
}

const GEMINI_SESSION = "6cd85323-aae6-4760-a357-1f0b735094a2";

/** Gemini CLI 0.61.0's SessionStart payload after `/clear` (captured; paths replaced). */
function geminiStart(cwd: string, source = "clear", session = GEMINI_SESSION): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: `/home/u/.gemini/tmp/proj/chats/session-2026-11-30T04-37-${session}.jsonl`,
    cwd,
    hook_event_name: "SessionStart",
    timestamp: "2026-11-30T04:37:37.908Z",
    source,
  });
}

/** Gemini CLI 0.61.0's BeforeAgent payload: the user's message, before the model is called. */
function geminiBeforeAgent(cwd: string, session = GEMINI_SESSION): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: `/home/u/.gemini/tmp/proj/chats/session-2026-11-30T04-37-${session}.jsonl`,
    cwd,
    hook_event_name: "BeforeAgent",
    timestamp: "2026-11-30T04:38:01.000Z",
    prompt: "carry on",
  });
}

/** The one JSON object on stdout (asserting there is exactly one line of it). */
function onlyJson(ran: Ran): Record<string, unknown> {
  assert.equal(ran.code, 0);
  assert.equal(ran.stdout.trimEnd().split("\n").length, 1, `one line of JSON: ${ran.stdout}`);
  return JSON.parse(ran.stdout);
}

function contextIn(json: Record<string, unknown>, event: string): string {
  const out = json.hookSpecificOutput as Record<string, string>;
  assert.equal(out.hookEventName, event);
  return out.additionalContext;
}

async function withProject(fn: (p: ScratchProject) => Promise<void>) {
  await using p = await scratchProject();
  await fn(p);
}

/** A body of `n` lines of multi-byte text (3 UTF-8 bytes per `—`), with the digest's sections. */
function wideBody(n: number): string {
  const rows = Array.from(
    { length: n },
    (_, i) => `| src/f${i}.ts — ✓✓✓✓✓✓✓✓ — ünïcödé | edit | done | |`,
  );
  return `## Goal\n\nGoal — ✓ ü.\n\n## Files touched\n\n| File | Change | State | Ref |\n|---|---|---|---|\n${
    rows.join("\n")
  }\n\n## Next step\n\nNext — ✓.\n`;
}

Deno.test("codex: hook contract", async (t) => {
  await t.step(
    "the clear payload in → one SessionStart JSON out, document consumed",
    () =>
      withProject(async (p) => {
        await writeDoc(p.store, "codex-one", { created: minutes(3) });
        const json = onlyJson(
          await runHookProcess(codexPayload(p.root), { args: ["--agent", "codex"] }),
        );
        assert.deepEqual(Object.keys(json), ["hookSpecificOutput"]);
        const ctx = contextIn(json, "SessionStart");
        assert.match(ctx, /^\[session\] The previous session left this handover: "codex-one"/);
        assert.ok(ctx.includes("Ship the restore hook."));
        assert.equal(readLatest(p.store), undefined);
        assert.match(await Deno.readTextFile(docPath(p.store, "codex-one")), /consumed: true/);
      }),
  );
  await t.step("startup and resume stay silent unless opted in", () =>
    withProject(async (p) => {
      await writeDoc(p.store, "codex-two", { created: minutes(3) });
      for (const source of ["startup", "resume"]) {
        const ran = await runHookProcess(codexPayload(p.root, source), {
          args: ["--agent", "codex"],
        });
        assert.equal(ran.stdout, "", source);
      }
      const ran = await runHookProcess(codexPayload(p.root, "resume"), {
        args: ["--agent", "codex", "--source", "resume"],
      });
      assert.ok(contextIn(onlyJson(ran), "SessionStart").includes("codex-two"));
    }));
  await t.step(
    "a large multi-byte body stays under Codex's 2,500-token spill line",
    () =>
      withProject(async (p) => {
        await writeDoc(p.store, "wide", { created: minutes(3), body: wideBody(400) });
        const ran = await runHookProcess(codexPayload(p.root), { args: ["--agent", "codex"] });
        const ctx = contextIn(onlyJson(ran), "SessionStart");
        // Codex counts ceil(UTF-8 bytes / 4) tokens and spills over 2,500.
        assert.ok(Math.ceil(utf8Length(ctx) / 4) <= 2_500, `${utf8Length(ctx)} bytes`);
        assert.ok(utf8Length(ctx) <= BUDGETS.codex.maxBytes!);
        assert.ok(ctx.includes("## Goal") && ctx.includes("## Next step"), "the digest keeps both");
        assert.ok(ctx.includes("recall wide"), "and says how to get the rest");
      }),
  );
});

Deno.test("codex budget: bytes, not characters", async (t) => {
  await t.step("an ASCII body under the digest line passes whole and under the byte cap", () => {
    const body = "## Goal\n\n" + "x".repeat(7_000);
    const ctx = buildContext({ slug: "s", body }, NOW, BUDGETS.codex);
    assert.ok(ctx.includes("x".repeat(7_000)));
    assert.ok(utf8Length(ctx) <= 9_800);
  });
  await t.step("the same characters in 3-byte text are digested to fit the byte cap", () => {
    for (const n of [50, 145, 400, 2_000]) {
      const ctx = buildContext({ slug: "s", body: wideBody(n) }, NOW, BUDGETS.codex);
      assert.ok(utf8Length(ctx) <= 9_800, `${n} rows: ${utf8Length(ctx)} bytes`);
      assert.ok(ctx.includes("Goal — ✓ ü."), `${n} rows keep the goal`);
    }
  });
  await t.step(
    "the cap is 9,800 bytes, 200 under the spill line: up to it whole, past it digested",
    () => {
      const doc = { slug: "s", created: "2026-11-30T11:58:00Z", branch: "main" };
      // 2-byte text keeps the body under the digest line while the bytes reach the cap.
      const base = "## Goal\n\n" + "é".repeat(1_800) + "\n\n## Next step\n\nRun it: ";
      const whole = (body: string) => buildContext({ ...doc, body }, NOW, BUDGETS.claude);
      const pad = 9_790 - utf8Length(whole(base + "x")) + 1;
      for (let bytes = 9_790; bytes <= 9_810; bytes++) {
        const body = base + "x".repeat(pad + bytes - 9_790);
        assert.equal(utf8Length(whole(body)), bytes, "precondition: the whole context's size");
        const ctx = buildContext({ ...doc, body }, NOW, BUDGETS.codex);
        if (bytes <= 9_800) assert.equal(ctx, whole(body), `${bytes} bytes: whole`);
        else {
          const sent = utf8Length(ctx);
          assert.ok(sent <= 9_800, `a ${bytes}-byte context reached Codex as ${sent} bytes`);
        }
      }
    },
  );
  await t.step("Claude Code's budget is unchanged by the byte cap (characters only)", () => {
    const body = wideBody(145);
    assert.ok(body.length < BUDGETS.claude.digestOver && utf8Length(body) > 9_800, "precondition");
    const ctx = buildContext({ slug: "s", body }, NOW, BUDGETS.claude);
    assert.ok(ctx.length <= 9_500 && ctx.includes(body.trim()), "passed whole");
    assert.ok(utf8Length(ctx) > 9_800, "a Claude context may exceed Codex's byte line");
  });
});

Deno.test("gemini: deferred restore", async (t) => {
  await t.step(
    "SessionStart/clear arms and says so; stdout is only that JSON",
    () =>
      withProject(async (p) => {
        await writeDoc(p.store, "gem", { created: minutes(2) });
        const json = onlyJson(
          await runHookProcess(geminiStart(p.root), { args: ["--agent", "gemini"] }),
        );
        assert.deepEqual(Object.keys(json), ["systemMessage"]);
        assert.match(String(json.systemMessage), /"gem" will be restored with your next message/);
        assert.equal(readLatest(p.store), "gem", "nothing is claimed before delivery");
        assert.equal(
          await Deno.readTextFile(armPath(p.store, GEMINI_SESSION)),
          `${GEMINI_SESSION}\ngem\n`,
        );
      }),
  );
  await t.step(
    "the next BeforeAgent of that session injects once, as BeforeAgent",
    () =>
      withProject(async (p) => {
        await writeDoc(p.store, "gem", { created: minutes(2) });
        await runHookProcess(geminiStart(p.root), { args: ["--agent", "gemini"] });
        const ran = await runHookProcess(geminiBeforeAgent(p.root), {
          args: ["--agent", "gemini"],
        });
        const ctx = contextIn(onlyJson(ran), "BeforeAgent");
        assert.match(ctx, /^\[session\] The previous session left this handover: "gem"/);
        assert.equal(readLatest(p.store), undefined);
        assert.match(await Deno.readTextFile(docPath(p.store, "gem")), /consumed: true/);
        const again = await runHookProcess(geminiBeforeAgent(p.root), {
          args: ["--agent", "gemini"],
        });
        assert.equal(again.stdout, "", "the second message carries nothing");
      }),
  );
  await t.step(
    "an arm delivers only the handover it announced, never a later dump for another agent",
    () =>
      withProject(async (p) => {
        await writeDoc(p.store, "gem", { created: minutes(2) });
        await runHookProcess(geminiStart(p.root), { args: ["--agent", "gemini"] });
        // Another agent's /clear restores "gem"; then that agent dumps "next" for itself.
        const other = await runHookProcess(clearPayload(p.root), {
          env: { SESSION_DEBUG: "1" },
        });
        assert.match(other.stdout, /handover: \\"gem\\"/, other.stderr);
        await writeDoc(p.store, "next", { created: minutes(1) });
        const ran = await runHookProcess(geminiBeforeAgent(p.root), {
          args: ["--agent", "gemini"],
          env: { SESSION_DEBUG: "1" },
        });
        assert.equal(ran.stdout, "", "Gemini does not take the other agent's dump");
        assert.match(ran.stderr, /the armed handover "gem" was restored elsewhere/);
        assert.equal(readLatest(p.store), "next", "the later dump stays pending");
        assert.match(await Deno.readTextFile(docPath(p.store, "next")), /consumed: false/);
      }),
  );
  await t.step(
    "BeforeAgent without an arm, or from another session, is silent; the arm waits for its own",
    () =>
      withProject(async (p) => {
        await writeDoc(p.store, "gem", { created: minutes(2) });
        const unarmed = await runHookProcess(geminiBeforeAgent(p.root), {
          args: ["--agent", "gemini"],
        });
        assert.equal(unarmed.stdout, "", "a dump without /clear is not injected into chat");
        await runHookProcess(geminiStart(p.root), { args: ["--agent", "gemini"] });
        const other = await runHookProcess(geminiBeforeAgent(p.root, "other-session"), {
          args: ["--agent", "gemini"],
        });
        assert.equal(other.stdout, "");
        assert.equal(readLatest(p.store), "gem", "the handover kept");
        assert.equal(takeArm(p.store, "other-session"), undefined, "the other session is unarmed");
        const own = await runHookProcess(geminiBeforeAgent(p.root), {
          args: ["--agent", "gemini"],
        });
        assert.match(contextIn(onlyJson(own), "BeforeAgent"), /left this handover: "gem"/);
        assert.equal(takeArm(p.store, GEMINI_SESSION), undefined, "its arm taken, once");
      }),
  );
  await t.step(
    "a stale dump does not arm; startup injects natively only when opted in",
    () =>
      withProject(async (p) => {
        await writeDoc(p.store, "old", { created: minutes(45) });
        const stale = await runHookProcess(geminiStart(p.root), { args: ["--agent", "gemini"] });
        assert.equal(stale.stdout, "");
        await writeDoc(p.store, "fresh", { created: minutes(1) });
        const startup = await runHookProcess(geminiStart(p.root, "startup"), {
          args: ["--agent", "gemini"],
        });
        assert.equal(startup.stdout, "");
        const opted = await runHookProcess(geminiStart(p.root, "startup"), {
          args: ["--agent", "gemini", "--source", "startup"],
        });
        assert.ok(contextIn(onlyJson(opted), "SessionStart").includes("fresh"));
      }),
  );
  await t.step(
    "CLAUDE_PROJECT_DIR (Gemini sets it to its cwd) does not move the store",
    () =>
      withProject(async (p) => {
        await writeDoc(p.store, "gem", { created: minutes(2) });
        const sub = `${p.root}/pkg/sub`;
        await Deno.mkdir(sub, { recursive: true });
        const env = { CLAUDE_PROJECT_DIR: sub };
        await runHookProcess(geminiStart(sub), { args: ["--agent", "gemini"], env });
        const ran = await runHookProcess(geminiBeforeAgent(sub), {
          args: ["--agent", "gemini"],
          env,
        });
        assert.ok(contextIn(onlyJson(ran), "BeforeAgent").includes("gem"));
      }),
  );
  await t.step("two BeforeAgent hooks at once inject exactly once", () =>
    withProject(async (p) => {
      await writeDoc(p.store, "race", { created: minutes(2) });
      await runHookProcess(geminiStart(p.root), { args: ["--agent", "gemini"] });
      const runs = await Promise.all(
        [1, 2, 3].map(() =>
          runHookProcess(geminiBeforeAgent(p.root), { args: ["--agent", "gemini"] })
        ),
      );
      assert.equal(runs.filter((r) => r.stdout !== "").length, 1);
    }));
});
