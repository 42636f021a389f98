import assert from "node:assert/strict";
import {
  answersQuestion,
  closingQuestion,
  deferralsIn,
  encodeProjectDir,
  forEachLine,
  isUnfinished,
  locateTranscript,
  normalizePath,
  parseTranscript,
  readTranscript,
  relativeTo,
  transcriptCwd,
  type TranscriptFacts,
  TranscriptReader,
} from "../lib/transcript.ts";

const FIXTURES = new URL("./fixtures/transcripts/", import.meta.url).pathname;
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

Deno.test("pure reader: results join by tool_use_id, errors do not count", async (t) => {
  const rec = (type: string, content: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ type, message: { role: type, content }, ...extra });
  const use = (id: string, name: string, input: unknown) => ({ type: "tool_use", id, name, input });
  const res = (id: string, isError = false, content = "ok") => ({
    type: "tool_result",
    tool_use_id: id,
    content,
    ...(isError ? { is_error: true } : {}),
  });
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

Deno.test("deferral patterns (one place)", async (t) => {
  const yes = [
    "Let's do the docs later.",
    "Park this for now",
    "park the i18n idea",
    "We'll come back to caching",
    "Circle back to the flaky test tomorrow",
    "Do the migration after the API refactor lands",
    "after PR #42 is merged we can clean up",
    "Revisit the naming",
    "Defer the cleanup",
    "not now, first fix the build",
    "put a pin in the benchmark",
    "leave that for the next session",
    "skip it for now",
    "add it to the backlog",
    "keep that on the back burner",
    "the release is on hold",
  ];
  const no = [
    "Fix the parser.",
    "The parking lot service needs a test",
    "Collateral damage is fine",
    "after all, it works",
    "Come here and look at this",
  ];
  await t.step("parks", () => {
    for (const s of yes) assert.equal(deferralsIn(s).length, 1, s);
  });
  await t.step("does not park", () => {
    for (const s of no) {
      assert.deepEqual(deferralsIn(s), [], s);
    }
  });
  await t.step("sentence by sentence", () => {
    assert.deepEqual(deferralsIn("Fix the build. Docs later! Then ship."), ["Docs later!"]);
  });
});

Deno.test("closing questions and whether a reply answers them", async (t) => {
  await t.step("closingQuestion", () => {
    assert.equal(closingQuestion("Done. Shall I go on?"), "Shall I go on?");
    assert.equal(closingQuestion("Line one\n**Want me to push?**"), "Want me to push?");
    assert.equal(closingQuestion("Done."), undefined);
    assert.equal(closingQuestion("Is it x? Yes it is."), undefined);
  });
  await t.step("answersQuestion", () => {
    const q = "Should I also add a --shout flag?";
    assert.ok(answersQuestion(q, "yes please"));
    assert.ok(answersQuestion(q, "No."));
    assert.ok(answersQuestion(q, "OK go"));
    assert.ok(answersQuestion(q, "2"));
    assert.ok(answersQuestion(q, "Add the shout flag, but hidden"));
    assert.ok(!answersQuestion(q, "Now write docs/greet.md describing the module."));
    assert.ok(!answersQuestion(q, "Run the tests"));
  });
});

Deno.test("paths: project folder encoding and relative paths", () => {
  assert.equal(encodeProjectDir("/tmp/x.y"), "-tmp-x-y");
  assert.equal(encodeProjectDir("/home/dev/my_app v2"), "-home-dev-my-app-v2");
  assert.equal(relativeTo("/p/a/b", "/p"), "a/b");
  assert.equal(relativeTo("/pa/b", "/p"), undefined);
  assert.equal(relativeTo("/p/a", "/p/"), "a");
  assert.equal(normalizePath("/a/./b/../c//d"), "/a/c/d");
  assert.equal(normalizePath("C:\\x\\..\\y"), "C:/y");
});

Deno.test("streaming: CRLF, a line longer than a chunk, a multibyte char split by chunks", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const long = "é".repeat(700_000); // 1.4 MB of two-byte chars: crosses the 1 MiB chunk
    const body = `one\r\n${long}\r\n\r\nlast`;
    await Deno.writeTextFile(`${dir}/t.jsonl`, body);
    const got: string[] = [];
    await forEachLine(`${dir}/t.jsonl`, (l) => got.push(l));
    assert.deepEqual(got.map((l) => l.length), [3, long.length, 0, 4]);
    assert.equal(got[1], long);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("locateTranscript: flag, session id, newest of this project, none", async (t) => {
  const home = await Deno.makeTempDir();
  const root = "/work/my.project";
  const folder = `${home}/.claude/projects/-work-my-project`;
  await Deno.mkdir(folder, { recursive: true });
  const line = (cwd: string) => JSON.stringify({ type: "user", cwd, message: { content: "hi" } });
  try {
    await Deno.writeTextFile(`${folder}/aaa.jsonl`, `{"type":"summary"}\n${line(root)}\n`);
    await Deno.writeTextFile(`${folder}/bbb.jsonl`, line("/elsewhere") + "\n");
    await Deno.utime(`${folder}/aaa.jsonl`, 1000, 1000);
    await Deno.utime(`${folder}/bbb.jsonl`, 2000, 2000);
    await t.step("--transcript wins, relative to cwd", async () => {
      const got = await locateTranscript({ transcript: "aaa.jsonl", root, home, cwd: folder });
      assert.deepEqual(got, { path: `${folder}/aaa.jsonl`, how: "flag" });
      const miss = await locateTranscript({ transcript: "/nope.jsonl", root, home, cwd: "/" });
      assert.equal(miss.path, undefined);
      assert.match(miss.reason!, /nope/);
    });
    await t.step("session id", async () => {
      const got = await locateTranscript({ sessionId: "bbb", root, home, cwd: root });
      assert.deepEqual(got, { path: `${folder}/bbb.jsonl`, how: "session" });
    });
    await t.step("newest whose cwd is the project (bbb is newer but elsewhere)", async () => {
      const got = await locateTranscript({ root, home, cwd: root });
      assert.deepEqual(got, { path: `${folder}/aaa.jsonl`, how: "newest" });
      const sub = await locateTranscript({ sessionId: "gone", root, home, cwd: root });
      assert.equal(sub.how, "newest");
    });
    await t.step("CLAUDE_CONFIG_DIR replaces ~/.claude", async () => {
      const got = await locateTranscript({
        root,
        configDir: `${home}/.claude`,
        cwd: root,
      });
      assert.equal(got.path, `${folder}/aaa.jsonl`);
    });
    await t.step("none: a reason, never a throw", async () => {
      const got = await locateTranscript({ root: "/other", home, cwd: "/" });
      assert.equal(got.path, undefined);
      assert.match(got.reason!, /no Claude Code transcripts/);
      const bad = await locateTranscript({ sessionId: "../x", root, home, cwd: "/" });
      assert.match(bad.reason!, /not a session id/);
    });
    await t.step("Claude Code started in a subdirectory: its folder is found too", async () => {
      const subFolder = `${home}/.claude/projects/-work-my-project-pkg-a`;
      await Deno.mkdir(subFolder, { recursive: true });
      await Deno.writeTextFile(`${subFolder}/ccc.jsonl`, line(`${root}/pkg/a`) + "\n");
      await Deno.utime(`${subFolder}/ccc.jsonl`, 3000, 3000);
      const byId = await locateTranscript({ sessionId: "ccc", root, home, cwd: root });
      assert.deepEqual(byId, { path: `${subFolder}/ccc.jsonl`, how: "session" });
      const newest = await locateTranscript({ root, home, cwd: root });
      assert.deepEqual(newest, { path: `${subFolder}/ccc.jsonl`, how: "newest" });
      const excluded = await locateTranscript({ root, home, cwd: root, exclude: "ccc" });
      assert.equal(excluded.path, `${folder}/aaa.jsonl`);
      // A session id from another project entirely is still found by id.
      const other = `${home}/.claude/projects/-elsewhere`;
      await Deno.mkdir(other, { recursive: true });
      await Deno.writeTextFile(`${other}/ddd.jsonl`, line("/elsewhere") + "\n");
      const far = await locateTranscript({ sessionId: "ddd", root, home, cwd: root });
      assert.equal(far.path, `${other}/ddd.jsonl`);
      await Deno.remove(subFolder, { recursive: true });
    });
    await t.step("transcriptCwd reads the first cwd", async () => {
      assert.equal(await transcriptCwd(`${folder}/aaa.jsonl`), root);
      assert.equal(await transcriptCwd(`${folder}/missing.jsonl`), undefined);
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
