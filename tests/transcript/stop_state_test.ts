import assert from "node:assert/strict";
import { parseTranscript } from "../../lib/transcript/claude.ts";
import { parseCodexTranscript, TURN_ABORTED } from "../../lib/transcript/codex.ts";
import { currentTask, stopState } from "../../lib/transcript/stop_state.ts";
import { type Step, transcriptOf } from "../support/transcript.ts";

const ROOT = "/p";
const of = (steps: Step[]) => stopState(parseTranscript(transcriptOf(ROOT, steps), { root: ROOT }));
const state = (steps: Step[]) => {
  const s = of(steps);
  return [s.state, s.what, s.evidence?.text];
};
const ask: Step = { prompt: "Fix the parser in lib/parse.ts" };
const edit: Step = { tool: "Edit", input: { file_path: "/p/lib/parse.ts" }, result: "ok" };
const user = (content: unknown): Step => ({
  record: { type: "user", message: { role: "user", content } },
});

Deno.test("stopState: the last reply says where the session stopped", async (t) => {
  await t.step("a reply that reports the work done: finished, its sentence quoted", () => {
    assert.deepEqual(state([ask, edit, { say: "Done! The parser handles empty input now." }]), [
      "finished",
      "it reported the work done",
      "Done!",
    ]);
  });
  await t.step("a reply that answers without reporting work: finished, by answering", () => {
    assert.deepEqual(state([ask, { say: "The parser reads one token at a time." }]).slice(0, 2), [
      "finished",
      "it answered and ended its turn",
    ]);
  });
  await t.step("a closing question: waiting, the question quoted", () => {
    assert.deepEqual(state([ask, edit, { say: "Fixed it. Should I also add a test?" }]), [
      "waiting",
      "it asked the user",
      "Should I also add a test?",
    ]);
  });
  await t.step("a reply that says what it does next: in progress", () => {
    for (
      const say of [
        "Parser fixed. Let me run the tests.",
        "Now updating the docs:",
        "The tests are next.",
      ]
    ) {
      assert.equal(of([ask, edit, { say }]).state, "in progress", say);
    }
  });
  await t.step("a reply that says it cannot go on: blocked", () => {
    const s = of([ask, edit, { say: "I can't run the tests: permission denied on /p/build." }]);
    assert.equal(s.state, "blocked");
    assert.equal(s.what, "it said it could not go on");
  });
  await t.step(
    "an error it fixed earlier in the reply is no block: its last paragraph decides",
    () => {
      const say =
        "The first run failed with a permission denied error.\n\nFixed: all tests pass now.";
      assert.equal(of([ask, { say }]).state, "finished");
    },
  );
  await t.step("a reply of only 'OK.': in progress — nothing was done yet", () => {
    assert.equal(of([ask, { say: "OK." }]).state, "in progress");
    // To a request that only parks something, the acknowledgement is the whole answer.
    assert.equal(
      of([{ prompt: "Let's leave the tests for later." }, { say: "Noted." }]).state,
      "finished",
    );
  });
});

