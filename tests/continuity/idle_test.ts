import assert from "node:assert/strict";
import { worthCarrying } from "../../lib/continuity/draft.ts";
import { idleSession } from "../../lib/continuity/idle.ts";
import { TAIL_BYTES } from "../../lib/continuity/glance.ts";
import { join } from "../../lib/fs/path.ts";
import { parseTranscript } from "../../lib/transcript/claude.ts";
import { scratchDir } from "../support/scratch.ts";
import type { Step } from "../support/transcript.ts";
import { minutesAgo, timedTranscript, workSteps } from "./_fixture.ts";

Deno.test("idleSession says idle only where the full reading finds nothing worth carrying", async () => {
  await using d = await scratchDir();
  const t = join(d.path, "t.jsonl");
  const cases: [Step[], boolean][] = [
    [[{ prompt: "hi" }, { say: "Hello!" }, { prompt: "thanks" }], true],
    [[{ prompt: "<command-name>/clear</command-name>" }, { prompt: "ok" }], true],
    [[], true],
    [[{ prompt: "fix the login bug" }], false],
    [workSteps(), false],
    [[{ prompt: "ok" }, { tool: "Edit", input: { file_path: "a.ts" }, result: "ok" }], false],
    [[{ prompt: "ok" }, { tool: "TodoWrite", input: { todos: [] }, result: "ok" }], false],
    // What the client wraps around a message is not a request; a subagent's launch may be work.
    [[{ prompt: "<ide_opened_file>The user opened a.ts</ide_opened_file>" }], true],
    [[{ prompt: "<task-notification>done</task-notification>" }, { prompt: "ok" }], true],
    [[{ prompt: "ok" }, { tool: "Agent", input: { prompt: "go" }, result: "Done" }], false],
  ];
  for (const [steps, idle] of cases) {
    const text = timedTranscript("/p", [{ at: minutesAgo(1), steps }]);
    await Deno.writeTextFile(t, steps.length ? text : "");
    assert.equal(idleSession(t), idle, JSON.stringify(steps));
    if (idle) assert.equal(worthCarrying(parseTranscript(text, { root: "/p" })), false);
  }
  // A message still queued at the end is the session's last request.
  const queued = JSON.stringify({
    type: "queue-operation",
    operation: "enqueue",
    content: [{ type: "text", text: "Then deploy it to staging" }],
  }) + "\n";
  await Deno.writeTextFile(t, queued);
  assert.equal(idleSession(t), false);
  assert.equal(worthCarrying(parseTranscript(queued, { root: "/p" })), true);
  await Deno.writeTextFile(t, '{"type":"session_meta"}\n');
  assert.equal(idleSession(t), undefined, "a Codex rollout: its reader decides");
  await Deno.writeTextFile(t, "x".repeat(TAIL_BYTES + 1));
  assert.equal(idleSession(t), undefined, "too long for a quick look");
  assert.throws(() => idleSession(join(d.path, "missing.jsonl")));
});
