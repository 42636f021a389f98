import assert from "node:assert/strict";
import {
  type Evidence,
  filesFromGit,
  parseSince,
  recentArtifacts,
  renderEvidence,
  withTranscript,
} from "../../lib/handover/evidence.ts";
import type { GitFacts } from "../../lib/handover/git.ts";
import { join } from "../../lib/fs/path.ts";
import type { TranscriptFacts } from "../../lib/transcript/facts.ts";
import { git, NOW, put, scratchProject } from "../support/scratch.ts";
import { runCliInProcess, runCliProcess } from "../support/run.ts";

const FACTS: GitFacts = {
  top: "/r",
  branch: "main",
  hasHead: true,
  changes: [
    { path: "lib/a.ts", added: 3, deleted: 1, binary: false },
    { path: "img.png", added: 0, deleted: 0, binary: true },
  ],
  untracked: ["lib/new.ts", ".claude/state/session/x.md"],
  commits: [
    {
      hash: "bbb2222",
      date: "2026-11-30T11:00:00Z",
      subject: "two",
      files: [{ path: "lib/b.ts", added: 1, deleted: 0, binary: false }],
    },
    {
      hash: "aaa1111",
      date: "2026-11-30T10:00:00Z",
      subject: "one",
      files: [
        { path: "lib/b.ts", added: 4, deleted: 2, binary: false },
        { path: "lib/a.ts", added: 1, deleted: 0, binary: false },
      ],
    },
  ],
};

Deno.test("evidence: pure parts", async (t) => {
  await t.step("files from git: uncommitted wip, untracked uncommitted-new, committed done", () => {
    assert.deepEqual(filesFromGit(FACTS), [
      { path: "lib/a.ts", change: "+3/-1", state: "wip", ref: "aaa1111", source: "git" },
      { path: "img.png", change: "binary", state: "wip", ref: "uncommitted", source: "git" },
      {
        path: "lib/new.ts",
        change: "uncommitted-new",
        state: "wip",
        ref: "uncommitted",
        source: "git",
      },
      { path: "lib/b.ts", change: "+5/-2", state: "done", ref: "bbb2222", source: "git" },
    ]);
  });
  await t.step("--since: durations, bare hours, ISO dates; junk is undefined", () => {
    assert.equal(parseSince("8h", NOW)?.toISOString(), "2026-11-30T04:00:00.000Z");
    assert.equal(parseSince("90m", NOW)?.toISOString(), "2026-11-30T10:30:00.000Z");
    assert.equal(parseSince("2d", NOW)?.toISOString(), "2026-11-28T12:00:00.000Z");
    assert.equal(parseSince("3", NOW)?.toISOString(), "2026-11-30T09:00:00.000Z");
    assert.equal(
      parseSince("2026-11-30T01:00:00Z", NOW)?.toISOString(),
      "2026-11-30T01:00:00.000Z",
    );
    assert.equal(parseSince("yesterday", NOW), undefined);
    assert.equal(parseSince("2026-13-45", NOW), undefined);
  });
  await t.step(
    "transcript facts merge: new files as edited/wip, unfinished tasks outstanding",
    () => {
      const ev = {
        files: filesFromGit(FACTS),
        outstanding: [{ slug: "p", text: "**p** — parked.", source: "parked" }],
      } as Evidence;
      const facts: TranscriptFacts = {
        path: "/t.jsonl",
        files: [
          { path: "lib/a.ts", outside: false, tools: ["Edit"], line: 4 },
          { path: "docs/x.md", outside: false, tools: ["Write"], line: 9 },
        ],
        tasks: [
          { id: "1", subject: "Write the parser", status: "completed", line: 2 },
          { id: "2", subject: "Add CRLF tests for the reader", status: "in_progress", line: 3 },
        ],
        questions: [],
        deferrals: [],
      };
      const merged = withTranscript(ev, facts);
      assert.equal(merged.files.length, ev.files.length + 1);
      assert.deepEqual(merged.files.at(-1), {
        path: "docs/x.md",
        change: "edited",
        state: "wip",
        ref: "transcript:L9",
        source: "transcript",
      });
      assert.equal(merged.outstanding.length, 2);
      assert.equal(merged.outstanding[1].slug, "add-crlf-tests-for-the");
      assert.match(merged.outstanding[1].text, /^\*\*add-crlf-tests-for-the\*\* — Add CRLF tests/);
      assert.equal(merged.transcript, "/t.jsonl");
    },
  );
  await t.step("artifact dirs count files changed within a day of now, by mtime", async () => {
    await using p = await scratchProject({ git: false, store: false });
    await put(p.root, ".temp/a/b.md", "x");
    await put(p.root, ".reports/old.md", "x");
    await put(p.root, "other/x.md", "x");
    const day = 86_400_000;
    const at = (ms: number) => ms / 1000;
    await Deno.utime(
      `${p.root}/.temp/a/b.md`,
      at(NOW.getTime() - 3_600_000),
      at(NOW.getTime() - 3_600_000),
    );
    await Deno.utime(
      `${p.root}/.reports/old.md`,
      at(NOW.getTime() - 2 * day),
      at(NOW.getTime() - 2 * day),
    );
    await Deno.utime(`${p.root}/other/x.md`, at(NOW.getTime()), at(NOW.getTime()));
    const found = await recentArtifacts(p.root, NOW);
    assert.deepEqual(found, [{ dir: ".temp", files: 1, newest: "2026-11-30T11:00:00Z" }]);
    assert.deepEqual(await recentArtifacts(p.root, new Date(NOW.getTime() + 2 * day)), []);
  });
  await t.step("the text report names every part", () => {
    const text = renderEvidence({
      root: "/r",
      store: "/r/.claude/state/session",
      git: false,
      branch: "none",
      created: "2026-11-30T12:00:00Z",
      suggestedSlug: "detached-2026-11-30T12-00-00Z",
      since: "2026-11-30T04:00:00Z",
      files: [],
      untracked: [],
      commits: [],
      artifacts: [],
      outstanding: [],
    });
    assert.match(text, /Branch: +none \(not a git repository\)/);
    assert.match(text, /Suggested slug: +detached-2026-11-30T12-00-00Z/);
    assert.match(text, /Files: none changed \(outside git\)/);
  });
});

