import assert from "node:assert/strict";
import { parseStashes } from "../../lib/handover/evidence/git.ts";
import { parseParked } from "../../lib/parked/scanner.ts";
import { join } from "../../lib/fs/path.ts";
import {
  type Candidate,
  fromGit,
  fromParked,
  fromTranscript,
  numbered,
  renderUnlanded,
  type Sweep,
} from "../../lib/handover/sweep.ts";
import type { TranscriptFacts } from "../../lib/transcript/facts.ts";
import { git, put, scratchDir, scratchProject } from "../support/scratch.ts";
import { runCliProcess } from "../support/run.ts";

const PARKED = ".claude/state/session/PARKED.md";
const UNLANDED = ".temp/session/unlanded.md";

Deno.test("sweep: pure parts", async (t) => {
  await t.step("candidates from parked items carry slug and line", () => {
    const items = parseParked("# P\n\n- **a** — do a. Next: start.\n").items;
    assert.deepEqual(fromParked(items), [
      { kind: "parked", what: "a — do a (next: start)", where: "PARKED.md:3", ref: "a" },
    ]);
  });
  await t.step("candidates from git: own state skipped, no-upstream only with remotes", () => {
    const base = {
      changes: [
        { path: "lib/a.ts", added: 2, deleted: 1, binary: false },
        { path: "img.png", added: 0, deleted: 0, binary: true },
      ],
      untracked: ["new.ts", ".claude/state/session/x.md"],
      stashes: [{ ref: "stash@{0}", subject: "WIP on main: abc wip" }],
      unpushed: {
        upstream: "origin/main",
        remotes: true,
        commits: [{ hash: "abc1234", subject: "s" }],
      },
      branch: "main",
    };
    const own = (p: string) => p.startsWith(".claude/state/");
    assert.deepEqual(fromGit(base, own).map((c) => [c.kind, c.what]), [
      ["uncommitted", "lib/a.ts (+2/-1)"],
      ["uncommitted", "img.png (binary)"],
      ["untracked", "new.ts"],
      ["stash", "stash@{0}: WIP on main: abc wip"],
      ["unpushed", "abc1234 s"],
    ]);
    const noUp = { ...base, unpushed: { remotes: true, commits: [] } };
    assert.equal(fromGit(noUp).at(-1)?.kind, "no-upstream");
    const noRemote = { ...base, unpushed: { remotes: false, commits: [] } };
    assert.equal(fromGit(noRemote).some((c) => c.kind === "no-upstream"), false);
  });
  await t.step("transcript candidates plug in: unfinished tasks, questions, deferrals", () => {
    const facts: TranscriptFacts = {
      path: "/t.jsonl",
      files: [],
      tasks: [
        { id: "1", subject: "write tests", status: "in_progress", line: 10 },
        { id: "2", subject: "done thing", status: "completed", line: 11 },
      ],
      questions: [{ text: "Which DB?", line: 20 }],
      deferrals: [{ text: "later: docs", line: 30 }],
    };
    const c = fromTranscript(facts);
    assert.deepEqual(c.map((x) => [x.kind, x.where, x.line]), [
      ["task", "transcript:L10", 10],
      ["question", "transcript:L20", 20],
      ["deferral", "transcript:L30", 30],
    ]);
  });
  await t.step("a question asked again and again is one candidate, at its latest line", () => {
    const facts: TranscriptFacts = {
      path: "/t.jsonl",
      files: [],
      tasks: [],
      questions: [20, 40, 60].map((line) => ({ text: "Which DB?", line })),
      deferrals: [{ text: "later: docs", line: 30 }, { text: "later:  docs", line: 50 }],
    };
    assert.deepEqual(fromTranscript(facts).map((x) => [x.kind, x.where]), [
      ["question", "transcript:L60"],
      ["deferral", "transcript:L50"],
    ]);
  });
  await t.step("table: numbered in kind order, cells escaped and one line", () => {
    const cands: Candidate[] = [
      { kind: "untracked", what: "a|b.ts", where: "git" },
      { kind: "question", what: "multi\nline?", where: "transcript:L2", line: 2 },
      { kind: "parked", what: "p", where: "PARKED.md:3" },
    ];
    const sweep: Sweep = {
      root: "/r",
      created: "2026-11-30T12:00:00Z",
      git: true,
      file: "/r/.temp/session/unlanded.md",
      candidates: numbered(cands),
    };
    const text = renderUnlanded(sweep);
    assert.match(text, /^# Unlanded\n/);
    assert.match(text, /\| 1 \| parked \| p \| PARKED.md:3 \|\n/);
    assert.match(text, /\| 2 \| question \| multi line\? \| transcript:L2 \|\n/);
    assert.match(text, /\| 3 \| untracked \| a\\\|b.ts \| git \|\n/);
    const empty = renderUnlanded({ ...sweep, candidates: [] });
    assert.match(empty, /Nothing unlanded\./);
  });
  await t.step("stash list parsing tolerates junk", () => {
    assert.deepEqual(parseStashes("stash@{0}\x1fWIP on x\n\njunk\n"), [
      { ref: "stash@{0}", subject: "WIP on x" },
    ]);
  });
});

Deno.test("sweep: process-level in a real repository", async (t) => {
  await using remote = await scratchProject({ git: false, store: false });
  await using repo = await scratchProject({ git: "repo", store: false });
  const root = repo.root;
  await git(remote.root, ["init", "-q", "--bare", "-b", "main"]);
  await put(root, "a.txt", "one\n");
  await put(root, "b.txt", "one\n");
  await git(root, ["add", "."]);
  await git(root, ["commit", "-q", "-m", "first"]);
  await git(root, ["remote", "add", "origin", remote.root]);
  await git(root, ["push", "-q", "-u", "origin", "main"]);
  await put(root, "b.txt", "two\n");
  await git(root, ["commit", "-q", "-am", "second, not pushed"]);
  await put(root, "a.txt", "stashed\n");
  await git(root, ["stash", "push", "-q", "-m", "try idea"]);
  await put(root, "a.txt", "changed\n");
  await put(root, "notes/new.md", "x\n");
  await put(root, PARKED, "# Parked items\n\n- **p1** — Parked one. Raised: 2026-11-01.\n");

  await t.step("--json from a subdirectory: every kind, numbered, written", async () => {
    const r = await runCliProcess(["sweep", "--json"], { cwd: join(root, "notes") });
    assert.equal(r.code, 0, r.stderr);
    const sweep = JSON.parse(r.stdout);
    assert.equal(sweep.root, root);
    assert.equal(sweep.git, true);
    assert.equal(sweep.created, "2026-11-30T12:00:00Z");
    assert.equal(sweep.file, join(root, UNLANDED));
    assert.deepEqual(
      sweep.candidates.map((c: Candidate & { n: number }) => [c.n, c.kind, c.ref]),
      [
        [1, "parked", "p1"],
        [2, "uncommitted", "a.txt"],
        [3, "untracked", "notes/new.md"],
        [4, "stash", "stash@{0}"],
        [5, "unpushed", sweep.candidates[4].ref],
      ],
    );
    assert.match(sweep.candidates[3].what, /try idea/);
    assert.match(sweep.candidates[4].what, /second, not pushed/);
    const table = await Deno.readTextFile(join(root, UNLANDED));
    assert.match(table, /\| 5 \| unpushed \|/);
  });
  await t.step("plain output prints the table and where it went", async () => {
    const r = await runCliProcess(["sweep"], { cwd: root });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# Unlanded\n/);
    assert.match(r.stdout, /\| 1 \| parked \| p1 — Parked one \| PARKED.md:3 \|/);
    assert.match(r.stdout, /Written to .*unlanded\.md/);
  });
  await t.step(
    "--transcript: unfinished tasks, questions, deferrals with their line",
    async () => {
      const transcript = new URL(
        "../fixtures/transcripts/real/interactive.jsonl",
        import.meta.url,
      );
      const r = await runCliProcess(["sweep", "--json", "--transcript", transcript.pathname], {
        cwd: root,
      });
      assert.equal(r.code, 0, r.stderr);
      const sweep = JSON.parse(r.stdout);
      assert.equal(sweep.transcript, transcript.pathname);
      const kinds = sweep.candidates.map((c: Candidate) => c.kind);
      assert.deepEqual(kinds.slice(0, 4), ["parked", "task", "task", "question"]);
      const task = sweep.candidates[1];
      assert.equal(task.what, "Add greet test (in_progress)");
      assert.equal(task.where, "transcript:L10");
      assert.equal(task.line, 10);
      assert.ok(kinds.includes("deferral"));
      assert.ok(kinds.indexOf("deferral") < kinds.indexOf("uncommitted"), "the session's first");
      const plain = await runCliProcess(["sweep", "--transcript", "/nonexistent.jsonl"], {
        cwd: root,
      });
      assert.equal(plain.code, 0);
      assert.match(
        plain.stdout,
        /No transcript read \(no transcript file at \/nonexistent.jsonl\)/,
      );
    },
  );
  await t.step("refusals: unknown flag, stray word; --help", async () => {
    const bad = await runCliProcess(["sweep", "--nope"], { cwd: root });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown flag "--nope".*--json/);
    const stray = await runCliProcess(["sweep", "extra"], { cwd: root });
    assert.equal(stray.code, 2);
    const help = await runCliProcess(["sweep", "--help"], { cwd: root });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /unlanded\.md/);
  });
});

