/**
 * The facts builder both readers feed: the rules that do not depend on the agent, tested once
 * here rather than through each reader's record shapes.
 */
import assert from "node:assert/strict";
import { FactsBuilder, latestOfEach } from "../../lib/transcript/facts.ts";
import { prng } from "../support/prng.ts";

Deno.test("builder: touched files", async (t) => {
  await t.step("relative to the root, outside apart, tools gathered once, sorted", () => {
    const b = new FactsBuilder({ root: "/p/", path: "/t.jsonl" });
    b.touch("/p/src/b.ts", "Write", 3);
    b.touch("a.ts", "Edit", 4);
    b.touch("../elsewhere/x.md", "Write", 5, "/p/sub"); // against that call's cwd
    b.touch("/p/x/../src/b.ts", "Edit", 6);
    b.touch("src/b.ts", "Edit", 7, "/p");
    b.touch("/a/out.md", "Write", 8);
    const f = b.facts();
    assert.equal(f.path, "/t.jsonl");
    assert.deepEqual(f.files, [
      { path: "a.ts", outside: false, tools: ["Edit"], line: 4 },
      { path: "elsewhere/x.md", outside: false, tools: ["Write"], line: 5 },
      { path: "src/b.ts", outside: false, tools: ["Write", "Edit"], line: 7 },
      { path: "/a/out.md", outside: true, tools: ["Write"], line: 8 },
    ]);
  });
  await t.step("the same path from another working directory is another file", () => {
    const b = new FactsBuilder({ root: "/p" });
    for (let i = 1; i <= 3; i++) {
      b.touch("x.ts", "Edit", i, "/p/a");
      b.touch("x.ts", "Write", 10 + i, "/p/b");
      b.touch("x.ts", "Edit", 20 + i); // the root
    }
    assert.deepEqual(b.facts().files.map((f) => [f.path, f.tools.join(), f.line]), [
      ["a/x.ts", "Edit", 3],
      ["b/x.ts", "Write", 13],
      ["x.ts", "Edit", 23],
    ]);
  });
  await t.step("a touch settled late (out of line order) keeps the latest line", () => {
    const b = new FactsBuilder({ root: "/p" });
    b.touch("a.ts", "apply_patch", 35);
    b.touch("a.ts", "apply_patch", 31);
    assert.equal(b.facts().files[0].line, 35);
  });
  await t.step("Windows and UNC paths are absolute: outside a POSIX root", () => {
    const b = new FactsBuilder({ root: "/p" });
    b.touch("\\\\server\\share\\x.txt", "Write", 1);
    b.touch("C:\\work\\y.txt", "Write", 2);
    assert.deepEqual(b.facts().files.map((f) => [f.path, f.outside]), [
      ["/server/share/x.txt", true],
      ["C:/work/y.txt", true],
    ]);
  });
});

Deno.test("builder: questions, requests, deferrals", async (t) => {
  await t.step("a closing question the next request ignores stays open", () => {
    const b = new FactsBuilder({ root: "/p" });
    b.said("Done. Shall I add a --shout flag?", 2);
    b.requested("Now write the docs.", 3);
    b.said("Written. Want me to push?", 4);
    b.requested("yes", 5);
    b.said("Pushed. Anything else?", 6);
    const f = b.facts();
    assert.deepEqual(f.questions, [
      { text: "Shall I add a --shout flag?", line: 2 },
      { text: "Anything else?", line: 6 },
    ]);
    assert.deepEqual(f.firstRequest, { text: "Now write the docs.", line: 3 });
    assert.deepEqual(f.lastRequest, { text: "yes", line: 5 });
    assert.deepEqual(f.lastAssistantText, { text: "Pushed. Anything else?", line: 6 });
  });
  await t.step("acting after a question closes it; asked questions sort by line", () => {
    const b = new FactsBuilder({ root: "/p" });
    b.said("Is that right?", 4);
    b.acted("Bash", 4, "ls");
    b.requested("Something else entirely.", 5);
    b.asked("A or B?", 3);
    assert.deepEqual(b.facts().questions, [{ text: "A or B?", line: 3 }]);
  });
  await t.step("what is shown may differ from what is judged", () => {
    const b = new FactsBuilder({ root: "/p" });
    b.said("Should I refactor the parser module?", 1, "…parser module?");
    b.requested("refactor the parser, yes", 2, "refactor…");
    const f = b.facts();
    assert.deepEqual(f.questions, [], "judged on the whole reply");
    assert.equal(f.lastAssistantText!.text, "…parser module?");
    assert.equal(f.lastRequest!.text, "refactor…");
  });
  await t.step("deferrals, sentence by sentence", () => {
    const b = new FactsBuilder({ root: "/p" });
    b.deferred("Fix the build. Docs later! Then ship.", 9);
    assert.deepEqual(b.facts().deferrals, [{ text: "Docs later!", line: 9 }]);
  });
});

