import assert from "node:assert/strict";
import {
  hasSince,
  lineStamp,
  mayBeWork,
  readTail,
  sessionDocs,
  sessionOf,
  SINCE_TITLE,
  TAIL_BYTES,
  workInTail,
} from "../../lib/continuity/glance.ts";
import { sessionField, splitFrontMatter } from "../../lib/store/front_matter.ts";
import { commitOf, readAround } from "../../lib/continuity/after.ts";
import { sinceSection } from "../../lib/continuity/since.ts";
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

/** A generator of strings over `alphabet`, seeded. */
function strings(seed: number, alphabet: string[], longest: number): () => string {
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return () => {
    let s = "";
    for (let n = Math.floor(next() * (longest + 1)); n > 0; n--) {
      s += alphabet[Math.floor(next() * alphabet.length)];
    }
    return s;
  };
}

Deno.test("sessionOf is lib/store/front_matter.ts sessionField, without the regex", () => {
  const gen = strings(11, [..."aZ09_.:-/ \n\u00e9", "x".repeat(40)], 8);
  let usable = 0;
  for (let i = 0; i < 20_000; i++) {
    const id = gen();
    assert.equal(sessionOf(id), sessionField(id), JSON.stringify(id));
    if (sessionOf(id) !== undefined) usable++;
  }
  assert.ok(usable > 1_000, `only ${usable} usable ids generated`);
  for (const id of [undefined, "", "a".repeat(128), "a".repeat(129), "-a", "a\n"]) {
    assert.equal(sessionOf(id), sessionField(id), JSON.stringify(id));
  }
});

Deno.test("hasSince: a '## Since the dump' line, as the regex reads it", () => {
  const re = new RegExp(`(^|\\n)## ${SINCE_TITLE}[ \\t]*\\r?\\n`);
  const gen = strings(
    5,
    [`## ${SINCE_TITLE}`, "## Since the dum", "\n", "\r", " ", "\t", "x", "#"],
    6,
  );
  let found = 0;
  for (let i = 0; i < 50_000; i++) {
    const text = gen();
    assert.equal(hasSince(text), re.test(text), JSON.stringify(text));
    if (hasSince(text)) found++;
  }
  assert.ok(found > 500, `only ${found} texts with the section generated`);
});

Deno.test("sessionDocs: another shape of front matter needs the general reader", async () => {
  await using d = await scratchDir();
  const general = (t: string) => splitFrontMatter(t)?.fields;
  const doc = (slug: string, created: string, extra = "") =>
    `---\nslug: ${slug}\ncreated: ${created}\nconsumed: false\nsession: s-1\n${extra}---\n\nbody\n`;
  Deno.writeTextFileSync(join(d.path, "old.md"), doc("old", "2026-11-30T10:00:00Z"));
  Deno.writeTextFileSync(join(d.path, "new.md"), doc("new", "2026-11-30T11:00:00Z"));
  Deno.writeTextFileSync(
    join(d.path, "other.md"),
    doc("other", "2026-11-30T12:00:00Z").replace("s-1", "s-2"),
  );
  assert.deepEqual(sessionDocs(d.path, "s-1", undefined)?.map((x) => x.slug), ["new", "old"]);
  assert.deepEqual(sessionDocs(d.path, "s-1", general).map((x) => x.slug), ["new", "old"]);
  // A quoted value: not dump's shape, so only the general reader may say whose it is.
  Deno.writeTextFileSync(join(d.path, "quoted.md"), doc("quoted", '"2026-11-30T12:00:00Z"'));
  assert.equal(sessionDocs(d.path, "s-1", undefined), undefined);
  // Unquoted, its `created` is the newest.
  const all = sessionDocs(d.path, "s-1", general).map((x) => x.slug);
  assert.deepEqual(all, ["quoted", "new", "old"]);
  // Another session's document of another shape never needs it: the substring test passes it over.
  assert.deepEqual(sessionDocs(d.path, "s-2", undefined)?.map((x) => x.slug), ["other"]);
});

Deno.test("readTail: a short file whole, a long one's tail, or nothing with wholeOnly", async () => {
  await using d = await scratchDir();
  const t = join(d.path, "t.txt");
  Deno.writeTextFileSync(t, "é".repeat(10));
  assert.deepEqual(readTail(t, 20), { text: "é".repeat(10), from: 0 });
  assert.deepEqual(readTail(t, 20, true), { text: "é".repeat(10), from: 0 });
  // é is two bytes: the last 5 bytes start mid-character, decoded as a replacement character.
  assert.deepEqual(readTail(t, 5), { text: "\ufffdéé", from: 15 });
  assert.deepEqual(readTail(t, 5, true), { text: undefined, from: 15 });
  assert.throws(() => readTail(join(d.path, "missing"), 5));
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
