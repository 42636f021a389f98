/**
 * Every record kind real Claude Code transcripts hold (1.0.24 to 2.1.114, docs/TRANSCRIPT.md
 * "Record kinds"), each in a small transcript made here, and what the reader makes of it.
 */
import assert from "node:assert/strict";
import { parseTranscript, readTranscript } from "../../lib/transcript/claude.ts";
import { isUnfinished, type TranscriptFacts } from "../../lib/transcript/facts.ts";
import { recoverMarkdown } from "../../lib/handover/recover.ts";
import { join } from "../../lib/fs/path.ts";
import { scratchDir } from "../support/scratch.ts";

const ROOT = "/home/dev/app";
const SID = "aaaaaaaa-1111-4222-8333-444444444444";
let clock = Date.parse("2026-11-30T10:00:00Z");
let uuids = 0;

// deno-lint-ignore no-explicit-any
type Rec = Record<string, any>;

/** A record as Claude Code writes it: session, cwd, a fresh uuid and a later timestamp. */
function rec(o: Rec): Rec {
  clock += 1000;
  return {
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd: ROOT,
    sessionId: SID,
    version: "2.1.114",
    gitBranch: "main",
    uuid: `u-${++uuids}`,
    timestamp: new Date(clock).toISOString(),
    ...o,
  };
}
const user = (content: unknown, o: Rec = {}) =>
  rec({ type: "user", message: { role: "user", content }, ...o });
const said = (text: string, o: Rec = {}) =>
  rec({
    type: "assistant",
    message: { role: "assistant", content: [{ type: "text", text }] },
    ...o,
  });
function call(id: string, name: string, input: unknown, o: Rec = {}): Rec {
  const { message, ...rest } = o;
  return rec({
    type: "assistant",
    message: { role: "assistant", content: [{ type: "tool_use", id, name, input }], ...message },
    ...rest,
  });
}
const result = (id: string, content: unknown, o: Rec = {}) =>
  user([{ tool_use_id: id, type: "tool_result", content, ...o.block }], o.rec ?? {});

function read(records: Rec[]): TranscriptFacts {
  return parseTranscript(records.map((r) => JSON.stringify(r)).join("\n") + "\n", { root: ROOT });
}
const texts = (ms: { text: string }[]) => ms.map((m) => m.text);

Deno.test("the first lines need not be messages; the header comes from the first record with each", () => {
  const records = [
    { type: "summary", summary: "Earlier work", leafUuid: "u-0" },
    {
      type: "file-history-snapshot",
      messageId: "m0",
      snapshot: { trackedFileBackups: {}, timestamp: "2026-11-30T09:00:00Z" },
      isSnapshotUpdate: false,
    },
    {
      type: "queue-operation",
      operation: "dequeue",
      timestamp: "2026-11-30T09:59:00Z",
      sessionId: SID,
    },
    { type: "permission-mode", permissionMode: "default", sessionId: SID },
    { type: "last-prompt", lastPrompt: "Fix the footer", sessionId: SID },
    rec({ type: "progress", data: { type: "hook_progress", hookEvent: "SessionStart" } }),
    rec({ type: "attachment", attachment: { type: "hook_success", content: "ok" }, gitBranch: "" }),
    user("Fix the footer", { cwd: "/home/dev/app" }),
  ];
  const f = read(records);
  assert.equal(f.sessionId, SID);
  assert.equal(f.startedAt, "2026-11-30T09:59:00Z", "the queue-operation is the first with a time");
  assert.equal(f.cwd, ROOT);
  assert.equal(f.badLines, 0);
  assert.deepEqual(texts([f.firstRequest!, f.lastRequest!]), ["Fix the footer", "Fix the footer"]);
});

Deno.test("cwd can change mid-session: a relative path is taken against its own record's cwd", () => {
  const f = read([
    user("Edit both"),
    call("t1", "Write", { file_path: "a.ts", content: "" }),
    result("t1", "ok"),
    call("t2", "Write", { file_path: "b.ts", content: "" }, { cwd: `${ROOT}/web` }),
    result("t2", "ok", { rec: { cwd: `${ROOT}/web` } }),
  ]);
  assert.deepEqual(f.files.map((x) => x.path), ["a.ts", "web/b.ts"]);
});

