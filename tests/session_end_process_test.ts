/**
 * The SessionEnd hook as Claude Code runs it: a process with the registered least privilege
 * (read the project, the hook's lib/ and the transcript's folder; write only the store), for every
 * decision of lib/continuity/session_end.ts. It always exits 0 and prints nothing.
 */
import assert from "node:assert/strict";
import { hookFlags, projectFile } from "../lib/agents/command.ts";
import { join } from "../lib/fs/path.ts";
import { splitFrontMatter } from "../lib/store/front_matter.ts";
import { readLatest } from "../lib/store/latest.ts";
import { isoStamp } from "../lib/store/time.ts";
import { makeTranscript } from "../bench/transcript.ts";
import { type Ran, runCliProcess, runProcess, withV8 } from "./support/run.ts";
import { HOOK, NOW, scratchDir, scratchProject } from "./support/scratch.ts";
import * as fx from "./continuity/_fixture.ts";

/** The hook as registered, plus read on the transcript's folder; `v8` adds V8 flags. */
function runEnd(root: string, transcript: string, o: { v8?: string; payload?: object } = {}) {
  const flags = hookFlags({ root }, projectFile("lib")).map((f) =>
    f.startsWith("--allow-read=") ? `${f},${transcript.slice(0, transcript.lastIndexOf("/"))}` : f
  );
  return runProcess(Deno.execPath(), ["run", ...withV8(flags, o.v8), HOOK], {
    cwd: root,
    env: { SESSION_NOW: isoStamp(NOW), SESSION_DEBUG: "1", NO_COLOR: "1" },
    stdin: JSON.stringify(o.payload ?? fx.endPayload(root, transcript)),
  });
}

/** A transcript (in `dir`) of a session that worked in `root` five minutes ago, made no dump. */
async function workedIn(root: string, dir: string): Promise<string> {
  const t = join(dir, "t.jsonl");
  await Deno.writeTextFile(
    t,
    fx.timedTranscript(root, [{ at: fx.minutesAgo(5), steps: fx.workSteps() }]),
  );
  return t;
}

/** A transcript (in `dir`) of a session in `root` that said thanks a minute ago and nothing more. */
async function idleIn(root: string, dir: string): Promise<string> {
  const t = join(dir, "t.jsonl");
  await Deno.writeTextFile(
    t,
    fx.timedTranscript(root, [{ at: fx.minutesAgo(1), steps: [{ prompt: "great, thanks!" }] }]),
  );
  return t;
}

function quiet(r: Ran): string {
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "");
  return r.stderr;
}

Deno.test("process: no dump → a draft; the next /clear sees it", async () => {
  await using p = await scratchProject();
  await using home = await scratchDir();
  const t = await workedIn(p.root, home.path);
  assert.match(quiet(await runEnd(p.root, t)), /drafted ".*-draft"; LATEST → /);
  const [name] = fx.docsIn(p.store);
  const f = splitFrontMatter(await Deno.readTextFile(join(p.store.dir, name)))!.fields;
  assert.deepEqual([f.draft, f.session, f.consumed], ["auto", fx.SESSION, "false"]);
  assert.equal(readLatest(p.store), name.slice(0, -3));
});

Deno.test("process: a Codex rollout → a draft (Codex's reader imported on demand)", async () => {
  await using p = await scratchProject();
  await using home = await scratchDir();
  // The recorded rollout, moved into this project: the reader is chosen by the file, and the
  // Codex one is a computed import, which the hook's least privilege must still allow.
  const fixture = new URL("./fixtures/codex/rollout.jsonl", import.meta.url).pathname;
  const t = join(home.path, "rollout.jsonl");
  await Deno.writeTextFile(
    t,
    (await Deno.readTextFile(fixture)).replaceAll("/tmp/codex-fixture/project", p.root),
  );
  assert.match(quiet(await runEnd(p.root, t)), /drafted ".*-draft"; LATEST → /);
  const [name] = fx.docsIn(p.store);
  const text = await Deno.readTextFile(join(p.store.dir, name));
  assert.match(text, /- Last request \(line 32\): “deploy it to staging”/);
  assert.match(
    text,
    /- State: in progress — it acknowledged the request and did nothing yet: “OK\.”/,
  );
});

Deno.test("process: `dump` records the session; its SessionEnd writes nothing more", async () => {
  await using p = await scratchProject();
  await using home = await scratchDir();
  const dumped = await runCliProcess(["dump"], {
    cwd: p.root,
    stdin: "## Goal\n\nShip it.\n\n## Next step\n\nTest it.\n",
    env: { CLAUDE_CODE_SESSION_ID: fx.SESSION },
    now: fx.minutesAgo(3),
  });
  assert.equal(dumped.code, 0, dumped.stderr);
  const [name] = fx.docsIn(p.store);
  const before = await Deno.readTextFile(join(p.store.dir, name));
  assert.equal(splitFrontMatter(before)!.fields.session, fx.SESSION);
  const t = join(home.path, "t.jsonl");
  await Deno.writeTextFile(
    t,
    fx.timedTranscript(p.root, [
      { at: fx.minutesAgo(5), steps: fx.workSteps() },
      { at: fx.minutesAgo(2), steps: [{ say: "Dumped; /clear when ready." }] },
    ]),
  );
  assert.match(quiet(await runEnd(p.root, t)), /did no work after/);
  assert.deepEqual(fx.docsIn(p.store), [name]);
  assert.equal(await Deno.readTextFile(join(p.store.dir, name)), before);
});