Deno.test("sweep: outside git, and nothing unlanded", async (t) => {
  await using plain = await scratchProject({ git: false, store: false });
  await using clean = await scratchProject({ git: "repo", store: false });
  await t.step("outside git: parked items only, said so", async () => {
    await put(plain.root, PARKED, "- **only** — the parked one\n");
    const r = await runCliProcess(["sweep"], { cwd: plain.root });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\(not a git repository\)/);
    assert.match(r.stdout, /\| 1 \| parked \| only — the parked one \|/);
    assert.doesNotMatch(r.stdout, /\| 2 \|/);
  });
  await t.step(
    "nothing unlanded: exit 1, the file still written, JSON still parses",
    async () => {
      await put(clean.root, "x.txt", "x\n");
      await git(clean.root, ["add", "."]);
      await git(clean.root, ["commit", "-q", "-m", "x"]);
      const r = await runCliProcess(["sweep", "--json"], { cwd: clean.root });
      assert.equal(r.code, 1, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout).candidates, []);
      assert.match(await Deno.readTextFile(join(clean.root, UNLANDED)), /Nothing unlanded/);
      const again = await runCliProcess(["sweep"], { cwd: clean.root });
      assert.equal(again.code, 1);
      assert.match(again.stdout, /Nothing unlanded\./);
    },
  );
});

