/**
 * Compaction in-process (lib/continuity/pre_compact.ts, compact.ts, material.ts): PreCompact saves
 * the card's material, SessionStart compact claims it once or gathers it afresh, and LATEST is
 * restored on compaction only with `--source compact`.
 */
import assert from "node:assert/strict";
import { answerPreCompact } from "../../lib/continuity/pre_compact.ts";
import { answerCompact } from "../../lib/continuity/compact.ts";
import { startingHandover } from "../../lib/continuity/material.ts";
import { DEFAULT_OPTIONS, parseHookArgs } from "../../lib/hook/input.ts";
import { readLatest } from "../../lib/store/latest.ts";
import { join } from "../../lib/fs/path.ts";
import { NOW, put, scratchProject, writeDoc } from "../support/scratch.ts";
import { transcriptOf } from "../support/transcript.ts";
import { answerInProcess } from "../support/run.ts";

const SID = "sess-1";
const HANDOVER = [
  "## Goal\n\nShip the login fix.",
  "## Decisions\n\n- Keep JWT — why: the mobile app uses it",
  "## Standing instructions\n\n- Never push to main",
  "## Files touched\n\n| File | Change | State | Ref |\n|---|---|---|---|\n| `old.ts` | +1 | wip | |",
  "## Next step\n\nRun the migration.",
].join("\n\n") + "\n";

async function project() {
  const p = await scratchProject();
  const transcript = join(p.root, "t.jsonl");
  await Deno.writeTextFile(
    transcript,
    transcriptOf(p.root, [
      { prompt: "Fix the login." },
      {
        tool: "Write",
        input: { file_path: join(p.root, "src/login.ts"), content: "x" },
        result: "ok",
      },
      {
        tool: "TodoWrite",
        input: { todos: [{ id: "1", content: "Add the refresh test", status: "in_progress" }] },
        result: "ok",
      },
    ], SID),
  );
  await put(
    p.root,
    ".claude/state/session/PARKED.md",
    "# Parked items\n\n- **flaky-ci** — CI is flaky. Raised: 2026-11-29. Why: x. Next: y.\n",
  );
  return { p, transcript };
}

const start = (cwd: string, transcript: string) => ({
  cwd,
  session_id: SID,
  transcript_path: transcript,
  hook_event_name: "SessionStart",
  source: "compact",
});

