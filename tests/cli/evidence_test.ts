import assert from "node:assert/strict";
import { parseSince } from "../../lib/handover/evidence/window.ts";
import { join } from "../../lib/fs/path.ts";
import { git, NOW, put, scratchProject } from "../support/scratch.ts";
import { runCliInProcess, runCliProcess } from "../support/run.ts";
import { evidencePoints } from "../../lib/cli/evidence.ts";
import type { Evidence } from "../../lib/handover/evidence/model.ts";

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
      "confidence",
    ]);
    assert.deepEqual(ev.confidence.map((c: { name: string; ok: boolean }) => [c.name, c.ok]), [
      ["git", true],
      ["transcript", false],
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

Deno.test("evidence's points flip between ✓ and ⚠ with the facts", async (t) => {
  const ev = {
    git: true,
    since: "2026-11-30T04:00:00Z",
    files: [
      { path: "a.ts", change: "+1/-0", state: "wip", ref: "uncommitted", source: "git", line: 3 },
    ],
    commits: [],
    transcript: "/t.jsonl",
  } as unknown as Evidence;
  await t.step("in git, a transcript merged: ✓ both", () => {
    assert.deepEqual(evidencePoints(ev).map((p) => [p.name, p.ok, p.fact]), [
      ["git", true, "1 file changed, 0 commits since 2026-11-30T04:00:00Z"],
      ["transcript", true, "merged: 1 file the session touched, /t.jsonl"],
    ]);
  });
  await t.step("outside git, no transcript: ⚠ both", () => {
    const p = evidencePoints({ ...ev, git: false, transcript: undefined, transcriptNote: "none" });
    assert.deepEqual(p.map((x) => [x.name, x.ok]), [["git", false], ["transcript", false]]);
    assert.equal(p[1].fact, "none merged (none)");
  });
  await t.step("through the CLI: the block ends the text", async () => {
    await using p = await scratchProject({ git: false, store: false });
    const r = await runCliInProcess(["evidence"], { cwd: p.root });
    assert.match(r.out, /\n\n## Confidence\n⚠ git: not a git repository: [^\n]+\n⚠ transcript: /);
  });
});