Deno.test("evidence mode", async (t) => {
  await t.step("--json in a repo: the documented shape, pinned clock", async () => {
    await using p = await scratchProject({ git: "repo", branch: "feat/login", store: false });
    await put(p.root, "a.ts", "a\n");
    await git(p.root, ["add", "."]);
    await git(p.root, ["commit", "-qm", "add a"]);
    await put(p.root, "a.ts", "a\nb\n");
    await put(p.root, "new.ts", "n\n");
    await put(p.root, "sub/deep/x.txt", "x\n");
    const r = await runCliInProcess(["evidence", "--json"], { cwd: `${p.root}/sub/deep` });
    assert.equal(r.code, 0, r.err);
    const ev = JSON.parse(r.out);
    assert.deepEqual(Object.keys(ev), [
      "root",
      "store",
      "git",
      "branch",
      "created",
      "suggestedSlug",
      "since",
      "files",
      "untracked",
      "commits",
      "artifacts",
      "outstanding",
      "transcriptNote",
    ]);
    assert.equal(ev.root, p.root);
    assert.equal(ev.branch, "feat/login");
    assert.equal(ev.created, "2026-11-30T12:00:00Z");
    assert.equal(ev.suggestedSlug, "feat-login-2026-11-30T12-00-00Z");
    assert.equal(ev.since, "2026-11-30T04:00:00Z");
    assert.deepEqual(ev.files.map((f: { path: string; change: string }) => [f.path, f.change]), [
      ["a.ts", "+1/-0"],
      ["new.ts", "uncommitted-new"],
      ["sub/deep/x.txt", "uncommitted-new"],
    ]);
    assert.deepEqual(ev.untracked, ["new.ts", "sub/deep/x.txt"]);
    assert.equal(ev.commits.length, 1);
    assert.equal(ev.commits[0].subject, "add a");
  });
  await t.step("--since excludes older commits; a bad --since exits 2", async () => {
    await using p = await scratchProject({ git: "repo", store: false });
    await put(p.root, "a.ts", "a\n");
    await git(p.root, ["add", "."]);
    await git(p.root, ["commit", "-qm", "add a"], new Date(NOW.getTime() - 3 * 3_600_000));
    const recent = JSON.parse(
      (await runCliInProcess(["evidence", "--json", "--since", "4h"], { cwd: p.root })).out,
    );
    assert.equal(recent.commits.length, 1);
    const narrow = JSON.parse(
      (await runCliInProcess(["evidence", "--json", "--since", "2h"], { cwd: p.root })).out,
    );
    assert.equal(narrow.commits.length, 0);
    const bad = await runCliInProcess(["evidence", "--since", "soon"], { cwd: p.root });
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--since "soon" is neither a duration/);
  });
  await t.step("outside git it still works", async () => {
    await using p = await scratchProject({ git: false, store: false });
    const r = await runCliInProcess(["evidence"], { cwd: p.root });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Branch: +none/);
    assert.match(r.out, /Suggested slug: +detached-2026-11-30T12-00-00Z/);
  });
  await t.step("refusals: unknown flag, words, --dir not a directory (exit 2)", async () => {
    await using p = await scratchProject({ git: false, store: false });
    const flag = await runCliInProcess(["evidence", "--stat"], { cwd: p.root });
    assert.equal(flag.code, 2);
    assert.match(
      flag.err,
      /unknown flag "--stat".*--json, --since SPEC, --transcript PATH, --session ID, --dir DIR/,
    );
    assert.equal((await runCliInProcess(["evidence", "word"], { cwd: p.root })).code, 2);
    const dir = await runCliInProcess(["evidence", "--dir", `${p.root}/missing`], { cwd: p.root });
    assert.equal(dir.code, 2);
    assert.match(dir.err, /is not a directory/);
  });
  await t.step("--help prints the mode's help, exit 0", async () => {
    const r = await runCliInProcess(["evidence", "--help"], { cwd: "/" });
    assert.equal(r.code, 0);
    assert.match(r.out, /^Usage: session.ts evidence/);
  });
  await t.step("as a process with --dir from elsewhere; JSON parses", async () => {
    await using p = await scratchProject({ git: "repo", store: false });
    await put(p.root, "x.ts", "x\n");
    const r = await runCliProcess(["evidence", "--json", "--dir", p.root], { cwd: "/" });
    assert.equal(r.code, 0, r.stderr);
    const ev = JSON.parse(r.stdout);
    assert.equal(ev.root, p.root);
    assert.equal(ev.created, "2026-11-30T12:00:00Z");
    assert.deepEqual(ev.untracked, ["x.ts"]);
  });
});

