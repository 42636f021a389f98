import assert from "node:assert/strict";
import type { Sweep } from "../../lib/handover/sweep.ts";
import { scratchDir, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";
import { placeTranscript, transcriptOf } from "../support/transcript.ts";

Deno.test("sweep lists the transcript's tasks, questions and deferrals with their line", async (t) => {
  await using p = await scratchProject({ git: "repo", store: false });
  await using homeDir = await scratchDir("session-home-");
  const home = homeDir.path;
  const root = p.root;
  await placeTranscript(
    home,
    root,
    "s1",
    transcriptOf(root, [
      { prompt: "Start. We can revisit the naming later." },
      { tool: "TaskCreate", input: { subject: "Port the parser" }, result: "Task #1 created" },
      { tool: "TaskCreate", input: { subject: "Done already" }, result: "Task #2 created" },
      { tool: "TaskUpdate", input: { taskId: "2", status: "completed" }, result: "ok" },
      { tool: "AskUserQuestion", input: { questions: [{ question: "Tabs or spaces?" }] } },
    ]),
  );
  const env = { HOME: home, CLAUDE_CODE_SESSION_ID: "s1" };
  await t.step("--json: candidates in kind order, each with its transcript line", async () => {
    const r = await runCliInProcess(["sweep", "--json"], { cwd: root, env });
    assert.equal(r.code, 0, r.err);
    const sweep: Sweep = JSON.parse(r.out);
    assert.deepEqual(
      sweep.candidates.map((c) => [c.n, c.kind, c.what, c.where]),
      [
        [1, "task", "Port the parser (pending)", "transcript:L2"],
        [2, "question", "Tabs or spaces?", "transcript:L8"],
        [3, "deferral", "We can revisit the naming later.", "transcript:L1"],
      ],
    );
    assert.match(sweep.transcript!, /s1\.jsonl$/);
  });
  await t.step("the table file and the text output name them", async () => {
    const r = await runCliInProcess(["sweep"], { cwd: root, env });
    assert.match(r.out, /\| 1 \| task \| Port the parser \(pending\) \| transcript:L2 \|/);
    assert.match(r.out, /Transcript: .*s1\.jsonl/);
    const file = await Deno.readTextFile(`${root}/.temp/session/unlanded.md`);
    assert.match(file, /\| 2 \| question \| Tabs or spaces\? \| transcript:L8 \|/);
  });
  await t.step("no transcript: says so, the rest still works", async () => {
    const r = await runCliInProcess(["sweep", "--json"], {
      cwd: root,
      env: { HOME: `${home}/x` },
    });
    const sweep: Sweep = JSON.parse(r.out);
    assert.equal(sweep.transcript, undefined);
    assert.match(sweep.transcriptNote!, /no Claude Code transcripts/);
    assert.ok(!sweep.candidates.some((c) => c.kind === "task"));
  });
});