Deno.test("stopState: what came after the last reply decides first", async (t) => {
  const done: Step = { say: "Done, the parser is fixed." };
  await t.step("a call after the reply: in progress, the call named", () => {
    assert.deepEqual(state([ask, done, { tool: "Bash", input: { command: "deno test" } }]), [
      "in progress",
      "it stopped mid-work",
      "Bash deno test",
    ]);
  });
  await t.step("a bookkeeping call after the reply (TodoWrite) does not reopen the work", () => {
    assert.equal(
      of([ask, done, { tool: "TodoWrite", input: { todos: [] }, result: "ok" }]).state,
      "finished",
    );
  });
  await t.step("a failed call after the reply: blocked, the error's first lines quoted", () => {
    const s = of([ask, done, {
      tool: "Bash",
      input: { command: "deno test" },
      result: "Exit code 1\nerror: 3 tests failed\nmore",
      error: true,
    }]);
    assert.deepEqual([s.state, s.what, s.evidence?.text], [
      "blocked",
      "a Bash call failed",
      "Exit code 1: error: 3 tests failed",
    ]);
  });
  await t.step("a failed result is read though the reader skips most result lines", () => {
    // With the header complete (a timestamp), results of calls nothing waits for go unparsed.
    const text = transcriptOf(
      ROOT,
      [ask, done, {
        tool: "Bash",
        input: { command: "deno test" },
        result: "Exit code 2",
        error: true,
      }],
      "s",
      "2026-11-30T00:00:00Z",
    );
    assert.equal(stopState(parseTranscript(text, { root: ROOT })).state, "blocked");
  });
  await t.step("a failure, then a later call that went on: in progress, not blocked", () => {
    const failed: Step = {
      tool: "Bash",
      input: { command: "deno test" },
      result: "x",
      error: true,
    };
    assert.equal(of([ask, failed, edit]).state, "in progress");
  });
  await t.step("a failure, then a reply that reports it fixed: finished", () => {
    const failed: Step = {
      tool: "Bash",
      input: { command: "deno test" },
      result: "x",
      error: true,
    };
    assert.equal(of([ask, failed, edit, { say: "Fixed: the tests pass." }]).state, "finished");
  });
  await t.step("an AskUserQuestion left unanswered: waiting, its question quoted", () => {
    const s = of([ask, {
      tool: "AskUserQuestion",
      input: { questions: [{ question: "Which locale first?" }] },
    }]);
    assert.deepEqual([s.state, s.evidence?.text], ["waiting", "Which locale first?"]);
  });
  await t.step("a substantive request with no answer yet: in progress; a 'thanks' is none", () => {
    assert.deepEqual(state([ask, done, { prompt: "Now port the tests to Deno." }]).slice(0, 2), [
      "in progress",
      "the last request was not answered yet",
    ]);
    assert.equal(of([ask, done, { prompt: "thanks!" }]).state, "finished");
  });
  await t.step("nothing but a request: in progress; nothing at all: unclear", () => {
    assert.equal(of([ask]).state, "in progress");
    assert.equal(of([]).state, "unclear");
  });
});

Deno.test("stopState: the client's own records", async (t) => {
  const working: Step = { tool: "Edit", input: { file_path: "/p/lib/parse.ts" } };
  await t.step("the user stopped the turn: in progress, at the call it was on", () => {
    const s = of([ask, working, user([{ type: "text", text: "[Request interrupted by user]" }])]);
    assert.deepEqual([s.state, s.what, s.evidence?.text], [
      "in progress",
      "the user stopped the turn mid-work",
      "Edit /p/lib/parse.ts",
    ]);
  });
  await t.step("the user refused a call: blocked", () => {
    const s = of([ask, {
      tool: "Edit",
      input: { file_path: "/p/lib/parse.ts" },
      result: "The user doesn't want to proceed with this tool use. The tool use was rejected.",
      error: true,
    }, user([{ type: "text", text: "[Request interrupted by user for tool use]" }])]);
    assert.deepEqual([s.state, s.what], ["blocked", "the user refused the Edit call"]);
  });
  await t.step("an API error ended the turn: blocked, the client's message quoted", () => {
    const s = of([ask, edit, {
      record: {
        type: "assistant",
        isApiErrorMessage: true,
        message: {
          role: "assistant",
          model: "<synthetic>",
          content: [{ type: "text", text: "API Error: 529 Overloaded" }],
        },
      },
    }]);
    assert.deepEqual([s.state, s.evidence?.text], ["blocked", "API Error: 529 Overloaded"]);
  });
  await t.step("a text the client wrote in the model's place is no reply", () => {
    const synthetic: Step = {
      record: {
        type: "assistant",
        message: {
          role: "assistant",
          model: "<synthetic>",
          content: [{ type: "text", text: "No response requested." }],
        },
      },
    };
    assert.deepEqual(state([ask, { say: "Done, all fixed." }, synthetic]), [
      "finished",
      "it reported the work done",
      "Done, all fixed.",
    ]);
  });
  await t.step("the user's own shell command came last: unclear", () => {
    const s = of([ask, { say: "Done." }, user("<bash-input>deno test</bash-input>")]);
    assert.deepEqual([s.state, s.evidence?.text], ["unclear", "!deno test"]);
  });
});

