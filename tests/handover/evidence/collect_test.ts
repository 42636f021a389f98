import assert from "node:assert/strict";
import type { Evidence } from "../../../lib/handover/evidence/model.ts";
import { sessionStart } from "../../../lib/handover/evidence/window.ts";
import { git, NOW, put, scratchDir, scratchProject } from "../../support/scratch.ts";
import { runCliInProcess } from "../../support/run.ts";
import { placeTranscript, transcriptOf } from "../../support/transcript.ts";
import { recentArtifacts } from "../../../lib/handover/evidence/collect.ts";

const ok = "ok";

Deno.test("evidence merges the transcript with git", async (t) => {
  await using p = await scratchProject({ git: "repo", store: false });
  await using homeDir = await scratchDir("session-home-");
  const home = homeDir.path;
  const root = p.root;
  await put(root, "README.md", "# r\n");
  await put(root, "src/keep.ts", "a\n");
  await put(root, ".gitignore", "*.log\n");
  await git(root, ["add", "."]);
  await git(root, ["commit", "-qm", "init"], new Date("2026-11-29T00:00:00Z"));
  // The session: keep.ts edited (still dirty), new.ts written (untracked), committed.ts
  // written and committed, README edited back to its original (clean), gone.ts written then
  // removed, debug.log written (ignored), a file outside, a failed Edit, and tasks.
  await put(root, "src/keep.ts", "a\nb\n");
  await put(root, "src/new.ts", "n\n");
  await put(root, "src/committed.ts", "c\n");
  await git(root, ["add", "src/committed.ts"]);
  await git(root, ["commit", "-qm", "session work"]);
  await put(root, "debug.log", "x\n");
  const hash = (await git(root, ["rev-parse", "--short", "HEAD"])).trim();
  const abs = (rel: string) => `${root}/${rel}`;
  const body = transcriptOf(root, [
    { prompt: "Do the work." },
    { tool: "TaskCreate", input: { subject: "Write the tests" }, result: "Task #1 created" },
    { tool: "Edit", input: { file_path: abs("src/keep.ts") }, result: ok },
    { tool: "Write", input: { file_path: abs("src/new.ts") }, result: ok },
    { tool: "Write", input: { file_path: abs("src/committed.ts") }, result: ok },
    { tool: "Edit", input: { file_path: abs("README.md") }, result: ok },
    { tool: "Write", input: { file_path: abs("lib/gone.ts") }, result: ok },
    { tool: "Write", input: { file_path: abs("debug.log") }, result: ok },
    { tool: "Write", input: { file_path: "/elsewhere/notes.md" }, result: ok },
    { tool: "Edit", input: { file_path: abs("src/failed.ts") }, error: true },
  ]);
  await placeTranscript(home, root, "sess-1", body);
  const env = { HOME: home, CLAUDE_CODE_SESSION_ID: "sess-1" };
  const run = await runCliInProcess(["evidence", "--json"], { cwd: root, env });
  assert.equal(run.code, 0, run.err);
  const ev: Evidence = JSON.parse(run.out);
  const row = (path: string) => ev.files.find((f) => f.path === path);

  await t.step("git facts keep their numbers; transcript files git hides get a state", () => {
    assert.equal(row("src/keep.ts")?.change, "+1/-0");
    assert.equal(row("src/new.ts")?.change, "uncommitted-new");
    assert.deepEqual([row("src/committed.ts")?.state, row("src/committed.ts")?.ref], [
      "done",
      hash,
    ]);
    assert.deepEqual(row("README.md"), {
      path: "README.md",
      change: "edited",
      state: "reverted",
      ref: "transcript:L10",
      source: "transcript",
      line: 10,
    });
    assert.equal(row("lib/gone.ts")?.state, "reverted");
    assert.equal(row("debug.log")?.state, "wip");
    assert.equal(row("src/failed.ts"), undefined, "a failed Edit touched nothing");
  });
  await t.step("outside files apart, unfinished tasks outstanding, the transcript named", () => {
    assert.deepEqual(ev.outside, ["/elsewhere/notes.md"]);
    assert.ok(!ev.files.some((f) => f.path.includes("elsewhere")));
    assert.deepEqual(ev.outstanding.map((o) => [o.slug, o.source]), [
      ["write-the-tests", "task"],
    ]);
    assert.match(ev.transcript!, /sess-1\.jsonl$/);
  });
  await t.step("the text report names the transcript and the outside files", async () => {
    const text = await runCliInProcess(["evidence"], { cwd: root, env });
    assert.match(text.out, /Written outside the project \(1\):\n {2}\/elsewhere\/notes\.md/);
    assert.match(text.out, /reverted\s+README\.md\s+\(transcript:L10\)/);
    assert.match(text.out, /Transcript: .*sess-1\.jsonl/);
  });
  await t.step("--transcript PATH overrides the session's", async () => {
    const other = `${home}/other.jsonl`;
    await Deno.writeTextFile(
      other,
      transcriptOf(root, [{ tool: "Write", input: { file_path: abs("x.md") }, result: ok }]),
    );
    const r = await runCliInProcess(["evidence", "--json", "--transcript", other], {
      cwd: root,
      env,
    });
    const e: Evidence = JSON.parse(r.out);
    assert.equal(e.transcript, other);
    assert.ok(e.files.some((f) => f.path === "x.md"));
    assert.ok(!e.files.some((f) => f.path === "README.md"));
  });
  await t.step("dump fills the files table and Outstanding from the transcript", async () => {
    const r = await runCliInProcess(["dump", "with-transcript"], {
      cwd: root,
      env,
      stdin: "## Goal\n\nShip it.\n",
    });
    assert.equal(r.code, 0, r.err);
    const doc = await Deno.readTextFile(`${root}/.claude/state/session/with-transcript.md`);
    assert.match(doc, /\| `README\.md` \| edited \| reverted \| transcript:L10 \|/);
    assert.match(doc, /\| `debug\.log` \| edited \| wip \| transcript:L14 \|/);
    assert.match(doc, /\| `src\/committed\.ts` \| \+1\/-0 \| done \| [0-9a-f]{7,} \|/);
    assert.match(doc, /## Outstanding\n\n- \*\*write-the-tests\*\* — Write the tests\./);
    assert.ok(!doc.includes("elsewhere"), "outside files stay out of the table");
    assert.ok(!doc.includes("failed.ts"));
  });
  await t.step("no transcript: evidence says so and still works", async () => {
    const r = await runCliInProcess(["evidence", "--json"], {
      cwd: root,
      env: { HOME: `${home}/none` },
    });
    assert.equal(r.code, 0);
    const e: Evidence = JSON.parse(r.out);
    assert.equal(e.transcript, undefined);
    assert.match(e.transcriptNote!, /no Claude Code transcripts/);
    assert.equal(e.files.find((f) => f.path === "src/keep.ts")?.change, "+1/-0");
    const text = await runCliInProcess(["evidence"], {
      cwd: root,
      env: { HOME: `${home}/none` },
    });
    assert.match(text.out, /Transcript: none \(no Claude Code transcripts/);
  });
});

Deno.test("the transcript's start narrows the default session window", async (t) => {
  await t.step("sessionStart: later of the window and the first record", () => {
    const w = new Date("2026-11-30T04:00:00Z");
    assert.equal(
      sessionStart(w, "2026-11-30T10:00:00.000Z").toISOString(),
      "2026-11-30T10:00:00.000Z",
    );
    assert.equal(sessionStart(w, "2026-11-29T10:00:00Z"), w);
    assert.equal(sessionStart(w, undefined), w);
    assert.equal(sessionStart(w, "not a date"), w);
  });
  await using p = await scratchProject({ git: "repo", store: false });
  await using homeDir = await scratchDir("session-home-");
  const home = homeDir.path;
  const root = p.root;
  // NOW is 12:00. A commit at 09:00 (before the session), the session from 10:00, a commit
  // at 11:00 (during it).
  await put(root, "a.ts", "a\n");
  await git(root, ["add", "."]);
  await git(root, ["commit", "-qm", "before"], new Date("2026-11-30T09:00:00Z"));
  await put(root, "b.ts", "b\n");
  await git(root, ["add", "."]);
  await git(root, ["commit", "-qm", "during"], new Date("2026-11-30T11:00:00Z"));
  await placeTranscript(
    home,
    root,
    "s2",
    transcriptOf(root, [{ prompt: "Go." }], "s2", "2026-11-30T10:00:00.000Z"),
  );
  const env = { HOME: home, CLAUDE_CODE_SESSION_ID: "s2" };
  await t.step("default: only the commits since the transcript's first record", async () => {
    const ev: Evidence = JSON.parse(
      (await runCliInProcess(["evidence", "--json"], { cwd: root, env })).out,
    );
    assert.equal(ev.since, "2026-11-30T10:00:00Z");
    assert.deepEqual(ev.commits.map((c) => c.subject), ["during"]);
  });
  await t.step("--since wins over the transcript", async () => {
    const r = await runCliInProcess(["evidence", "--json", "--since", "8h"], { cwd: root, env });
    const ev: Evidence = JSON.parse(r.out);
    assert.deepEqual(ev.commits.map((c) => c.subject), ["during", "before"]);
  });
  await t.step("recover takes the dead session's own start, however old", async () => {
    await placeTranscript(
      home,
      root,
      "old",
      transcriptOf(root, [{ prompt: "Old work." }], "old", "2026-11-30T08:30:00.000Z"),
    );
    const r = await runCliInProcess(["recover", "old-one", "--session", "old"], {
      cwd: root,
      env,
    });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /\| `a\.ts` \| \+1\/-0 \| done \|/);
    assert.match(r.out, /\| `b\.ts` \| \+1\/-0 \| done \|/);
  });
});

Deno.test("evidence: pure parts", async (t) => {
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
});

Deno.test("evidence: parked items", async (t) => {
  await t.step("each open bullet becomes one line without its marker", async () => {
    const { openItems } = await import("../../../lib/handover/evidence/collect.ts");
    const { parseParked } = await import("../../../lib/parked/scanner.ts");
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
});
