import assert from "node:assert/strict";
import { sweepPoints, traceable } from "../../lib/cli/sweep.ts";
import type { Candidate, Sweep } from "../../lib/handover/sweep.ts";
import { sweptAt } from "../../lib/handover/unlanded.ts";
import { join } from "../../lib/fs/path.ts";
import { git, put, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";

const task: Candidate = {
  kind: "task",
  what: "Add the burst test (in_progress)",
  where: "transcript:L10",
  ref: "2",
  line: 10,
  status: "in_progress",
};
const parked: Candidate = {
  kind: "parked",
  what: "flaky — Flaky CI",
  where: "PARKED.md:3",
  ref: "flaky",
};
const untracked: Candidate = {
  kind: "untracked",
  what: "a.ts",
  where: "git ls-files --others",
  ref: "a.ts",
};

function sweepOf(candidates: Candidate[], transcript?: string): Sweep {
  return {
    root: "/p",
    created: "2026-11-30T12:00:00Z",
    git: true,
    ...(transcript ? { transcript } : { transcriptNote: "no transcript of this project" }),
    file: "/p/.temp/session/unlanded.md",
    candidates: candidates.map((c, i) => ({ n: i + 1, ...c })),
  };
}

const scores = (s: Sweep) => sweepPoints(s).map((p) => `${p.ok ? "✓" : "⚠"} ${p.name}`);

Deno.test("sweep's points flip between ✓ and ⚠ with the facts", async (t) => {
  await t.step("traced rows, transcript read, only open work: ✓ each", () => {
    const s = sweepOf([parked, task, untracked], "/t.jsonl");
    assert.deepEqual(scores(s), ["✓ rows", "✓ tasks", "✓ landed"]);
    assert.equal(
      sweepPoints(s)[0].fact,
      "3 rows, each traced: 1 to a transcript line, 1 to PARKED.md, 1 to git",
    );
    assert.equal(sweepPoints(s)[1].fact, "transcript read: 1 unfinished task");
  });
  await t.step("rows: a transcript row without its line is ⚠", () => {
    const loose = { ...task, line: undefined, where: "transcript" };
    assert.equal(traceable(loose), false);
    assert.equal(traceable({ ...parked, where: "PARKED.md" }), false);
    assert.equal(traceable({ ...untracked, where: "" }), false);
    const p = sweepPoints(sweepOf([parked, loose], "/t.jsonl"))[0];
    assert.deepEqual([p.ok, p.fact], [false, "1 of 2 without the line they came from: #2"]);
  });
  await t.step("tasks: no transcript read is ⚠", () => {
    const p = sweepPoints(sweepOf([parked]))[1];
    assert.deepEqual([p.ok, p.fact], [false, "no transcript read (no transcript of this project)"]);
  });
  await t.step("landed: a finished task listed is ⚠", () => {
    const done = { ...task, status: "completed" };
    const p = sweepPoints(sweepOf([done], "/t.jsonl"))[2];
    assert.deepEqual([p.ok, p.fact], [false, "1 task row(s) not pending or in progress: #1"]);
  });
});

Deno.test("sweep prints its block, and --json carries the same points", async () => {
  await using p = await scratchProject({ git: "repo", store: false });
  await put(p.root, "a.ts", "a\n");
  await git(p.root, ["add", "."]);
  await git(p.root, ["commit", "-qm", "a"]);
  await put(p.root, "b.ts", "b\n");
  const r = await runCliInProcess(["sweep"], { cwd: p.root });
  assert.equal(r.code, 0, r.err);
  const block = r.out.split("\n\n## Confidence\n")[1];
  assert.equal(
    block,
    "✓ rows: 1 row, each traced: 0 to a transcript line, 0 to PARKED.md, 1 to git\n" +
      `⚠ tasks: no transcript read (${
        /No transcript read \((.*)\)\./.exec(r.out)![1]
      }) → give --transcript PATH or --session ID\n` +
      "✓ landed: no finished task listed; git rows are what git holds unlanded now",
  );
  const file = await Deno.readTextFile(join(p.root, ".temp/session/unlanded.md"));
  assert.doesNotMatch(file, /Confidence/, "the file is the table alone");
  assert.equal(sweptAt(file), "2026-11-30T12:00:00Z", "dump reads the stamp back");
  assert.equal(sweptAt("# Unlanded\n\nSwept yesterday in /p.\n"), undefined);
  const json = JSON.parse((await runCliInProcess(["sweep", "--json"], { cwd: p.root })).out);
  assert.deepEqual(
    json.confidence.map((c: { name: string; ok: boolean }) => [c.name, c.ok]),
    [["rows", true], ["tasks", false], ["landed", true]],
  );
});