Deno.test("sweep never writes through a .temp (or .temp/session) symlinked out of the project", async () => {
  for (const link of [".temp", ".temp/session"]) {
    await using p = await scratchProject({ git: "repo", store: false });
    await using outsideDir = await scratchDir("session-outside-");
    const outside = outsideDir.path;
    await put(p.root, "a.ts", "a\n");
    if (link === ".temp/session") await Deno.mkdir(join(p.root, ".temp"));
    await Deno.symlink(outside, join(p.root, link));
    const r = await runCliProcess(["sweep"], { cwd: p.root });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /leads outside the project.*was not written\. Replace the symlink/);
    assert.doesNotMatch(r.stderr, /^\s+at /m);
    assert.match(r.stdout, /^# Unlanded/);
    // `--json` still prints what it was asked for: the sweep as one JSON object.
    const json = await runCliProcess(["sweep", "--json"], { cwd: p.root });
    assert.equal(json.code, 1, json.stderr);
    assert.ok(
      JSON.parse(json.stdout).candidates.some((c: { what: string }) => c.what === "a.ts"),
      json.stdout,
    );
    const left: string[] = [];
    for await (const e of Deno.readDir(outside)) left.push(e.name);
    assert.deepEqual(left, [], `${link}: nothing written outside`);
  }
});