Deno.test("stopState: Codex's rollout", async (t) => {
  const rec = (type: string, payload: unknown) =>
    JSON.stringify({ timestamp: "2026-11-30T00:00:00Z", type, payload });
  const head = [
    rec("session_meta", { id: "s", cwd: ROOT }),
    rec("response_item", {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "run the tests" }],
    }),
    rec("response_item", {
      type: "function_call",
      name: "exec_command",
      call_id: "c1",
      arguments: JSON.stringify({ cmd: ["deno", "test"] }),
    }),
  ];
  const read = (lines: string[]) =>
    stopState(parseCodexTranscript(lines.join("\n"), { root: ROOT }));
  await t.step("a failed command: blocked, with its exit code", () => {
    const s = read([
      ...head,
      rec("response_item", {
        type: "function_call_output",
        call_id: "c1",
        output: "Exit code: 1\nWall time: 1s\nOutput:\nerror: 2 failed",
      }),
    ]);
    assert.deepEqual([s.state, s.what, s.evidence?.text], [
      "blocked",
      "a exec_command call failed",
      "Exit code 1: error: 2 failed",
    ]);
  });
  await t.step("a command that ran, no reply: in progress", () => {
    const s = read([
      ...head,
      rec("response_item", {
        type: "function_call_output",
        call_id: "c1",
        output: "Exit code: 0\nok",
      }),
    ]);
    assert.deepEqual([s.state, s.evidence?.text], ["in progress", "exec_command deno test"]);
  });
  await t.step("<turn_aborted>: the user stopped it", () => {
    const s = read([
      ...head,
      rec("response_item", {
        type: "message",
        role: "user",
        content: [{
          type: "input_text",
          text: "<turn_aborted>\nThe user interrupted.\n</turn_aborted>",
        }],
      }),
    ]);
    assert.equal(s.state, "in progress");
    assert.equal(s.what, "the user stopped the turn mid-work");
    assert.ok(TURN_ABORTED.length > 0);
  });
  await t.step("an error event: blocked", () => {
    const s = read([...head, rec("event_msg", { type: "error", message: "stream disconnected" })]);
    assert.deepEqual([s.state, s.evidence?.text], ["blocked", "stream disconnected"]);
  });
});

Deno.test("currentTask: the request that started the task under way", async (t) => {
  const task = (steps: Step[]) =>
    currentTask(parseTranscript(transcriptOf(ROOT, steps), { root: ROOT }))?.text;
  await t.step("a request after a finished turn starts a task", () => {
    assert.equal(
      task([{ prompt: "Write docs/greet.md" }, { say: "Written and committed." }, {
        prompt: "Now add the i18n table",
      }]),
      "Now add the i18n table",
    );
  });
  await t.step(
    "a request typed mid-work, or answering a question, steers the task under way",
    () => {
      assert.equal(
        task([ask, { say: "Let me fix the tokenizer first:" }, {
          prompt: "Use the library's visible flag instead",
        }]),
        "Fix the parser in lib/parse.ts",
      );
      assert.equal(
        task([ask, { say: "Should I keep the old API?" }, { prompt: "No, drop the old API" }]),
        "Fix the parser in lib/parse.ts",
      );
    },
  );
  await t.step("a 'thanks' is no task", () => {
    assert.equal(
      task([ask, { say: "Done." }, { prompt: "thanks!" }]),
      "Fix the parser in lib/parse.ts",
    );
  });
});