Deno.test("process: dump, more work → 'Since the dump', restored with the handover", async () => {
  await using p = await scratchProject();
  await using home = await scratchDir();
  const dumped = await runCliProcess(["dump", "mine"], {
    cwd: p.root,
    stdin: "## Goal\n\nShip it.\n\n## Next step\n\nTest it.\n",
    env: { CLAUDE_CODE_SESSION_ID: fx.SESSION },
    now: fx.minutesAgo(3),
  });
  assert.equal(dumped.code, 0, dumped.stderr);
  const t = join(home.path, "t.jsonl");
  await Deno.writeTextFile(
    t,
    fx.timedTranscript(p.root, [
      { at: fx.minutesAgo(5), steps: fx.workSteps() },
      {
        at: fx.minutesAgo(1),
        steps: [{ tool: "Write", input: { file_path: "src/late.ts", content: "" }, result: "ok" }],
      },
    ]),
  );
  assert.match(quiet(await runEnd(p.root, t)), /appended "Since the dump" to "mine"/);
  const restored = await runProcess(
    Deno.execPath(),
    ["run", ...hookFlags({ root: p.root }, projectFile("lib")), HOOK],
    {
      cwd: p.root,
      env: { SESSION_NOW: isoStamp(NOW), NO_COLOR: "1" },
      stdin: JSON.stringify({ ...fx.endPayload(p.root, t), hook_event_name: "SessionStart" }),
    },
  );
  assert.equal(restored.code, 0, restored.stderr);
  const context = JSON.parse(restored.stdout).hookSpecificOutput.additionalContext as string;
  assert.match(context, /## Since the dump[\s\S]*`src\/late\.ts`/);
});

Deno.test("process: an empty session writes nothing", async () => {
  await using p = await scratchProject();
  await using home = await scratchDir();
  const t = await idleIn(p.root, home.path);
  assert.match(quiet(await runEnd(p.root, t)), /nothing worth carrying/);
  assert.deepEqual(fx.docsIn(p.store), []);
});

Deno.test("process: two SessionEnd hooks at once write exactly one draft", async () => {
  await using p = await scratchProject();
  await using home = await scratchDir();
  const t = await workedIn(p.root, home.path);
  const runs = await Promise.all([runEnd(p.root, t), runEnd(p.root, t), runEnd(p.root, t)]);
  const reasons = runs.map(quiet);
  assert.equal(reasons.filter((r) => /drafted/.test(r)).length, 1, reasons.join(""));
  assert.equal(fx.docsIn(p.store).length, 1);
});

Deno.test("process: another project's, a missing and a hostile transcript: nothing, exit 0", async () => {
  await using p = await scratchProject();
  await using home = await scratchDir();
  const other = join(home.path, "other.jsonl");
  await Deno.writeTextFile(
    other,
    fx.timedTranscript("/elsewhere/app", [{ at: fx.minutesAgo(5), steps: fx.workSteps() }]),
  );
  assert.match(quiet(await runEnd(p.root, other)), /another project/);
  assert.match(quiet(await runEnd(p.root, join(home.path, "missing.jsonl"))), /cannot read/);
  // Binary junk and one 24 MB line with no line break.
  const hostile = join(home.path, "hostile.jsonl");
  const junk = new Uint8Array(1 << 16).map((_, i) => (i * 7919) % 256);
  await Deno.writeFile(hostile, junk);
  await Deno.writeTextFile(hostile, `{"type":"user","x":"${"y".repeat(24 << 20)}`, {
    append: true,
  });
  const r = await runEnd(p.root, hostile, { v8: "--max-old-space-size=256" });
  assert.match(quiet(r), /nothing worth carrying/);
  // Not a JSON payload at all.
  const bad = await runProcess(Deno.execPath(), ["run", "-A", HOOK], { env: {}, stdin: "\u0000{" });
  assert.equal(bad.code, 0);
  assert.deepEqual(fx.docsIn(p.store), []);
});

Deno.test("process: a 100 MB transcript drafts in bounded memory and time", async () => {
  await using p = await scratchProject();
  await using home = await scratchDir();
  const big = join(home.path, "big.jsonl");
  await makeTranscript(big, 100 * 1024 * 1024, { garbageEvery: 10 });
  const t = join(home.path, "t.jsonl");
  // The generated records are another project's; a first record of this one names the session.
  await Deno.writeTextFile(
    t,
    fx.timedTranscript(p.root, [{ at: fx.minutesAgo(9), steps: fx.workSteps() }]),
  );
  {
    const out = await Deno.open(t, { append: true });
    const src = await Deno.open(big, { read: true });
    await src.readable.pipeTo(out.writable); // closes both
  }
  assert.ok((await Deno.stat(t)).size > 100 * 1024 * 1024);
  await Deno.remove(big);
  const start = performance.now();
  // Reading the whole file into memory would need over 100 MB of heap.
  const r = await runEnd(p.root, t, { v8: "--max-old-space-size=48" });
  const ms = performance.now() - start;
  assert.match(quiet(r), /drafted/);
  assert.ok(ms < 30_000, `took ${ms} ms (SessionEnd's settings timeout is 30 s)`);
  assert.equal(fx.docsIn(p.store).length, 1);
});

Deno.test("process: no store yet: the draft creates it; a store that cannot be made: a reason", async () => {
  await using p = await scratchProject({ store: false });
  await using home = await scratchDir();
  const t = await workedIn(p.root, home.path);
  // Write is granted on the store's path only, which is enough to create it.
  assert.match(quiet(await runEnd(p.root, t)), /drafted/);
  assert.equal(fx.docsIn(p.store).length, 1);
  await using q = await scratchProject({ store: false });
  await Deno.writeTextFile(join(q.root, ".claude"), "a file where the store's folder would be");
  const u = await workedIn(q.root, home.path);
  assert.match(quiet(await runEnd(q.root, u)), /nothing written: /);
});