Deno.test("builder: tasks, header, lines", async (t) => {
  await t.step("tasks by id first, then the latest plan, copied", () => {
    const b = new FactsBuilder({ root: "/p" });
    b.tasks.set("7", { id: "7", subject: "One", status: "pending", line: 1 });
    b.plan([{ id: "1", subject: "Old", status: "pending", line: 2 }]);
    b.plan([{ id: "1", subject: "New", status: "completed", line: 3 }]);
    const f = b.facts();
    assert.deepEqual(f.tasks.map((x) => x.subject), ["One", "New"]);
    f.tasks[0].status = "changed";
    assert.equal(b.tasks.get("7")!.status, "pending");
  });
  await t.step("the first of each header field stays; a start that is no date is skipped", () => {
    const b = new FactsBuilder({ root: "/p" });
    assert.equal(b.headerOpen, true);
    b.header(7, "/p", "not a date");
    b.header("s-1", "/q", "2026-11-30T05:00:00Z");
    b.header("s-2", "/r", "2026-12-01T05:00:00Z");
    assert.equal(b.headerOpen, false);
    const f = b.facts();
    assert.deepEqual([f.sessionId, f.cwd, f.startedAt], ["s-1", "/p", "2026-11-30T05:00:00Z"]);
  });
  await t.step("object(): blank lines are not bad; anything but a JSON object is", () => {
    const b = new FactsBuilder({ root: "/p" });
    assert.equal(b.object(""), undefined);
    assert.equal(b.object("   "), undefined);
    assert.equal(b.badLines, 0);
    for (const l of ["[1]", "null", "7", '"s"', "{cut"]) assert.equal(b.object(l), undefined, l);
    assert.equal(b.badLines, 5);
    assert.deepEqual(b.object('{"a":1}'), { a: 1 });
  });
});

Deno.test("latestOfEach: one entry per text (white space aside), ordered by latest", () => {
  const got = latestOfEach([
    { text: "Shall I commit?", line: 3 },
    { text: "Later: the cache.", line: 5 },
    { text: "Shall  I\ncommit?", line: 9 },
    { text: "Other?", line: 12 },
  ]);
  assert.deepEqual(got, [
    { latest: { text: "Later: the cache.", line: 5 }, times: 1 },
    { latest: { text: "Shall  I\ncommit?", line: 9 }, times: 2 },
    { latest: { text: "Other?", line: 12 }, times: 1 },
  ]);
});

Deno.test("builder: the first and last substantive requests, judged lazily, match judging each", () => {
  const next = prng(77);
  const acks = ["thanks", "ok", "great, thanks!", "yes", "continue", "lgtm"];
  const asks = ["Add a --shout flag", "Fix the parser bug", "Write docs/greet.md", "Run the tests"];
  for (let round = 0; round < 400; round++) {
    const b = new FactsBuilder({ root: "/p" });
    const said: { text: string; line: number; substantive: boolean }[] = [];
    // Up to 80 requests (several times the unjudged bound), mostly acknowledgements at times.
    const n = Math.floor(next() * 80);
    const ackRate = next();
    for (let line = 1; line <= n; line++) {
      const ack = next() < ackRate;
      const pool = ack ? acks : asks;
      const text = `${pool[Math.floor(next() * pool.length)]}${ack ? "" : ` ${line}`}`;
      b.requested(text, line);
      said.push({ text, line, substantive: !ack });
      // The facts may be asked for midway (building goes on): each time they must be right.
      if (next() < 0.05 || line === n) {
        const f = b.facts();
        const subs = said.filter((s) => s.substantive);
        const mention = (s?: { text: string; line: number }) => s && { text: s.text, line: s.line };
        assert.deepEqual(f.firstSubstantive, mention(subs[0]), `round ${round}, line ${line}`);
        assert.deepEqual(f.lastSubstantive, mention(subs.at(-1)), `round ${round}, line ${line}`);
        assert.deepEqual(f.firstRequest, mention(said[0]));
        assert.deepEqual(f.lastRequest, mention(said.at(-1)));
      }
    }
  }
});
