import assert from "node:assert/strict";
import { parseTranscript, readTranscript, TranscriptReader } from "../../lib/transcript/claude.ts";
import { isUnfinished, type TranscriptFacts } from "../../lib/transcript/facts.ts";
import { makeTranscript } from "../../bench/transcript.ts";
import { countingParses, everyLineParsed, headerLine } from "../support/transcript.ts";
import { scratchDir } from "../support/scratch.ts";

const FIXTURES = new URL("../fixtures/transcripts/", import.meta.url).pathname;
const ROOT = "/home/dev/demo-app";

const read = (rel: string) => readTranscript(FIXTURES + rel, { root: ROOT });
const paths = (f: TranscriptFacts) => f.files.map((x) => x.path);

Deno.test("real Claude Code 2.1.197 interactive transcript", async (t) => {
  const f = await read("real/interactive.jsonl");
  await t.step("files: Write/Edit/NotebookEdit, failed Edit excluded, outside listed apart", () => {
    assert.deepEqual(paths(f), [
      "docs/greet.md",
      "notebooks/demo.ipynb",
      "src/greet.ts",
      "tests/greet_test.ts",
      "/home/dev/scratch/outside/greet-notes.md",
    ]);
    assert.ok(!paths(f).includes("README.md"), "the failing Edit did not touch README.md");
    assert.deepEqual(f.files.map((x) => x.outside), [false, false, false, false, true]);
    assert.deepEqual(f.files.find((x) => x.path === "src/greet.ts")!.tools, ["Write", "Edit"]);
    assert.deepEqual(f.files.find((x) => x.path === "notebooks/demo.ipynb")!.tools, [
      "Write",
      "NotebookEdit",
    ]);
  });
  await t.step("tasks: ids from the result text, final states", () => {
    assert.deepEqual(f.tasks.map((x) => [x.id, x.subject, x.status]), [
      ["1", "Write greet module", "completed"],
      ["2", "Add greet test", "in_progress"],
      ["3", "Update README", "pending"],
    ]);
    assert.deepEqual(f.tasks.filter(isUnfinished).map((x) => x.id), ["2", "3"]);
  });
  await t.step("questions: closing question ignored by the next prompt, unanswered dialog", () => {
    assert.deepEqual(f.questions.map((q) => q.text), [
      "Should I also add a --shout flag?",
      "Which locale should i18n start with?",
    ]);
    assert.ok(!f.questions.some((q) => q.text.includes("greeting style")), "answered dialog");
  });
  await t.step("deferrals, requests, last text, lines", () => {
    assert.equal(f.deferrals.length, 1);
    assert.match(f.deferrals[0].text, /park the i18n idea for later/);
    assert.match(f.firstRequest!.text, /^Add a greeting module/);
    assert.match(f.lastRequest!.text, /^Thanks\. Let's park/);
    assert.equal(f.lastRequest!.line, f.deferrals[0].line);
    assert.equal(f.lastAssistantText!.text, "Noted: i18n and caching are parked.");
    assert.equal(f.cwd, ROOT);
    assert.equal(f.badLines, 0);
    const lines = Deno.readTextFileSync(FIXTURES + "real/interactive.jsonl").split("\n");
    assert.equal(f.lines, lines.length - 1);
    // Every reported line really holds what it claims.
    for (const m of [...f.questions, ...f.deferrals, f.firstRequest!, f.lastAssistantText!]) {
      const words = m.text.slice(0, 20);
      assert.ok(lines[m.line - 1].includes(words), `line ${m.line} holds "${words}"`);
    }
    for (const file of f.files) {
      assert.ok(lines[file.line - 1].includes(file.path), `line ${file.line} names ${file.path}`);
    }
  });
});

Deno.test("real Claude Code 2.1.197 print-mode transcript", async () => {
  const f = await read("real/print.jsonl");
  assert.deepEqual(f.files, [{
    path: "hello.txt",
    outside: false,
    tools: ["Write", "Edit"],
    line: 9,
  }]);
  assert.deepEqual(f.tasks.map((x) => [x.id, x.status]), [["1", "pending"]]);
  assert.deepEqual(f.questions.map((q) => q.text), ["Want me to spell-check the other files too?"]);
  assert.equal(f.firstRequest!.text, "Create hello.txt, then fix its wording.");
  assert.equal(f.deferrals.length, 0);
});

Deno.test("older format: TodoWrite, MultiEdit, sidechains, compaction, meta records", async () => {
  const f = await read("hand/older.jsonl");
  assert.deepEqual(paths(f), ["lib/cache.ts", "lib/parse.ts", "lib/util.ts"]);
  assert.deepEqual(f.files.find((x) => x.path === "lib/parse.ts")!.tools, ["MultiEdit"]);
  assert.deepEqual(f.tasks.map((x) => [x.subject, x.status]), [
    ["Move parser", "completed"],
    ["Add tests", "in_progress"],
    ["Update docs", "pending"],
  ]);
  assert.deepEqual(f.questions, [], "yes answers; the docs reply engages with the question");
  assert.deepEqual(f.deferrals, [{ text: "Leave the docs for later.", line: 18 }]);
  assert.deepEqual(f.firstRequest, {
    text: "Refactor the parser into lib/parse.ts and track the steps.",
    line: 4,
  });
  assert.equal(f.lastRequest!.line, 18);
  assert.deepEqual(f.lastAssistantText, { text: "Writing the cache.", line: 19 });
  assert.equal(f.sessionId, "older-session-1");
});

Deno.test("hostile input: garbage, binary, truncated last line never throw", async () => {
  const f = await read("hand/hostile.jsonl");
  assert.deepEqual(paths(f), ["ok.txt"]);
  assert.equal(f.lines, 18);
  assert.equal(f.badLines, 7);
  assert.equal(f.firstRequest!.text, "Start the hostile test.");
  assert.equal(f.lastRequest!.text, "The final prompt, ✓ unicode");
  assert.equal(f.lastAssistantText, undefined);
  assert.deepEqual(f.tasks, []);
});

/** One JSONL record of `type` whose message holds `content`; `extra` keys follow the message. */
const rec = (type: string, content: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type, message: { role: type, content }, ...extra });
/** A tool_use content block. */
const use = (id: string, name: string, input: unknown) => ({ type: "tool_use", id, name, input });
/** A tool_result content block. */
const res = (id: string, isError = false, content = "ok") => ({
  type: "tool_result",
  tool_use_id: id,
  content,
  ...(isError ? { is_error: true } : {}),
});

