import assert from "node:assert/strict";
import { type RecoverFacts, recoverPoints } from "../../lib/cli/recover.ts";

Deno.test("recover's points stand on the transcript's evidence, never on the draft's text", async (t) => {
  const good: RecoverFacts = {
    transcript: "/t.jsonl",
    lines: 40,
    badLines: 0,
    stopped: {
      state: "in progress",
      what: "it stopped mid-work",
      evidence: { text: "Edit lib/since.ts", line: 38 },
      request: { text: "fix `parseSince` for months", line: 30 },
    },
    slug: "crash",
  };
  const rows = (f: RecoverFacts) => recoverPoints(f).map((p) => [p.name, p.ok, p.fact]);
  await t.step("read whole, a state told, evidence naming a file: ✓ all three", () => {
    assert.deepEqual(rows(good), [
      ["transcript", true, "/t.jsonl: 40 lines, every one read"],
      ["where it stopped", true, "in progress, from the transcript (line 38)"],
      ["next step", true, "where it stopped names `lib/since.ts` (a file, transcript line 38)"],
    ]);
  });
  await t.step("evidence naming nothing: the request's words are the next source", () => {
    const f = { ...good, stopped: { ...good.stopped, evidence: { text: "Bash", line: 38 } } };
    assert.deepEqual(
      recoverPoints(f)[2].fact,
      "the last request names `parseSince` (an identifier, transcript line 30)",
    );
  });
  await t.step("lines not JSON, an unclear state, nothing named: ⚠ each", () => {
    assert.equal(recoverPoints({ ...good, badLines: 2 })[0].ok, false);
    const vague: RecoverFacts = {
      ...good,
      stopped: {
        state: "unclear",
        what: "the transcript shows no reply and no call",
        request: { text: "go on with it", line: 3 },
      },
    };
    const p = recoverPoints(vague);
    assert.deepEqual([p[1].ok, p[1].fact], [
      false,
      "unclear: the transcript shows no reply and no call",
    ]);
    assert.deepEqual([p[2].ok, p[2].fact], [
      false,
      "the transcript names nothing concrete to start from",
    ]);
  });
  await t.step("the transcript's path, which every draft names, is no evidence", () => {
    const f: RecoverFacts = {
      ...good,
      transcript: "/home/u/.claude/projects/p/abc.jsonl",
      stopped: {
        state: "finished",
        what: "it answered and ended its turn",
        evidence: { text: "Sure, that works.", line: 9 },
      },
    };
    assert.equal(recoverPoints(f)[2].ok, false);
  });
});