Deno.test("evidence: parked items", async (t) => {
  await t.step("each open bullet becomes one line without its marker", async () => {
    const { openItems } = await import("../../lib/handover/evidence.ts");
    const { parseParked } = await import("../../lib/parked/parked.ts");
    const parkedItems = (text: string) => openItems(parseParked(text).items);
    const text =
      "# Parked items\r\n\r\n- **flaky-ci** — CI flakes. Raised: 2026-11-01. Why: x.\r\n" +
      "* **two** — Second\r\n  continued. Next: y.\r\n";
    assert.deepEqual(parkedItems(text), [
      {
        slug: "flaky-ci",
        text: "**flaky-ci** — CI flakes. Raised: 2026-11-01. Why: x.",
        source: "parked",
      },
      { slug: "two", text: "**two** — Second continued. Next: y.", source: "parked" },
    ]);
    assert.deepEqual(parkedItems("\0\x01 binary"), []);
  });
  await t.step("evidence lists the open parked items", async () => {
    await using p = await scratchProject({ git: false, store: false });
    await put(
      p.root,
      ".claude/state/session/PARKED.md",
      "# Parked items\n\n- **a** — Alpha. Raised: 2026-11-29.\n",
    );
    const r = await runCliInProcess(["evidence", "--json"], { cwd: p.root });
    assert.deepEqual(JSON.parse(r.out).outstanding, [
      { slug: "a", text: "**a** — Alpha. Raised: 2026-11-29.", source: "parked" },
    ]);
    assert.match(
      (await runCliInProcess(["evidence"], { cwd: p.root })).out,
      /Outstanding \(1 parked\):\n {2}- \*\*a\*\* — Alpha/,
    );
  });
});

Deno.test("evidence: the tool's own state is never session work", async (t) => {
  await t.step("store and sweep output paths, also below a subdirectory", async () => {
    const { isOwnState } = await import("../../lib/handover/evidence.ts");
    for (
      const p of [".claude/state/session/a.md", "pkg/.claude/state/x", ".temp/session/unlanded.md"]
    ) {
      assert.ok(isOwnState(p), p);
    }
    for (
      const p of [".claude/settings.json", "src/state/x.ts", ".temp/other.md", "my.claude/state/x"]
    ) {
      assert.ok(!isOwnState(p), p);
    }
  });
});

Deno.test("--since out of range is a usage error (exit 2, no stack, nothing written)", async (t) => {
  const huge = ["99999999999d", "999999999d", "1e400", "9".repeat(400) + "h", "300000000d"];
  await t.step("parseSince: no moment outside the years 0001–9999", () => {
    for (const v of huge) assert.equal(parseSince(v, NOW), undefined, v);
    assert.equal(parseSince("0000-12-31T00:00:00Z", NOW), undefined);
    assert.ok(parseSince("700000d", NOW)!.getUTCFullYear() >= 1);
    assert.equal(parseSince("0001-01-01", NOW)?.toISOString(), "0001-01-01T00:00:00.000Z");
  });
  await t.step("evidence, dump and recover refuse it and write nothing", async () => {
    await using p = await scratchProject({ git: "repo", store: false });
    for (const v of huge.slice(0, 2)) {
      for (const mode of ["evidence", "dump", "recover"]) {
        const r = await runCliInProcess([mode, "--since", v], {
          cwd: p.root,
          stdin: "## Goal\n\nG.\n",
        });
        assert.equal(r.code, 2, `${mode} --since ${v}: ${r.err}`);
        assert.match(r.err, /outside the years 0001–9999; give e\.g\. --since 8h/);
        assert.doesNotMatch(r.err, /RangeError|^\s+at /m);
      }
    }
    await assert.rejects(Deno.stat(join(p.root, ".claude")));
  });
});
