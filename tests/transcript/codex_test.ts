/**
 * Codex CLI rollouts into TranscriptFacts: a real rollout recorded from Codex 0.171.0 (long
 * instructions elided), hand-made records for the shapes the recording lacks, and hostile input.
 * Locating a rollout is in locate_test.ts, reading one for `evidence` in load_test.ts.
 */
import assert from "node:assert/strict";
import {
  parseCodexTranscript,
  patchFiles,
  readCodexTranscript,
} from "../../lib/transcript/codex.ts";

const FIXTURE = new URL("../fixtures/codex/rollout.jsonl", import.meta.url).pathname;
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

Deno.test("codex rollout: paths and lines follow the same rules as Claude Code's", async (t) => {
  const patch = (file: string) => `*** Begin Patch\n*** Update File: ${file}\n*** End Patch`;
  const call = (id: string, file: string) =>
    rec("response_item", {
      type: "custom_tool_call",
      name: "apply_patch",
      input: patch(file),
      call_id: id,
    });
  const done = (id: string) =>
    rec("response_item", { type: "custom_tool_call_output", call_id: id, output: "ok" });
  await t.step("a call settled after a later one does not move the file's line back", () => {
    const facts = parseCodexTranscript(
      [meta, call("c1", "a.ts"), call("c2", "a.ts"), done("c2"), done("c1")].join("\n"),
      { root: "/p" },
    );
    assert.deepEqual(facts.files.map((f) => [f.path, f.line]), [["a.ts", 3]]);
  });
  await t.step("a UNC path is absolute, so outside the project", () => {
    const facts = parseCodexTranscript(
      [meta, call("c1", "\\\\server\\share\\x.txt"), done("c1")].join("\n"),
      { root: "/p" },
    );
    assert.deepEqual(facts.files.map((f) => [f.path, f.outside]), [["/server/share/x.txt", true]]);
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