Deno.test("hook output, compaction and meta records are not requests", () => {
  const f = read([
    user("Refactor the parser"),
    rec({
      type: "system",
      content: "\u001b[1mPostToolUse\u001b[22m [fmt] completed",
      level: "info",
    }),
    rec({ type: "system", subtype: "stop_hook_summary", hookCount: 1, hookInfos: [] }),
    rec({ type: "progress", data: { type: "hook_progress", hookEvent: "Stop" } }),
    rec({ type: "attachment", attachment: { type: "hook_additional_context", content: ["ctx"] } }),
    user("<user-prompt-submit-hook>be brief</user-prompt-submit-hook>"),
    user("Hook said: tidy up", { isMeta: true }),
    rec({
      type: "system",
      subtype: "compact_boundary",
      content: "Conversation compacted",
      compactMetadata: { trigger: "auto", preTokens: 150000 },
    }),
    user("This session is being continued from a previous conversation. Summary: …", {
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
    }),
  ]);
  assert.deepEqual(texts([f.firstRequest!, f.lastRequest!]), [
    "Refactor the parser",
    "Refactor the parser",
  ]);
});

Deno.test("the client's wrappers are set aside: what the person typed is the request", () => {
  const f = read([
    user([
      {
        type: "text",
        text:
          "<ide_opened_file>The user opened the file /x/index.html in the IDE.</ide_opened_file>",
      },
      { type: "text", text: "Serve the page on localhost" },
    ]),
    user(
      "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>",
    ),
    user(
      "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>",
    ),
    user("<local-command-stdout>Set model to opus</local-command-stdout>"),
    user("<system-reminder>The todo list is empty.</system-reminder>"),
    user([
      {
        type: "text",
        text:
          "<ide_selection>The user selected the lines 9 to 9 from a.md:\nAudioWor\n</ide_selection>",
      },
      { type: "text", text: "Migrate to AudioWorklet" },
    ]),
  ]);
  assert.equal(f.firstRequest?.text, "Serve the page on localhost");
  assert.equal(f.lastRequest?.text, "Migrate to AudioWorklet");
  const md = recoverMarkdown(f);
  assert.doesNotMatch(md, /<ide_|<task-notification|<command-|<system-reminder/);
});

Deno.test("image markers, line-end backslashes and acknowledgements", () => {
  const f = read([
    user([
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      { type: "text", text: "[Image #1] Add a margin below the details element" },
    ]),
    user("The library sets it inline:\\\n\\\nsee the style attribute\\\nplease fix it"),
    user([{ type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } }, {
      type: "text",
      text: "[Image #2]",
    }]),
    user("Excellent work, thank you!"),
  ]);
  assert.equal(f.firstSubstantive?.text, "Add a margin below the details element");
  assert.equal(
    f.lastSubstantive?.text,
    "The library sets it inline:\n\nsee the style attribute\nplease fix it",
  );
  assert.equal(f.lastRequest?.text, "Excellent work, thank you!");
});

Deno.test("queued messages: delivered ones are read once, removed ones never, a pending one last", async (t) => {
  const q = (operation: string, text?: string) => ({
    type: "queue-operation",
    operation,
    timestamp: new Date(clock += 1000).toISOString(),
    sessionId: SID,
    ...(text === undefined ? {} : { content: [{ type: "text", text }] }),
  });
  await t.step("enqueue, dequeue, then the user record: one request", () => {
    const f = read([
      user("Start the server"),
      q("enqueue", "And add a README"),
      q("dequeue"),
      user("And add a README"),
    ]);
    assert.deepEqual(texts([f.firstRequest!, f.lastRequest!]), [
      "Start the server",
      "And add a README",
    ]);
    assert.equal(f.lastRequest?.line, 4, "the delivered record, not the queue entry");
  });
  await t.step("taken back: no request", () => {
    const f = read([user("Start the server"), q("enqueue", "Never mind that"), q("remove")]);
    assert.equal(f.lastRequest?.text, "Start the server");
  });
  await t.step("still queued at the end: the last request (IDE context set aside)", () => {
    const f = read([
      user("Start the server"),
      q("enqueue", "<ide_opened_file>opened x</ide_opened_file> Then deploy it"),
    ]);
    assert.equal(f.lastRequest?.text, "Then deploy it");
    assert.equal(f.lastSubstantive?.text, "Then deploy it");
  });
});

