import assert from "node:assert/strict";
import {
  hasSince,
  lineStamp,
  mayBeWork,
  SINCE_TITLE,
  TAIL_BYTES,
  workInTail,
} from "../../lib/continuity/glance.ts";
import { commitOf, readAround } from "../../lib/continuity/after.ts";
import { sinceSection } from "../../lib/continuity/since_dump.ts";
import { join } from "../../lib/fs/path.ts";
import { scratchDir } from "../support/scratch.ts";
import { minutesAgo, timedTranscript, workSteps } from "./_fixture.ts";

Deno.test("lineStamp reads the record's own timestamp, the last one on the line", () => {
  assert.equal(
    lineStamp('{"x":"\\"timestamp\\":\\"1999\\"","timestamp":"2026-11-30T12:00:00.500Z"}'),
    Date.parse("2026-11-30T12:00:00.500Z"),
  );
  assert.equal(lineStamp('{"type":"user"}'), undefined);
  assert.equal(lineStamp('{"timestamp":"not a date"}'), undefined);
});

Deno.test("mayBeWork: writing tools, tasks and git commits; not reads or talk", () => {
  assert.ok(mayBeWork('{"type":"tool_use","name":"Edit"}'));
  assert.ok(mayBeWork('{"type":"tool_use","name":"Bash","input":{"command":"git commit -m x"}}'));
  assert.ok(mayBeWork('{"type":"tool_use","name":"Agent"}'), "a subagent may write");
  assert.ok(mayBeWork('{"type":"tool_use","name":"Task"}'));
  assert.ok(!mayBeWork('{"type":"tool_use","name":"Read"}'));
  assert.ok(!mayBeWork('{"type":"text","text":"I will Edit and git commit"}'));
});

Deno.test("workInTail: after the moment, before it, and a tail too short to tell", async () => {
  await using d = await scratchDir();
  const t = join(d.path, "t.jsonl");
  const dump = minutesAgo(3).getTime();
  await Deno.writeTextFile(
    t,
    timedTranscript("/p", [
      { at: minutesAgo(5), steps: workSteps() },
      { at: minutesAgo(2), steps: [{ say: "done" }] },
    ]),
  );
  assert.equal(workInTail(t, dump), false);
  await Deno.writeTextFile(
    t,
    timedTranscript("/p", [{ at: minutesAgo(1), steps: workSteps("late.ts") }]),
    { append: true },
  );
  assert.equal(workInTail(t, dump), true);
  // A tail of bulk after the moment that never reaches back past it: the whole file decides.
  const bulk = JSON.stringify({ type: "progress", x: "y".repeat(1000), timestamp: "2026-12-01" });
  await Deno.writeTextFile(t, (bulk + "\n").repeat(Math.ceil(TAIL_BYTES / 1000) + 10));
  assert.equal(workInTail(t, dump), undefined);
});

Deno.test("readAround: the facts at the moment and at the end, and the commits after", async () => {
  await using d = await scratchDir();
  const t = join(d.path, "t.jsonl");
  await Deno.writeTextFile(
    t,
    timedTranscript("/p", [
      { at: minutesAgo(5), steps: workSteps() },
      {
        at: minutesAgo(1),
        steps: [{ tool: "Bash", input: { command: "git commit -m 'Late fix'" }, result: "ok" }],
      },
    ]),
  );
  const around = (await readAround(t, "/p", minutesAgo(3).getTime()))!;
  assert.equal(around.before.files.length, 1);
  assert.deepEqual(around.commits.map((c) => c.text), ["Late fix"]);
  assert.equal(await readAround(t, "/p", minutesAgo(0).getTime()), undefined);
  assert.equal(commitOf({ type: "assistant", message: { content: "x" } }), undefined);
  assert.equal(
    commitOf({
      type: "assistant",
      message: { content: [{ type: "tool_use", name: "Bash", input: { command: "git commit" } }] },
    }),
    "git commit",
  );
});

Deno.test("hasSince: a '## Since the dump' line of its own", () => {
  for (const text of [`## ${SINCE_TITLE}\n`, `x\n## ${SINCE_TITLE} \t\r\nmore`]) {
    assert.ok(hasSince(text), JSON.stringify(text));
  }
  for (const text of [`x ## ${SINCE_TITLE}\n`, `## ${SINCE_TITLE}`, `## ${SINCE_TITLE}s\n`]) {
    assert.ok(!hasSince(text), JSON.stringify(text));
  }
});

Deno.test("readAround: what a subagent did after the moment counts, from its own transcript", async () => {
  await using d = await scratchDir();
  const sid = "sess-1";
  const t = join(d.path, `${sid}.jsonl`);
  await Deno.writeTextFile(
    t,
    timedTranscript("/p", [
      { at: minutesAgo(5), steps: workSteps() },
      { at: minutesAgo(1), steps: [{ say: "Waiting for the agent." }] },
    ], sid),
  );
  const subagents = join(d.path, sid, "subagents");
  await Deno.mkdir(subagents, { recursive: true });
  const side = (at: Date, file: string) =>
    timedTranscript("/p", [{
      at,
      steps: [{ tool: "Write", input: { file_path: file, content: "" }, result: "ok" }],
    }], sid).replaceAll('"isSidechain":false', '"isSidechain":true');
  await Deno.writeTextFile(
    join(subagents, "agent-a1.jsonl"),
    side(minutesAgo(4), "src/early.ts") + side(minutesAgo(1), "src/late.ts").replaceAll(
      "toolu_p0_",
      "toolu_q0_",
    ),
  );
  const around = (await readAround(t, "/p", minutesAgo(3).getTime()))!;
  const section = sinceSection(around)!;
  assert.match(section, /src\/late\.ts/);
  assert.doesNotMatch(section, /src\/early\.ts/, "before the moment: not since the dump");
});
