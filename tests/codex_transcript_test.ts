/**
 * Codex CLI rollouts into TranscriptFacts: a real rollout recorded from Codex 0.171.0 (long
 * instructions elided), hand-made records for the shapes the recording lacks, hostile input, and
 * locating a session's rollout in `$CODEX_HOME/sessions`.
 */
import assert from "node:assert/strict";
import {
  isCodexRollout,
  locateCodexTranscript,
  parseCodexTranscript,
  patchFiles,
  readCodexTranscript,
} from "../lib/codex_transcript.ts";
import { cli, git, put, scratchRepo } from "./support/cli.ts";

const FIXTURE = new URL("./fixtures/codex/rollout.jsonl", import.meta.url).pathname;
const ROOT = "/tmp/codex-fixture/project";

/** One rollout line. */
const rec = (type: string, payload: Record<string, unknown>) =>
  JSON.stringify({ timestamp: "2026-11-30T05:00:00Z", type, payload });
const meta = rec("session_meta", { id: "s-1", cwd: "/p" });
const user = (text: string) =>
  rec("response_item", {
    type: "message",
    role: "user",
    content: [{ type: "input_text", text }],
  });
const assistant = (text: string) =>
  rec("response_item", {
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text }],
  });

Deno.test("codex rollout: the recorded session", async (t) => {
  const facts = await readCodexTranscript(FIXTURE, { root: ROOT });
  await t.step("applied patches are the files touched; a rejected patch is not", () => {
    assert.deepEqual(facts.files.map((f) => [f.path, f.outside]), [
      ["notes.txt", false],
      ["/tmp/codex-fixture/outside.txt", true],
    ]);
    assert.deepEqual(facts.files[0].tools, ["apply_patch"]);
    assert.ok(!facts.files.some((f) => f.path.includes("missing")));
  });
  await t.step("the last touch's line wins", () => {
    const notes = facts.files.find((f) => f.path === "notes.txt")!;
    const lines = Deno.readTextFileSync(FIXTURE).split("\n");
    assert.match(lines[notes.line - 1], /hello world/);
  });
  await t.step("requests, the closing question left open, the deferral", () => {
    assert.equal(facts.firstRequest?.text, "make the notes file");
    assert.equal(facts.lastRequest?.text, "deploy it to staging");
    assert.deepEqual(facts.questions.map((q) => q.text), ["Shall I also update the README?"]);
    assert.deepEqual(facts.deferrals.map((d) => d.text), ["I'll leave the tests for later."]);
    assert.equal(facts.lastAssistantText?.text, "OK.");
  });
  await t.step("session id and cwd from session_meta; no bad lines", () => {
    assert.equal(facts.sessionId, "01a22ace-6c6a-73a1-8a0e-6c7ea913c5d4");
    assert.equal(facts.cwd, ROOT);
    assert.equal(facts.badLines, 0);
  });
  await t.step("it is recognised as a rollout; a Claude transcript is not", async () => {
    assert.equal(await isCodexRollout(FIXTURE), true);
    const claude = await Deno.makeTempFile({ suffix: ".jsonl" });
    await Deno.writeTextFile(claude, '{"type":"user","message":{"role":"user","content":"x"}}\n');
    assert.equal(await isCodexRollout(claude), false);
    await Deno.remove(claude);
  });
});

Deno.test("codex rollout: shapes the recording lacks", async (t) => {
  await t.step("apply_patch as a custom tool and as a function with input", () => {
    const patch = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch";
    const facts = parseCodexTranscript(
      [
        meta,
        rec("response_item", {
          type: "custom_tool_call",
          name: "apply_patch",
          input: patch,
          call_id: "c1",
        }),
        rec("response_item", { type: "custom_tool_call_output", call_id: "c1", output: "ok" }),
        rec("response_item", {
          type: "function_call",
          name: "apply_patch",
          arguments: JSON.stringify({ input: patch.replace("src/a.ts", "/p/src/b.ts") }),
          call_id: "c2",
        }),
      ].join("\n"),
      { root: "/p" },
    );
    assert.deepEqual(facts.files.map((f) => f.path), ["src/a.ts", "src/b.ts"]);
  });
  await t.step("a failed shell exit leaves the file out; update_plan gives the tasks", () => {
    const facts = parseCodexTranscript(
      [
        meta,
        rec("response_item", {
          type: "function_call",
          name: "shell",
          arguments: JSON.stringify({
            command: [
              "bash",
              "-lc",
              "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x\n+1\n*** End Patch\nEOF",
            ],
          }),
          call_id: "c1",
        }),
        rec("response_item", {
          type: "function_call_output",
          call_id: "c1",
          output: JSON.stringify({ output: "error", metadata: { exit_code: 1 } }),
        }),
        rec("response_item", {
          type: "function_call",
          name: "update_plan",
          arguments: JSON.stringify({
            plan: [
              { step: "Write the parser", status: "completed" },
              { step: "Wire it into evidence", status: "in_progress" },
            ],
          }),
          call_id: "c2",
        }),
      ].join("\n"),
      { root: "/p" },
    );
    assert.deepEqual(facts.files, []);
    assert.deepEqual(facts.tasks.map((t) => [t.subject, t.status]), [
      ["Write the parser", "completed"],
      ["Wire it into evidence", "in_progress"],
    ]);
  });
  await t.step("wrappers are not requests; an answered question is not open", () => {
    const facts = parseCodexTranscript(
      [
        meta,
        user("<environment_context>\n  <cwd>/p</cwd>\n</environment_context>"),
        user("# AGENTS.md instructions for /p\n\nbe brief"),
        user("fix the login"),
        assistant("Fixed. Should I also add a test for the login?"),
        user("yes please"),
      ].join("\n"),
      { root: "/p" },
    );
    assert.equal(facts.firstRequest?.text, "fix the login");
    assert.equal(facts.lastRequest?.text, "yes please");
    assert.deepEqual(facts.questions, []);
  });
  await t.step("patch headers: add, update, delete, move; duplicates once", () => {
    assert.deepEqual(
      patchFiles(
        "*** Begin Patch\n*** Add File: a\n*** Update File: b\n*** Move to: c\n*** Delete File: d\n*** Update File: a\n*** End Patch",
      ),
      ["a", "b", "c", "d"],
    );
  });
});