Deno.test("one API message in several records; a resumed session's repeated records", async (t) => {
  await t.step(
    "a question followed by a tool call of the same message is no closing question",
    () => {
      const message = { id: "msg_1" };
      const f = read([
        user("Tidy the config"),
        said("Shall I also update the lock file?", {
          message: {
            ...message,
            role: "assistant",
            content: [{ type: "text", text: "Shall I also update the lock file?" }],
          },
        }),
        call("t1", "Edit", { file_path: "cfg.json", old_string: "a", new_string: "b" }, {
          message,
        }),
        result("t1", "ok"),
      ]);
      assert.deepEqual(f.questions, []);
      assert.deepEqual(f.files.map((x) => x.path), ["cfg.json"]);
    },
  );
  await t.step("a record repeated with its uuid counts once", () => {
    const ask = user("Let's park the i18n idea for later");
    const f = read([ask, said("Noted."), ask, said("Noted.")]);
    assert.equal(f.deferrals.length, 1);
  });
});

Deno.test("tool results: object, error string, list or absent", () => {
  const f = read([
    user("Make the tasks"),
    call("t1", "TaskCreate", { subject: "From the object" }),
    result("t1", "Task #1 created successfully", { rec: { toolUseResult: { task: { id: "7" } } } }),
    call("t2", "TaskCreate", { subject: "From the text, a list result" }),
    result("t2", [{ type: "text", text: "Task #2 created successfully" }], {
      rec: { toolUseResult: [{ type: "text", text: "Task #2 created successfully" }] },
    }),
    call("t3", "Write", { file_path: "bad.ts", content: "" }),
    result("t3", "Error: permission denied", {
      block: { is_error: true },
      rec: { toolUseResult: "Error: permission denied" },
    }),
    call("t4", "Write", { file_path: "ok.ts", content: "" }),
    result("t4", "File created"),
    call("t5", "Write", { file_path: "died.ts", content: "" }),
  ]);
  assert.deepEqual(f.tasks.map((x) => [x.id, x.subject]), [["7", "From the object"], [
    "2",
    "From the text, a list result",
  ]]);
  assert.deepEqual(f.files.map((x) => x.path), ["died.ts", "ok.ts"]);
});

Deno.test("TodoWrite in both item shapes; a subagent's todo list is its own", () => {
  const f = read([
    user("Plan it"),
    call("t1", "TodoWrite", {
      todos: [
        { content: "Old shape open", status: "pending", priority: "high", id: "a" },
        { content: "Old shape done", status: "completed", priority: "low", id: "b" },
      ],
    }),
    result("t1", "ok"),
    call("t2", "TodoWrite", {
      todos: [
        { content: "New shape open", status: "in_progress", activeForm: "Working" },
        { content: "New shape done", status: "completed", activeForm: "Done" },
      ],
    }),
    result("t2", "ok"),
    call("t3", "TodoWrite", { todos: [{ content: "The subagent's own", status: "pending" }] }, {
      isSidechain: true,
    }),
    result("t3", "ok", { rec: { isSidechain: true } }),
    call("t4", "Write", { file_path: "side.ts", content: "" }, { isSidechain: true }),
    result("t4", "ok", { rec: { isSidechain: true } }),
    user("A subagent's prompt", { isSidechain: true }),
  ]);
  assert.deepEqual(f.tasks.filter(isUnfinished).map((x) => x.subject), ["New shape open"]);
  assert.deepEqual(f.files.map((x) => x.path), ["side.ts"], "an inline sidechain's file counts");
  assert.equal(f.lastRequest?.text, "Plan it");
});

Deno.test("AskUserQuestion: answered, the old way (no such tool), or left open", () => {
  const questions = [{ question: "Which port?", header: "Port", options: [], multiSelect: false }];
  const f = read([
    user("Set up the server"),
    call("q1", "AskUserQuestion", { questions }),
    result("q1", 'User has answered your questions: "Which port?"="8080".', {
      rec: { toolUseResult: { questions, answers: { "Which port?": "8080" } } },
    }),
    call("q2", "AskUserQuestion", { question: "Global tool or library?" }),
    result(
      "q2",
      "<tool_use_error>Error: No such tool available: AskUserQuestion</tool_use_error>",
      {
        rec: { toolUseResult: "Error: No such tool available: AskUserQuestion" },
      },
    ),
    call("q3", "AskUserQuestion", { questions: [{ question: "Keep the old API?" }] }),
  ]);
  assert.deepEqual(texts(f.questions), ["Global tool or library?", "Keep the old API?"]);
});