Deno.test("pure reader: results join by tool_use_id, errors do not count", async (t) => {
  await t.step("an Edit whose result comes later, out of order, and an error", () => {
    const f = parseTranscript(
      [
        rec("assistant", [use("1", "Edit", { file_path: "/p/a.ts" })]),
        rec("assistant", [use("2", "Edit", { file_path: "/p/b.ts" })]),
        rec("user", [res("2"), res("1", true)]),
      ].join("\n"),
      { root: "/p" },
    );
    assert.deepEqual(paths(f), ["b.ts"]);
    assert.equal(f.files[0].line, 2);
  });
  await t.step("a call never answered counts; an AskUserQuestion never answered is open", () => {
    const f = parseTranscript(
      [
        rec("assistant", [use("1", "Write", { file_path: "/p/x/../c.ts" })]),
        rec("assistant", [use("2", "AskUserQuestion", { questions: [{ question: "A or B?" }] })]),
      ].join("\n"),
      { root: "/p/" },
    );
    assert.deepEqual(paths(f), ["c.ts"]);
    assert.deepEqual(f.questions, [{ text: "A or B?", line: 2 }]);
  });
  await t.step("TaskUpdate to deleted removes; a failed TaskCreate makes no task", () => {
    const f = parseTranscript(
      [
        rec("assistant", [use("1", "TaskCreate", { subject: "One" })]),
        rec("user", [res("1", false, "Task #7 created successfully: One")]),
        rec("assistant", [use("2", "TaskCreate", { subject: "Two" })]),
        rec("user", [res("2", true, "boom")]),
        rec("assistant", [use("3", "TaskCreate", { subject: "Three" })]),
        rec("user", [res("3")], { toolUseResult: { task: { id: "8", subject: "Three" } } }),
        rec("assistant", [use("4", "TaskUpdate", { taskId: "7", status: "deleted" })]),
        rec("user", [res("4")]),
        rec("assistant", [use("5", "TaskUpdate", { taskId: "8", status: "completed" })]),
        rec("user", [res("5", true, "no")]),
      ].join("\n"),
      { root: "/p" },
    );
    assert.deepEqual(f.tasks.map((x) => [x.id, x.subject, x.status]), [["8", "Three", "pending"]]);
  });
  await t.step("a closing question followed by a tool call is not a closing question", () => {
    const f = parseTranscript(
      [
        rec("assistant", [{ type: "text", text: "Hmm, is that right?" }]),
        rec("assistant", [use("1", "Read", { file_path: "/p/a" })]),
        rec("user", [res("1")]),
        rec("assistant", [{ type: "text", text: "Done." }]),
        rec("user", "Now something else entirely."),
      ].join("\n"),
      { root: "/p" },
    );
    assert.deepEqual(f.questions, []);
  });
  await t.step("a message with a tool result is no request, text blocks beside it or not", () => {
    const f = parseTranscript(
      [
        rec("user", "Fix the parser."),
        rec("assistant", [use("1", "Edit", { file_path: "/p/a.ts" })]),
        // Claude Code puts an interruption notice or hook output beside a result: no prompt.
        rec("user", [{ type: "text", text: "Also do X." }, res("1")]),
        rec("user", [res("9"), { type: "text", text: "And Y." }]),
      ].join("\n"),
      { root: "/p" },
    );
    assert.deepEqual(f.lastRequest, { text: "Fix the parser.", line: 1 });
    assert.deepEqual(paths(f), ["a.ts"]);
  });
  await t.step("record() takes parsed objects; junk shapes are ignored", () => {
    const r = new TranscriptReader({ root: "/p" });
    r.record({ type: "user", message: { content: "hello" } }, 3);
    r.record({ type: "assistant", message: { content: [{ type: "text", text: 7 }] } }, 4);
    r.record({ type: "user", message: { content: [{ type: "text", text: "  " }] } }, 5);
    const f = r.facts();
    assert.deepEqual(f.firstRequest, { text: "hello", line: 3 });
    assert.equal(f.lastRequest!.line, 3);
    assert.equal(f.lines, 5);
  });
});

