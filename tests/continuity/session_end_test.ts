import assert from "node:assert/strict";
import { answerSessionEnd } from "../../lib/continuity/session_end.ts";
import { DEFAULT_OPTIONS, parsePayload } from "../../lib/hook/input.ts";
import { splitFrontMatter } from "../../lib/store/front_matter.ts";
import { readLatest, restoredMarker } from "../../lib/store/latest.ts";
import { join } from "../../lib/fs/path.ts";
import type { Store } from "../../lib/store/store.ts";
import { NOW, scratchProject } from "../support/scratch.ts";
import type { Step } from "../support/transcript.ts";
import {
  docsIn,
  endPayload,
  minutesAgo,
  SESSION,
  timedTranscript,
  workSteps,
  writeSessionDump,
} from "./_fixture.ts";

/** This session's dump 3 minutes ago, and a transcript: work before it, `after` a minute ago. */
async function dumpThen(p: { root: string; store: Store }, after: Step[]) {
  const dump = await writeSessionDump(p.store, "mine", { created: minutesAgo(3) });
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(
    t,
    timedTranscript(p.root, [
      { at: minutesAgo(5), steps: workSteps() },
      { at: minutesAgo(1), steps: after },
    ]),
  );
  return { dump, t };
}

async function end(root: string, transcript: string, extra: Record<string, unknown> = {}) {
  const payload = parsePayload(JSON.stringify(endPayload(root, transcript, extra)))!;
  return await answerSessionEnd(payload, DEFAULT_OPTIONS, {}, NOW.getTime());
}

