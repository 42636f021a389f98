import assert from "node:assert/strict";
import { splitFrontMatter } from "../../lib/store/front_matter.ts";
import { findSection, parseSections } from "../../lib/handover/document.ts";
import { MAX_LISTED, quote, recoverMarkdown } from "../../lib/handover/recover.ts";
import { readTranscript } from "../../lib/transcript/claude.ts";
import { join } from "../../lib/fs/path.ts";
import { git, put, scratchDir, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";
import { placeTranscript, transcriptOf } from "../support/transcript.ts";

const FIXTURES = new URL("../fixtures/transcripts/", import.meta.url).pathname;

Deno.test("recoverMarkdown drafts from the real transcript's facts", async () => {
  const facts = await readTranscript(FIXTURES + "real/interactive.jsonl", {
    root: "/home/dev/demo-app",
  });
  const sections = parseSections(recoverMarkdown(facts));
  const goal = findSection(sections, "Goal")!;
  // The task it was on at the end (typed after a finished turn), the earlier ones done.
  assert.match(goal, /^Thanks\. Let's park the i18n idea .* \(transcript L54\)/);
  assert.match(
    goal,
    /Done earlier in the session:\n- Add a greeting module in src\/greet\.ts .* \(transcript L4\)\n- Now write docs\/greet\.md describing the module\. \(transcript L42\)/,
  );
  const stopped = findSection(sections, "Where it stopped")!;
  assert.match(stopped, /^- Last request \(line 54\): “Thanks\. Let's park the i18n idea/);
  assert.match(
    stopped,
    /- State: waiting — it asked the user \(AskUserQuestion\): “Which locale should i18n start with\?” \(line 57\)/,
  );
  const out = findSection(sections, "Outstanding")!;
  assert.match(out, /- \*\*deferred-[a-z-]+\*\* — Let's park the i18n idea/);
  assert.match(out, /Unanswered: "Should I also add a --shout flag\?" .*L40/);
  assert.match(out, /Unanswered: "Which locale should i18n start with\?" .*L57/);
  const next = findSection(sections, "Next step")!;
  assert.match(next, /^The agent was waiting for the user's answer to “Which locale/);
  assert.match(next, /the task: “Thanks\. Let's park/);
  assert.doesNotMatch(next, /Continue with/);
  assert.equal(findSection(sections, "Files touched"), undefined, "files come from evidence");
});

Deno.test("recoverMarkdown with an empty transcript still says where it came from", () => {
  const md = recoverMarkdown({
    path: "/t.jsonl",
    files: [],
    tasks: [],
    questions: [],
    deferrals: [],
  });
  assert.deepEqual(parseSections(md).map((s) => s.title), ["Where it stopped", "Next step"]);
  assert.match(md, /- Last request: none typed\n- State: unclear — the transcript shows no reply/);
  assert.match(md, /Where the session stopped is unclear from the transcript/);
  assert.match(md, /Drafted from \/t\.jsonl/);
  assert.equal(quote("a  b\n c"), "a b c");
  assert.equal(quote("x".repeat(10), 5), "xxxx…");
});

Deno.test("recover mode", async (t) => {
  await using p = await scratchProject({ git: "repo", store: false });
  await using homeDir = await scratchDir("session-home-");
  const home = homeDir.path;
  const root = p.root;
  const env = { HOME: home, CLAUDE_CODE_SESSION_ID: "running" };
  await put(root, "README.md", "# r\n");
  await git(root, ["add", "."]);
  await git(root, ["commit", "-qm", "init"], new Date("2026-11-29T00:00:00Z"));
  await put(root, "src/app.ts", "x\n");
  const dead = await placeTranscript(
    home,
    root,
    "dead",
    transcriptOf(root, [
      { prompt: "Build the app module." },
      { tool: "TaskCreate", input: { subject: "Wire the CLI" }, result: "Task #1 created" },
      { tool: "Write", input: { file_path: `${root}/src/app.ts` }, result: "ok" },
      { prompt: "Do the config file later." },
      { say: "Writing the app now." },
    ]),
  );
  const running = await placeTranscript(
    home,
    root,
    "running",
    transcriptOf(root, [{ prompt: "session.ts recover" }]),
  );
  await Deno.utime(dead, 1000, 1000);
  await Deno.utime(running, 2000, 2000);

  await t.step("picks the newest transcript that is not the running session's", async () => {
    const r = await runCliInProcess(["recover", "crash"], { cwd: root, env });
    assert.equal(r.code, 0, r.err);
    const doc = await Deno.readTextFile(`${root}/.claude/state/session/crash.md`);
    const split = splitFrontMatter(doc)!;
    assert.equal(split.fields.recovered, "true");
    assert.equal(split.fields.consumed, "false");
    assert.equal(
      (await Deno.readTextFile(`${root}/.claude/state/session/LATEST`)).trim(),
      "crash",
    );
    assert.ok(r.out.startsWith(doc.trimEnd()), "prints the document");
    assert.match(r.out, /Wrote .*crash\.md \(recovered from .*dead\.jsonl\)/);
    const sections = parseSections(split.body);
    assert.match(findSection(sections, "Goal")!, /^Build the app module\./);
    assert.match(findSection(sections, "Files touched")!, /\| `src\/app\.ts` \| uncommitted-new/);
    const out = findSection(sections, "Outstanding")!;
    assert.match(out, /\*\*wire-the-cli\*\* — Wire the CLI/);
    assert.match(out, /Do the config file later\./);
    assert.match(
      findSection(sections, "Where it stopped")!,
      /- State: in progress — it said what it does next: “Writing the app now\.” \(line \d+\)/,
    );
    assert.match(
      findSection(sections, "Next step")!,
      /^Carry on with the task: “Build the app module\.”/,
    );
  });
  await t.step("--session ID and --transcript PATH name one", async () => {
    const r = await runCliInProcess(["recover", "mine", "--session", "running"], {
      cwd: root,
      env,
    });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /recovered from .*running\.jsonl/);
    const t2 = await runCliInProcess(["recover", "again", "--transcript", dead], {
      cwd: root,
      env,
    });
    assert.match(t2.out, /recovered from .*dead\.jsonl/);
  });
  await t.step("refusals: both flags (2), nothing to recover (1), a bad name (2)", async () => {
    const both = await runCliInProcess(["recover", "--session", "a", "--transcript", "b"], {
      cwd: root,
      env,
    });
    assert.equal(both.code, 2);
    assert.match(both.err, /not both/);
    const none = await runCliInProcess(["recover"], {
      cwd: root,
      env: { HOME: `${home}/nothing` },
    });
    assert.equal(none.code, 1);
    assert.match(none.err, /nothing to recover: .*--transcript PATH or --session ID/);
    const bad = await runCliInProcess(["recover", "LATEST", "--transcript", dead], {
      cwd: root,
      env,
    });
    assert.equal(bad.code, 2);
  });
});

Deno.test("recover from a file of no session records: nothing to recover, exit 1, no write", async () => {
  await using p = await scratchProject({ git: false, store: false });
  const files: [string, string][] = [
    ["passwd", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n"],
    ["objects.jsonl", '{"type":"summary"}\n{"a":1}\n[1,2]\n'],
    ["empty.jsonl", ""],
  ];
  for (const [name, text] of files) {
    const path = join(p.root, name);
    await Deno.writeTextFile(path, text);
    const r = await runCliInProcess(["recover", "--transcript", path], { cwd: p.root });
    assert.equal(r.code, 1, `${name}: ${r.out}${r.err}`);
    assert.match(r.err, /nothing to recover.*Nothing was written/, name);
    await assert.rejects(Deno.stat(join(p.root, ".claude/state/session/LATEST")), name);
  }
});

Deno.test("recoverMarkdown: the goal and the task carried on are substantive requests, not a 'thanks'", () => {
  const none = { path: "/t.jsonl", files: [], tasks: [], questions: [], deferrals: [] };
  const md = recoverMarkdown({
    ...none,
    firstRequest: { text: "ok", line: 1 },
    firstSubstantive: { text: "Migrate the config loader", line: 3 },
    lastSubstantive: { text: "now port the tests", line: 9 },
    lastRequest: { text: "great, thanks!", line: 12 },
  });
  const sections = parseSections(md);
  assert.match(findSection(sections, "Goal")!, /^now port the tests \(transcript L9\)/);
  assert.match(
    findSection(sections, "Goal")!,
    /Done earlier in the session:\n- Migrate the config loader \(transcript L3\)/,
  );
  // The last request is quoted as typed; it is neither the goal nor the task carried on.
  assert.match(
    findSection(sections, "Where it stopped")!,
    /Last request \(line 12\): “great, thanks!”/,
  );
  assert.match(findSection(sections, "Next step")!, /the task: “now port the tests”/);
  assert.doesNotMatch(
    findSection(sections, "Goal")! + findSection(sections, "Next step")!,
    /thanks/,
  );
});

Deno.test("recoverMarkdown lists the latest deferrals and questions and counts the rest", () => {
  const many = (word: string) =>
    Array.from({ length: 25 }, (_, i) => ({ text: `${word} ${i}?`, line: i + 1 }));
  const md = recoverMarkdown({
    path: "/t.jsonl",
    files: [],
    tasks: [],
    questions: many("Which one"),
    deferrals: many("Later, item"),
  });
  const out = findSection(parseSections(md), "Outstanding")!;
  assert.equal(out.split("\n").filter((l) => l.startsWith("- **")).length, 2 * MAX_LISTED);
  assert.match(out, /Which one 24\?/);
  assert.doesNotMatch(out, /Which one 3\?/);
  assert.match(out, /\(… and 30 earlier deferral\(s\) or question\(s\) in the transcript\.\)/);
});

Deno.test("recoverMarkdown lists a repeated text once, at its latest mention, with its count", async (t) => {
  await t.step("the draft: one item each, counted; the unlisted count is of distinct texts", () => {
    const park = "Let's park the i18n idea for later.";
    const md = recoverMarkdown({
      path: "/t.jsonl",
      files: [],
      tasks: [],
      questions: Array.from(
        { length: 9 },
        (_, i) => ({ text: "Add a --shout flag?", line: i * 10 + 2 }),
      ),
      deferrals: [
        ...Array.from({ length: 12 }, (_, i) => ({ text: `Later, item ${i}.`, line: i + 200 })),
        ...Array.from({ length: 10 }, (_, i) => ({ text: park, line: 301 + i * 10 })),
      ],
    });
    const out = findSection(parseSections(md), "Outstanding")!;
    const items = out.split("\n").filter((l) => l.startsWith("- **"));
    assert.equal(items.filter((l) => l.includes("i18n")).length, 1, out);
    assert.match(out, /deferred it \(transcript L391, 10 times\)/);
    assert.equal(items.filter((l) => l.includes("--shout")).length, 1, out);
    assert.match(out, /without an answer \(transcript L82, 9 times\)/);
    // 13 distinct deferrals (12 items and the i18n one), 10 listed; 1 distinct question, listed.
    assert.equal(items.length, MAX_LISTED + 1);
    assert.match(out, /\(… and 3 earlier deferral\(s\) or question\(s\) in the transcript\.\)/);
  });
});