Deno.test("result lines nothing waits for are not parsed, and the facts are the same", async (t) => {
  await t.step("the fixtures: the facts of every line parsed", async () => {
    const fixtures = ["real/interactive.jsonl", "real/print.jsonl", "hand/older.jsonl"];
    for (const rel of [...fixtures, "hand/hostile.jsonl"]) {
      const text = await Deno.readTextFile(FIXTURES + rel);
      assert.deepEqual(
        parseTranscript(text, { root: ROOT }),
        everyLineParsed(text, { root: ROOT }),
        rel,
      );
    }
  });
  await t.step("a long session's read results go unparsed, its facts unchanged", async () => {
    await using dir = await scratchDir();
    const path = `${dir.path}/session.jsonl`;
    await makeTranscript(path, 1 << 20, { garbageEvery: 3 });
    const text = await Deno.readTextFile(path);
    const skipping = countingParses(() => parseTranscript(text, { root: ROOT }));
    const every = countingParses(() => everyLineParsed(text, { root: ROOT }));
    assert.deepEqual(skipping.value, every.value);
    assert.ok(skipping.value.files.length > 3 && skipping.value.tasks.length === 3);
    // At least the results of the generator's Read calls, which nothing waits for; only results.
    const lines = text.split("\n");
    const results = lines.filter((l) => l.includes('"tool_result"'));
    const reads = results.filter((l) => l.includes('"toolu_read_')).length;
    assert.ok(reads > 40, `read results: ${reads}`);
    const skipped = every.parses - skipping.parses;
    assert.ok(skipped >= reads && skipped < results.length, `skipped ${skipped}`);
  });
  await t.step("lines that only look like results are parsed", () => {
    const cases: {
      name: string;
      lines: string[];
      check: (f: TranscriptFacts) => void;
      /** No header line first: the session id, cwd and start are still unknown. */
      headless?: true;
    }[] = [
      {
        name: "a result for a pending Write in the second block, an error: nothing touched",
        lines: [
          rec("assistant", [use("w1", "Write", { file_path: "/p/a.ts" })]),
          rec("user", [res("r9"), res("w1", true)]),
        ],
        check: (f) => assert.deepEqual(paths(f), []),
      },
      {
        name: "a pending id spelled with an escape: its error result still counts",
        lines: [
          rec("assistant", [use('w"2', "Edit", { file_path: "/p/b.ts" })]),
          rec("user", [res('w"2', true)]),
        ],
        check: (f) => assert.deepEqual(paths(f), []),
      },
      {
        name: "Claude Code's key order (tool_use_id first), the result an error",
        lines: [
          rec("assistant", [use("w3", "Write", { file_path: "/p/c.ts" })]),
          '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"w3",' +
          '"type":"tool_result","content":"no","is_error":true}]}}',
        ],
        check: (f) => assert.deepEqual(paths(f), []),
      },
      {
        name: "a result-shaped object nested before the message: the prompt counts",
        lines: [
          JSON.stringify({
            type: "user",
            meta: { message: { role: "user", content: [res("x")] } },
            message: { role: "user", content: "Ship the decoy fix." },
          }),
        ],
        check: (f) => assert.equal(f.lastRequest?.text, "Ship the decoy fix."),
      },
      {
        name: "a prompt quoting a result record",
        lines: [
          rec("user", '{"type":"user","message":{"role":"user","content":[{"type":"tool_result"'),
        ],
        check: (f) => assert.match(f.lastRequest?.text ?? "", /^\{"type":"user"/),
      },
      {
        name: "an assistant record whose content starts with a result: its text counts",
        lines: [
          JSON.stringify({
            type: "assistant",
            message: { role: "user", content: [res("x"), { type: "text", text: "Said." }] },
          }),
        ],
        check: (f) => assert.equal(f.lastAssistantText?.text, "Said."),
      },
      {
        name: "a result line cut short (inside its content) is counted bad",
        lines: [rec("user", [res("x")]).slice(0, -8)],
        check: (f) => assert.equal(f.badLines, 1),
      },
      {
        name: "results before the header is known still give the header",
        lines: [rec("user", [res("x")], { sessionId: "s0", cwd: "/p/sub" })],
        check: (f) => assert.equal(f.cwd, "/p/sub"),
        headless: true,
      },
    ];
    for (const c of cases) {
      const text = [...(c.headless ? [] : [headerLine("/p")]), ...c.lines].join("\n");
      const f = parseTranscript(text, { root: "/p" });
      assert.deepEqual(f, everyLineParsed(text, { root: "/p" }), c.name);
      c.check(f);
    }
  });
});