Deno.test("SessionEnd without a dump drafts one, marked as automatic, and points LATEST at it", async () => {
  await using p = await scratchProject();
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(t, timedTranscript(p.root, [{ at: minutesAgo(5), steps: workSteps() }]));
  const r = await end(p.root, t);
  assert.equal(r.stdout, undefined);
  assert.match(r.reason, /^drafted "detached-.*-draft"; LATEST → /);
  const [name] = docsIn(p.store);
  assert.match(name, /-draft\.md$/);
  const text = await Deno.readTextFile(join(p.store.dir, name));
  const f = splitFrontMatter(text)!.fields;
  assert.equal(f.draft, "auto");
  assert.equal(f.session, SESSION);
  assert.equal(f.consumed, "false");
  assert.match(text, /## Goal\n\nAdd input validation to the signup form/);
  // "…; the tests are next." then "thanks!": in progress, and the task is not the thanks.
  assert.match(text, /- Last request \(line \d+\): “thanks!”/);
  assert.match(
    text,
    /- State: in progress — it said what it does next: “Validation is in; the tests are next\.”/,
  );
  assert.match(text, /Carry on with the task: “Add input validation to the signup form”/);
  assert.doesNotMatch(text, /Carry on with the task: “thanks/);
  assert.match(text, /`src\/app\.ts`/);
  assert.match(text, /write-the-validation-tests/);
  assert.equal(readLatest(p.store), name.slice(0, -3));
});

Deno.test("a draft of a session that started from a handover names it as its parent", async () => {
  await using p = await scratchProject();
  await Deno.writeTextFile(restoredMarker(p.store.dir, SESSION)!, "where-it-began\n");
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(t, timedTranscript(p.root, [{ at: minutesAgo(5), steps: workSteps() }]));
  assert.match((await end(p.root, t)).reason, /^drafted /);
  const [name] = docsIn(p.store);
  const f = splitFrontMatter(await Deno.readTextFile(join(p.store.dir, name)))!.fields;
  assert.equal(f.draft, "auto");
  assert.equal(f.parent, "where-it-began");
});

Deno.test("SessionEnd after a dump and no more work writes nothing", async () => {
  await using p = await scratchProject();
  const { dump, t } = await dumpThen(p, [{ say: "Dumped. Now /clear." }]);
  const r = await end(p.root, t);
  assert.match(r.reason, /dumped "mine" and did no work after/);
  assert.deepEqual(docsIn(p.store), ["mine.md"]);
  assert.equal(await Deno.readTextFile(join(p.store.dir, "mine.md")), dump);
});

Deno.test("work in the dump's own second came before it: nothing 'Since the dump'", async () => {
  await using p = await scratchProject();
  // `created` is cut to the second; the dump finished within it, after this work.
  const created = minutesAgo(3);
  const dump = await writeSessionDump(p.store, "mine", { created });
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(
    t,
    timedTranscript(p.root, [
      { at: minutesAgo(5), steps: workSteps() },
      {
        at: new Date(created.getTime() + 900),
        steps: [{ tool: "Edit", input: { file_path: "src/footer.ts" }, result: "ok" }],
      },
    ]),
  );
  const r = await end(p.root, t);
  assert.match(r.reason, /dumped "mine" and did no work after/);
  assert.equal(await Deno.readTextFile(join(p.store.dir, "mine.md")), dump);
});

Deno.test("SessionEnd after a dump and more work appends 'Since the dump' once, body kept", async () => {
  await using p = await scratchProject();
  const { dump, t } = await dumpThen(p, [
    { prompt: "also fix the footer" },
    { tool: "Edit", input: { file_path: "src/footer.ts" }, result: "ok" },
    {
      tool: "Bash",
      input: { command: 'git commit -am "Fix the footer"' },
      result: "[main 1a2b3c] Fix the footer",
    },
    {
      tool: "TaskCreate",
      input: { subject: "Check the footer on mobile" },
      result: "Task #2",
    },
  ]);
  const r = await end(p.root, t);
  assert.match(r.reason, /appended "Since the dump" to "mine"/);
  const text = await Deno.readTextFile(join(p.store.dir, "mine.md"));
  const at = text.indexOf("## Since the dump");
  const closing = text.indexOf("## Dropped deliberately", at);
  assert.ok(at > 0 && closing > at, "the section comes before the closing Dropped deliberately");
  assert.equal(text.slice(0, at) + text.slice(closing), dump, "the agent's text byte for byte");
  const since = text.slice(at, closing);
  assert.match(since, /Files touched: `src\/footer\.ts`/);
  assert.doesNotMatch(since, /src\/app\.ts/, "a file touched before the dump is not after it");
  assert.match(since, /Commits: "Fix the footer"/);
  assert.match(since, /Tasks: Check the footer on mobile \(pending\)/);
  assert.deepEqual(docsIn(p.store), ["mine.md"]);
  const again = await end(p.root, t);
  assert.match(again.reason, /already says what came after/);
  assert.equal(await Deno.readTextFile(join(p.store.dir, "mine.md")), text);
});

Deno.test("SessionEnd of an empty or acknowledgement-only session writes nothing", async () => {
  await using p = await scratchProject();
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(
    t,
    timedTranscript(p.root, [{
      at: minutesAgo(2),
      steps: [{ prompt: "ok" }, { say: "Hello! What shall we do?" }, { prompt: "thanks" }],
    }]),
  );
  assert.match((await end(p.root, t)).reason, /nothing worth carrying/);
  await Deno.writeTextFile(t, "");
  assert.match((await end(p.root, t)).reason, /nothing worth carrying/);
  assert.deepEqual(docsIn(p.store), []);
  assert.equal(readLatest(p.store), undefined);
});

Deno.test("a draft never replaces or shadows a dump: LATEST stays on an unconsumed dump", async () => {
  await using p = await scratchProject();
  // Another session's dump, not yet restored.
  const other = await writeSessionDump(p.store, "theirs", { session: "other-session" });
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(t, timedTranscript(p.root, [{ at: minutesAgo(5), steps: workSteps() }]));
  const r = await end(p.root, t);
  assert.match(r.reason, /LATEST stays on the unconsumed "theirs"/);
  assert.equal(readLatest(p.store), "theirs");
  assert.equal(await Deno.readTextFile(join(p.store.dir, "theirs.md")), other);
  assert.equal(docsIn(p.store).length, 2);
});

Deno.test("a draft takes LATEST from a consumed dump or an older draft", async () => {
  await using p = await scratchProject();
  await writeSessionDump(p.store, "old", { session: "other", consumed: true });
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(t, timedTranscript(p.root, [{ at: minutesAgo(5), steps: workSteps() }]));
  await end(p.root, t);
  assert.match(readLatest(p.store)!, /-draft$/);
});

Deno.test("a draft takes LATEST from an older unconsumed draft", async () => {
  await using p = await scratchProject();
  const older = await writeSessionDump(p.store, "older-draft", { session: "other", draft: true });
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(t, timedTranscript(p.root, [{ at: minutesAgo(5), steps: workSteps() }]));
  const r = await end(p.root, t);
  assert.match(r.reason, /^drafted ".*-draft"; LATEST → /);
  const latest = readLatest(p.store)!;
  assert.match(latest, /-draft$/);
  assert.notEqual(latest, "older-draft");
  assert.equal(await Deno.readTextFile(join(p.store.dir, "older-draft.md")), older, "kept");
});

Deno.test("a consumed dump of this session: no draft, nothing appended", async () => {
  await using p = await scratchProject();
  const dump = await writeSessionDump(p.store, "mine", { consumed: true });
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(t, timedTranscript(p.root, [{ at: minutesAgo(1), steps: workSteps() }]));
  assert.match((await end(p.root, t)).reason, /already consumed/);
  assert.equal(await Deno.readTextFile(join(p.store.dir, "mine.md")), dump);
  assert.deepEqual(docsIn(p.store), ["mine.md"]);
});

Deno.test("a second SessionEnd of a session that was drafted writes nothing more", async () => {
  await using p = await scratchProject();
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(t, timedTranscript(p.root, [{ at: minutesAgo(5), steps: workSteps() }]));
  await end(p.root, t);
  assert.match((await end(p.root, t)).reason, /draft ".*" exists/);
  assert.equal(docsIn(p.store).length, 1);
});

Deno.test("a transcript of another project drafts nothing", async () => {
  await using p = await scratchProject();
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(
    t,
    timedTranscript("/somewhere/else", [{ at: minutesAgo(5), steps: workSteps() }]),
  );
  assert.match((await end(p.root, t)).reason, /another project/);
  assert.deepEqual(docsIn(p.store), []);
});

Deno.test("a missing transcript, a missing path, a bad session id: nothing, with a reason", async () => {
  await using p = await scratchProject();
  assert.match((await end(p.root, join(p.root, "nope.jsonl"))).reason, /cannot read/);
  assert.match((await end(p.root, "")).reason, /no transcript_path/);
  assert.match(
    (await end(p.root, join(p.root, "t.jsonl"), { session_id: "../x\ny" })).reason,
    /no usable session_id/,
  );
  assert.match(
    (await end(p.root, join(p.root, "t.jsonl"), { hook_event_name: "SessionStart" })).reason,
    /not a SessionEnd/,
  );
  assert.deepEqual(docsIn(p.store), []);
});

Deno.test("a truncated or binary transcript still drafts what its good lines say", async () => {
  await using p = await scratchProject();
  const t = join(p.root, "t.jsonl");
  const good = timedTranscript(p.root, [{ at: minutesAgo(5), steps: workSteps() }]);
  await Deno.writeFile(
    t,
    new Uint8Array([
      ...new TextEncoder().encode(good),
      0,
      255,
      254,
      10,
      ...new TextEncoder().encode('{"type":"user","message":{"content":"cut'),
    ]),
  );
  const r = await end(p.root, t);
  assert.match(r.reason, /^drafted/);
});

Deno.test("parsePayload keeps SessionEnd's reason", () => {
  assert.equal(
    parsePayload('{"cwd":"/p","reason":"prompt_input_exit"}')!.reason,
    "prompt_input_exit",
  );
  assert.equal("reason" in parsePayload('{"cwd":"/p","reason":5}')!, false);
});