Deno.test("compaction: the card after a restore, once per compaction", async (t) => {
  const { p, transcript } = await project();
  await using _ = p;
  await t.step("the restore records the handover this session started from", async () => {
    await writeDoc(p.store, "fix-login", {
      body: HANDOVER,
      created: new Date(NOW.getTime() - 60_000),
    });
    const r = await answerInProcess(
      { cwd: p.root, session_id: SID, hook_event_name: "SessionStart", source: "clear" },
    );
    assert.ok("stdout" in r && r.stdout, JSON.stringify(r));
    assert.equal(startingHandover(p.store, SID), "fix-login");
  });
  const compactFile = join(p.store.dir, `.compact-${SID}.md`);
  await t.step("PreCompact saves the material and prints nothing", async () => {
    const r = await answerPreCompact(
      {
        cwd: p.root,
        session_id: SID,
        transcript_path: transcript,
        hook_event_name: "PreCompact",
        trigger: "auto",
      },
      DEFAULT_OPTIONS,
      {},
      NOW,
    );
    assert.equal(r.stdout, undefined);
    assert.match(r.reason, /saved the card's material/);
    const saved = await Deno.readTextFile(compactFile);
    assert.match(saved, /^---\nslug: fix-login\n/);
  });
  await t.step("SessionStart compact claims it and injects the card", async () => {
    // The transcript is gone: the card can only come from what PreCompact saved.
    await Deno.rename(transcript, transcript + ".moved");
    const r = await answerCompact(start(p.root, transcript), DEFAULT_OPTIONS, {}, NOW);
    assert.ok(r.stdout, r.reason);
    const ctx = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(ctx, /^\[session\] The context was just compacted\./);
    assert.match(ctx, /handover "fix-login"/);
    assert.match(ctx, /## Goal\n\nShip the login fix\./);
    assert.match(ctx, /## Standing instructions\n\n- Never push to main/);
    assert.match(ctx, /## Decisions\n\n- Keep JWT/);
    assert.match(ctx, /## Next step\n\nRun the migration\./);
    assert.match(ctx, /## Unfinished tasks\n\n- Add the refresh test \(in_progress\)/);
    assert.match(ctx, /## Open parked items\n\n- flaky-ci — CI is flaky/);
    assert.match(ctx, /## Files touched in this session\n\n- src\/login\.ts/);
    // Where it stood, from the transcript: the call after the request, and the next step from it.
    assert.match(
      ctx,
      /## Where it stood \(from the transcript\)\n\n- Last request \(line 1\): “Fix the login\.”\n- State: in progress — it stopped mid-work: “Write .*src\/login\.ts” \(line 2\)\n- Next: Carry on with the task: “Fix the login\.”/,
    );
    assert.doesNotMatch(ctx, /old\.ts/, "the handover's files table is not on the card");
    assert.ok(ctx.length <= 4_000);
    await assert.rejects(Deno.stat(compactFile), "claimed once: the file is gone");
    await Deno.rename(transcript + ".moved", transcript);
  });
  await t.step("without PreCompact the card is gathered afresh from the transcript", async () => {
    const r = await answerCompact(start(p.root, transcript), DEFAULT_OPTIONS, {}, NOW);
    const ctx = JSON.parse(r.stdout!).hookSpecificOutput.additionalContext as string;
    assert.match(ctx, /Add the refresh test/);
    assert.match(ctx, /Run the migration\./);
  });
  await t.step("a document this session dumped wins over the restored one", async () => {
    await Deno.writeTextFile(
      join(p.store.dir, "later.md"),
      `---\nslug: later\ncreated: 2026-11-30T11:59:30Z\nconsumed: false\nbranch: main\nsession: ${SID}\n---\n\n## Next step\n\nDeploy.\n`,
    );
    assert.equal(startingHandover(p.store, SID), "later");
    const r = await answerCompact(start(p.root, transcript), DEFAULT_OPTIONS, {}, NOW);
    assert.match(r.stdout!, /## Next step\\n\\nDeploy\./);
  });
});

Deno.test("compaction and LATEST: restored only with --source compact", async (t) => {
  await t.step("default sources: the card, LATEST left pending", async () => {
    const { p, transcript } = await project();
    await using _ = p;
    await writeDoc(p.store, "pending", { body: HANDOVER });
    const r = await answerCompact(start(p.root, transcript), DEFAULT_OPTIONS, {}, NOW);
    assert.match(r.reason, /injected the card/);
    assert.doesNotMatch(r.stdout!, /left this handover/);
    assert.equal(readLatest(p.store), "pending");
  });
  await t.step("--source compact: the handover, then the card", async () => {
    const { p, transcript } = await project();
    await using _ = p;
    await writeDoc(p.store, "pending", { body: HANDOVER });
    const r = await answerCompact(
      start(p.root, transcript),
      parseHookArgs(["--source", "compact"]),
      {},
      NOW,
    );
    assert.equal(r.reason, "injected the handover and the card");
    const ctx = JSON.parse(r.stdout!).hookSpecificOutput.additionalContext as string;
    assert.ok(ctx.indexOf("left this handover") < ctx.indexOf("just compacted"));
    assert.ok(ctx.length <= 9_500);
    assert.equal(readLatest(p.store), undefined);
  });
  await t.step("handover and card over the budget together: the handover is kept", async () => {
    const { p, transcript } = await project();
    await using _ = p;
    // Fits alone (whole, under Codex's byte cap); with the card it would not.
    const filler = "- 移行についての長年のメモ、そのまま。\n".repeat(155);
    await writeDoc(p.store, "pending", { body: HANDOVER + "\n## Notes\n\n" + filler });
    const options = parseHookArgs(["--source", "compact", "--agent", "codex"]);
    const r = await answerCompact(start(p.root, transcript), options, {}, NOW);
    assert.equal(r.reason, "injected the handover");
    const ctx = JSON.parse(r.stdout!).hookSpecificOutput.additionalContext as string;
    assert.match(ctx, /left this handover/);
    assert.ok(ctx.includes(filler.trim()), "whole, not digested");
    assert.doesNotMatch(ctx, /just compacted/, "the card is what gives way");
    assert.ok(new TextEncoder().encode(ctx).length <= options.budget.maxBytes!);
    assert.equal(readLatest(p.store), undefined, "consumed: it was shown");
  });
  await t.step("no store, nothing to say, another event: silent", async () => {
    await using p = await scratchProject({ store: false });
    const r = await answerCompact(start(p.root, "/nonexistent"), DEFAULT_OPTIONS, {}, NOW);
    assert.deepEqual(r, { reason: "no store in this project" });
    await using q = await scratchProject();
    const e = await answerCompact(start(q.root, "/nonexistent"), DEFAULT_OPTIONS, {}, NOW);
    assert.deepEqual(e, { reason: 'source "compact" is not enabled' }, "LATEST's reason");
    const pre = await answerPreCompact(start(q.root, "/x"), DEFAULT_OPTIONS, {}, NOW);
    assert.deepEqual(pre, { reason: "not a PreCompact event" });
  });
});
