import assert from "node:assert/strict";
import type { Evidence } from "../lib/evidence.ts";
import { cli, git, put, scratchRepo } from "./support/cli.ts";
import { placeTranscript, transcriptOf } from "./support/transcript.ts";

const ok = "ok";

Deno.test("evidence merges the transcript with git", async (t) => {
  const p = await scratchRepo();
  const home = await Deno.makeTempDir({ prefix: "session-home-" });
  try {
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
    const run = await cli(["evidence", "--json"], { cwd: root, env });
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
      const text = await cli(["evidence"], { cwd: root, env });
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
      const r = await cli(["evidence", "--json", "--transcript", other], { cwd: root, env });
      const e: Evidence = JSON.parse(r.out);
      assert.equal(e.transcript, other);
      assert.ok(e.files.some((f) => f.path === "x.md"));
      assert.ok(!e.files.some((f) => f.path === "README.md"));
    });
    await t.step("dump fills the files table and Outstanding from the transcript", async () => {
      const r = await cli(["dump", "with-transcript"], {
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
      const r = await cli(["evidence", "--json"], { cwd: root, env: { HOME: `${home}/none` } });
      assert.equal(r.code, 0);
      const e: Evidence = JSON.parse(r.out);
      assert.equal(e.transcript, undefined);
      assert.match(e.transcriptNote!, /no Claude Code transcripts/);
      assert.equal(e.files.find((f) => f.path === "src/keep.ts")?.change, "+1/-0");
      const text = await cli(["evidence"], { cwd: root, env: { HOME: `${home}/none` } });
      assert.match(text.out, /Transcript: none \(no Claude Code transcripts/);
    });
  } finally {
    await p.cleanup();
    await Deno.remove(home, { recursive: true });
  }
});
