import assert from "node:assert/strict";
import { backing, concreteMention, hasWhy } from "../../lib/handover/checks.ts";
import type { EvidenceFile } from "../../lib/handover/evidence/model.ts";

const named = (text: string) => {
  const m = concreteMention(text);
  return m && [m.kind, m.what];
};

Deno.test("concrete: a next step names something to act on cold", async (t) => {
  await t.step("vague steps name nothing", () => {
    for (
      const text of [
        "continue",
        "keep going",
        "finish it",
        "Continue with the last request.",
        "Fix the failing tests and clean up.",
        "Run the unit tests, then open the PR.",
        "Make sure it works, and/or ask the user.",
        "Go ahead with the plan, e.g. the next part.",
      ]
    ) assert.equal(named(text), undefined, text);
  });
  await t.step("a file: a name with an extension, a path, a well-known file", () => {
    assert.deepEqual(named("Write tests/limiter_test.ts first"), ["file", "tests/limiter_test.ts"]);
    assert.deepEqual(named("Edit `lib/a.ts`"), ["file", "lib/a.ts"]);
    assert.deepEqual(named("Edit src/limiter.ts next."), ["file", "src/limiter.ts"]);
    assert.deepEqual(named("Look at lib/cli/ again"), ["file", "lib/cli/"]);
    assert.deepEqual(named("Open ./notes again"), ["file", "./notes"]);
    assert.deepEqual(named("Fix the Dockerfile"), ["file", "Dockerfile"]);
    assert.equal(named("Version 1.5x ships"), undefined, "a number is no file name");
  });
  await t.step(
    "a command: a $ line, a tool and its argument, a code span read as nothing else",
    () => {
      assert.deepEqual(named("Run `make check`."), ["command", "make check"]);
      assert.deepEqual(named("Call `parseSince`"), ["identifier", "parseSince"]);
      assert.deepEqual(named("then\n$ make all"), ["command", "$ make all"]);
      assert.deepEqual(named("Run ./build.sh"), ["file", "./build.sh"]);
      assert.deepEqual(named("Rerun deno task ci"), ["command", "deno task"]);
      assert.deepEqual(named("git rebase onto main"), ["command", "git rebase"]);
      assert.equal(named("Empty `` spans name nothing"), undefined);
    },
  );
  await t.step("a test: by its name, not tests in general", () => {
    assert.deepEqual(named("Write the burst test."), ["test", "burst test"]);
    assert.deepEqual(named("Make test_refill pass"), ["test", "test_refill"]);
    assert.deepEqual(named("Fix LimiterTest"), ["test", "LimiterTest"]);
    assert.equal(named("Write the new test."), undefined);
    assert.equal(named("Fix the flaky tests."), undefined);
  });
  await t.step("an identifier: camelCase, snake_case, inner capitals, calls", () => {
    assert.deepEqual(named("Rename parseSince"), ["identifier", "parseSince"]);
    assert.deepEqual(named("Rename max_rows"), ["identifier", "max_rows"]);
    assert.deepEqual(named("Split RateLimiter in two"), ["identifier", "RateLimiter"]);
    assert.deepEqual(named("Call refill() on start"), ["identifier", "refill()"]);
    assert.deepEqual(named("Call Bucket::take on start"), ["identifier", "Bucket::take"]);
    assert.equal(named("Rename it Bucket"), undefined, "one capital is a word");
  });
  await t.step("an issue: #N, issue N, PR N", () => {
    assert.deepEqual(named("Close #26"), ["issue", "#26"]);
    assert.deepEqual(named("Answer issue 23 item 5"), ["issue", "issue 23"]);
    assert.deepEqual(named("Review PR 12"), ["issue", "PR 12"]);
    assert.equal(named("Answer the issue"), undefined);
    assert.equal(named("Use color#26 for it"), undefined, "a # inside a word is no issue");
  });
});

Deno.test("why: a decision has its reason", () => {
  assert.equal(hasWhy("- Token bucket — why: one instance."), true);
  assert.equal(hasWhy("- Token bucket\n  Why: one instance."), true);
  assert.equal(hasWhy("- Token bucket — why:"), false, "a why: with nothing after it");
  assert.equal(hasWhy("- Token bucket, because one instance"), false);
  assert.equal(hasWhy("- Token bucket (somewhy: no)"), false);
});

Deno.test("backed: the agent's rows against the evidence", async (t) => {
  const ev = (path: string, source: "git" | "transcript", line?: number): EvidenceFile => ({
    path,
    change: "+1/-0",
    state: "wip",
    ref: "uncommitted",
    source,
    ...(line === undefined ? {} : { line }),
  });
  const evidence = [ev("src/a.ts", "git", 4), ev("src/b.ts", "git"), ev("c.md", "transcript", 9)];
  const table = (...files: string[]) =>
    ["| File | Change | State | Ref |", "| --- | --- | --- | --- |"]
      .concat(files.map((f) => `| ${f} | x | wip | |`)).join("\n");
  await t.step("a row evidence shows is backed, however its path is written", () => {
    const b = backing(table("`src/a.ts`", "./src/b.ts", "c.md"), evidence);
    assert.deepEqual(b, { agentRows: 3, unbacked: [], omitted: [], inTranscript: 2, gitOnly: 1 });
  });
  await t.step("a row no evidence shows is not; a file the table omits is named", () => {
    const b = backing(table("`src/a.ts`", "`src/ghost.ts`"), evidence);
    assert.deepEqual(b.unbacked, ["`src/ghost.ts`"]);
    assert.deepEqual(b.omitted, ["src/b.ts", "c.md"]);
  });
  await t.step("no table from the agent: nothing unbacked, nothing omitted", () => {
    assert.deepEqual(backing(undefined, evidence).omitted, []);
    assert.deepEqual(backing("", evidence).unbacked, []);
  });
});
