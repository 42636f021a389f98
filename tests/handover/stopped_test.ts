import assert from "node:assert/strict";
import { nextFromState, STOPPED_QUOTE_MAX, whereItStopped } from "../../lib/handover/stopped.ts";
import { REPORTED_DONE, type StopState } from "../../lib/transcript/stop_state.ts";
import { EARLIER_LISTED, goalLines } from "../../lib/handover/recover.ts";
import type { TranscriptFacts } from "../../lib/transcript/facts.ts";

const request = { text: "Add the cache to lib/cache.ts", line: 3 };

Deno.test("whereItStopped: the request as typed with its line, the state with its evidence", async (t) => {
  await t.step("both lines", () => {
    assert.deepEqual(
      whereItStopped({
        state: "finished",
        what: REPORTED_DONE,
        evidence: { text: "Done.", line: 9 },
        request,
      }),
      [
        "- Last request (line 3): “Add the cache to lib/cache.ts”",
        "- State: finished — it reported the work done: “Done.” (line 9)",
      ],
    );
  });
  await t.step("no request typed; no evidence", () => {
    assert.deepEqual(whereItStopped({ state: "unclear", what: "nothing" }), [
      "- Last request: none typed",
      "- State: unclear — nothing",
    ]);
  });
  await t.step("a long request is cut at the quote's limit, on one line", () => {
    const long = "word ".repeat(100);
    const line =
      whereItStopped({ state: "unclear", what: "x", request: { text: long, line: 1 } })[0];
    assert.ok(line.length <= "- Last request (line 1): “”".length + STOPPED_QUOTE_MAX, line);
    assert.ok(!line.includes("\n"));
  });
});

Deno.test("nextFromState: the next step follows from the state, never 'continue' finished work", async (t) => {
  const ev = { text: "All tests pass.", line: 9 };
  const cases: [StopState, RegExp][] = [
    [
      { state: "finished", what: REPORTED_DONE, evidence: ev, request },
      /^The last request was reported done \(“All tests pass\.”, line 9\): verify .* ask the user for the next task\.$/,
    ],
    [
      { state: "finished", what: "it answered and ended its turn", evidence: ev, request },
      /^The agent's last reply ended its turn .*check that it settled the request \(the task: “Add the cache/,
    ],
    [
      {
        state: "in progress",
        what: "it stopped mid-work",
        evidence: { text: "Edit lib/cache.ts", line: 8 },
        request,
      },
      /^Carry on with the task: “Add the cache to lib\/cache\.ts” — it stopped mid-work at “Edit lib\/cache\.ts” \(line 8\)/,
    ],
    [
      {
        state: "waiting",
        what: "it asked the user",
        evidence: { text: "LRU or LFU?", line: 7 },
        request,
      },
      /^The agent was waiting for the user's answer to “LRU or LFU\?” \(line 7\): put the question to the user/,
    ],
    [
      {
        state: "blocked",
        what: "a Bash call failed",
        evidence: { text: "Exit code 1: boom", line: 6 },
        request,
      },
      /^Fix what stopped it first: “Exit code 1: boom” \(line 6\) — a Bash call failed; then carry on/,
    ],
    [
      { state: "unclear", what: "the user ran a shell command of their own last", request },
      /^Where the session stopped is unclear from the transcript \(the user ran a shell command.*\): ask the user what to do next/,
    ],
  ];
  for (const [s, want] of cases) {
    await t.step(`${s.state}: ${s.what}`, () => {
      const next = nextFromState(s);
      assert.match(next, want);
      assert.doesNotMatch(next, /Continue with/);
    });
  }
  await t.step("the task the session was on, when given, is the one carried on", () => {
    const task = { text: "Write docs/greet.md", line: 2 };
    assert.match(
      nextFromState(cases[2][0], task),
      /^Carry on with the task: “Write docs\/greet\.md”/,
    );
  });
});

Deno.test("goalLines: the current task, then the earlier requests as done", async (t) => {
  const none: TranscriptFacts = { path: "/t", files: [], tasks: [], questions: [], deferrals: [] };
  const asks = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ text: `Task number ${i + 1}`, line: i + 1 }));
  const facts = (recent: { text: string; line: number }[]): TranscriptFacts => ({
    ...none,
    recentRequests: recent,
    firstSubstantive: recent[0],
    lastSubstantive: recent.at(-1),
    lastRequest: recent.at(-1),
  });
  await t.step("a 'thanks' between tasks is no task done", () => {
    const lines = goalLines(
      facts([{ text: "Task one", line: 1 }, { text: "thanks!", line: 2 }, {
        text: "Task two",
        line: 3,
      }]),
    );
    assert.deepEqual(lines, [
      "Task two (transcript L3)",
      "",
      "Done earlier in the session:",
      "- Task one (transcript L1)",
    ]);
  });
  await t.step(`${EARLIER_LISTED} earlier requests: all listed`, () => {
    const lines = goalLines(facts(asks(EARLIER_LISTED + 1)));
    assert.equal(lines.filter((l) => l.startsWith("- Task")).length, EARLIER_LISTED);
    assert.ok(!lines.some((l) => l.includes("see the transcript")));
  });
  await t.step(
    `${EARLIER_LISTED + 1} earlier requests: the newest listed, the rest counted`,
    () => {
      const lines = goalLines(facts(asks(EARLIER_LISTED + 2)));
      assert.equal(lines.filter((l) => l.startsWith("- Task")).length, EARLIER_LISTED);
      assert.ok(lines.includes("- (1 earlier request(s): see the transcript)"), lines.join("\n"));
      assert.ok(!lines.includes("- Task number 1 (transcript L1)"));
    },
  );
  await t.step("one request: the goal alone", () => {
    assert.deepEqual(goalLines(facts(asks(1))), ["Task number 1 (transcript L1)"]);
  });
});