Deno.test("codex rollout: hostile input never throws", () => {
  const junk = [
    "",
    "not json",
    "[1,2]",
    "null",
    '{"type":"response_item","payload":null}',
    '{"type":"response_item","payload":{"type":"function_call","arguments":"{bad"}}',
    '{"type":"response_item","payload":{"type":"message","role":"user","content":"str"}}',
    '{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","status":"completed","changes":[1]}}}',
    "\0\x01\x02",
  ].join("\n");
  const facts = parseCodexTranscript(junk, { root: "/p" });
  assert.deepEqual(facts.files, []);
  assert.equal(facts.badLines, 4);
});

Deno.test("codex rollout: locating a session's file", async (t) => {
  const home = await Deno.makeTempDir({ prefix: "codex-home-" });
  const day = `${home}/sessions/2026/11/30`;
  await Deno.mkdir(day, { recursive: true });
  await Deno.mkdir(`${home}/sessions/2026/11/29`, { recursive: true });
  const write = (dir: string, name: string, cwd: string) =>
    Deno.writeTextFile(`${dir}/${name}`, rec("session_meta", { id: name, cwd }) + "\n");
  await write(`${home}/sessions/2026/11/29`, "rollout-2026-11-29T10-00-00-aaa.jsonl", "/p");
  await write(day, "rollout-2026-11-30T09-00-00-bbb.jsonl", "/p/sub");
  await write(day, "rollout-2026-11-30T10-00-00-ccc.jsonl", "/elsewhere");
  try {
    await t.step("by session id (CODEX_THREAD_ID)", async () => {
      const found = await locateCodexTranscript({ root: "/p", sessionId: "aaa", codexHome: home });
      assert.equal(found.how, "session");
      assert.match(found.path!, /aaa\.jsonl$/);
    });
    await t.step("else the newest whose cwd is in the project", async () => {
      const found = await locateCodexTranscript({ root: "/p", codexHome: home });
      assert.match(found.path!, /bbb\.jsonl$/);
      const excluded = await locateCodexTranscript({ root: "/p", codexHome: home, exclude: "bbb" });
      assert.match(excluded.path!, /aaa\.jsonl$/);
    });
    await t.step("none: a reason, never a throw", async () => {
      const none = await locateCodexTranscript({ root: "/q", codexHome: home });
      assert.equal(none.path, undefined);
      assert.match(none.reason!, /no Codex rollout of this project/);
      const bad = await locateCodexTranscript({ root: "/p", sessionId: "../x", codexHome: home });
      assert.match(bad.reason!, /not a session id/);
      const missing = await locateCodexTranscript({ root: "/p", codexHome: `${home}/nope` });
      assert.equal(missing.path, undefined);
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("codex rollout: evidence inside Codex reads the session's rollout", async (t) => {
  const repo = await scratchRepo();
  const codexHome = await Deno.makeTempDir({ prefix: "codex-home-" });
  try {
    await git(repo.root, ["commit", "-q", "--allow-empty", "-m", "init"]);
    await put(repo.root, "notes.txt", "hello world\n");
    const day = `${codexHome}/sessions/2026/11/30`;
    await Deno.mkdir(day, { recursive: true });
    const id = "01a22ace-6c6a-73a1-8a0e-6c7ea913c5d4";
    const rollout = `${day}/rollout-2026-11-30T04-55-00-${id}.jsonl`;
    await Deno.writeTextFile(
      rollout,
      (await Deno.readTextFile(FIXTURE)).replaceAll(ROOT, repo.root),
    );
    const env = { CODEX_THREAD_ID: id, CODEX_HOME: codexHome, HOME: "/nonexistent" };
    await t.step("CODEX_THREAD_ID and CODEX_HOME find it; its facts merge", async () => {
      const run = await cli(["evidence", "--json"], { cwd: repo.root, env });
      assert.equal(run.code, 0, run.err);
      const ev = JSON.parse(run.out);
      assert.equal(ev.transcript, rollout);
      assert.ok(ev.outside.some((p: string) => p.endsWith("/outside.txt")), run.out);
    });
    await t.step("--transcript with a rollout reads it as Codex's format", async () => {
      const run = await cli(["evidence", "--json", "--transcript", rollout], {
        cwd: repo.root,
        env: { HOME: "/nonexistent" },
      });
      assert.equal(JSON.parse(run.out).transcript, rollout);
    });
  } finally {
    await repo.cleanup();
    await Deno.remove(codexHome, { recursive: true });
  }
});