Deno.test("images inside tool results change nothing", () => {
  const f = read([
    user("Look at the screenshot and fix the header"),
    call("r1", "Read", { file_path: "/tmp/shot.png" }),
    result("r1", [{
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "AAAA" },
    }]),
    call("t1", "Edit", { file_path: "header.css", old_string: "a", new_string: "b" }),
    result("t1", [{ type: "text", text: "ok" }, {
      type: "image",
      source: { type: "base64", data: "" },
    }]),
  ]);
  assert.deepEqual(f.files.map((x) => x.path), ["header.css"]);
  assert.equal(f.lastRequest?.text, "Look at the screenshot and fix the header");
});

Deno.test("subagents' own transcripts: 2.0.x beside the session, 2.1.x under subagents/", async (t) => {
  await using dir = await scratchDir();
  const folder = join(dir.path, "projects", "-home-dev-app");
  Deno.mkdirSync(join(folder, SID, "subagents"), { recursive: true });
  const write = (path: string, records: Rec[]) =>
    Deno.writeTextFileSync(path, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const main = join(folder, `${SID}.jsonl`);
  write(main, [
    user("Research and write it up"),
    call("t0", "TaskCreate", { subject: "Write the report" }),
    result("t0", "Task #1 created successfully"),
    call("a1", "Task", { prompt: "Look into it", subagent_type: "general-purpose" }),
    result("a1", [{ type: "text", text: "Done." }], {
      rec: { toolUseResult: { status: "completed", agentId: "a2271d1" } },
    }),
    call("a2", "Agent", { prompt: "Write notes" }),
    result("a2", "Done.", { rec: { toolUseResult: { status: "completed", agentId: "beside12" } } }),
    call("u1", "TaskUpdate", { taskId: "1", status: "completed" }),
    result("u1", "Updated task #1 status"),
    call("u2", "TaskUpdate", { taskId: "9", status: "completed" }),
    result("u2", "Updated task #9 status"),
    said("All done."),
  ]);
  const side = (o: Rec) => ({ ...o, isSidechain: true });
  // 2.1.x: under <session>/subagents/, with its meta file; an update older than the session's.
  clock -= 60_000;
  write(join(folder, SID, "subagents", "agent-a2271d1.jsonl"), [
    side(user("Look into it")),
    side(call("s1", "Write", { file_path: "notes/research.md", content: "" })),
    side(result("s1", "ok")),
    side(call("s2", "TaskUpdate", { taskId: "1", status: "in_progress" })),
    side(result("s2", "Updated task #1 status")),
    side(call("s5", "TaskCreate", { subject: "Check the sources" })),
    side(result("s5", "Task #9 created successfully")),
    side(said("Should I go on?")),
    user("Also check the licence"), // a record without the flag is still the subagent's
  ]);
  Deno.writeTextFileSync(
    join(folder, SID, "subagents", "agent-a2271d1.meta.json"),
    '{"agentType":"general-purpose"}',
  );
  clock += 120_000;
  // 2.0.x: beside the session, sharing its sessionId; another session's agent file is not its.
  write(join(folder, "agent-beside12.jsonl"), [
    side(user("Write notes")),
    side(
      call("s3", "Edit", {
        file_path: `${ROOT}/notes/summary.md`,
        old_string: "a",
        new_string: "b",
      }),
    ),
    side(result("s3", "ok")),
  ]);
  write(join(folder, "agent-other123.jsonl"), [
    side({
      ...call("s4", "Write", { file_path: "foreign.ts", content: "" }),
      sessionId: "someone-else",
    }),
  ]);
  const f = await readTranscript(main, { root: ROOT });
  await t.step("files a subagent wrote belong to the session, at the line that launched it", () => {
    assert.deepEqual(f.files.map((x) => [x.path, x.line]), [
      ["notes/research.md", 4],
      ["notes/summary.md", 6],
    ]);
  });
  await t.step(
    "the shared task list: a subagent's older update does not undo the session's",
    () => {
      assert.deepEqual(f.tasks.map((x) => [x.subject, x.status]), [
        ["Write the report", "completed"],
        ["Check the sources", "completed"],
      ], "and the session's update of a task a subagent created waited for its creation");
    },
  );
  await t.step("nothing a subagent says is a request or a question", () => {
    assert.equal(f.lastRequest?.text, "Research and write it up");
    assert.deepEqual(f.questions, []);
  });
});
