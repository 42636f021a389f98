import assert from "node:assert/strict";
import type { GitFacts } from "../../../lib/handover/evidence/git.ts";
import { filesFromGit, withTranscript } from "../../../lib/handover/evidence/merge.ts";
import type { Evidence } from "../../../lib/handover/evidence/model.ts";
import type { TranscriptFacts } from "../../../lib/transcript/facts.ts";

const FACTS: GitFacts = {
  top: "/r",
  branch: "main",
  hasHead: true,
  changes: [
    { path: "lib/a.ts", added: 3, deleted: 1, binary: false },
    { path: "img.png", added: 0, deleted: 0, binary: true },
  ],
  untracked: ["lib/new.ts", ".claude/state/session/x.md"],
  commits: [
    {
      hash: "bbb2222",
      date: "2026-11-30T11:00:00Z",
      subject: "two",
      files: [{ path: "lib/b.ts", added: 1, deleted: 0, binary: false }],
    },
    {
      hash: "aaa1111",
      date: "2026-11-30T10:00:00Z",
      subject: "one",
      files: [
        { path: "lib/b.ts", added: 4, deleted: 2, binary: false },
        { path: "lib/a.ts", added: 1, deleted: 0, binary: false },
      ],
    },
  ],
};

Deno.test("evidence: pure parts", async (t) => {
  await t.step("files from git: uncommitted wip, untracked uncommitted-new, committed done", () => {
    assert.deepEqual(filesFromGit(FACTS), [
      { path: "lib/a.ts", change: "+3/-1", state: "wip", ref: "aaa1111", source: "git" },
      { path: "img.png", change: "binary", state: "wip", ref: "uncommitted", source: "git" },
      {
        path: "lib/new.ts",
        change: "uncommitted-new",
        state: "wip",
        ref: "uncommitted",
        source: "git",
      },
      { path: "lib/b.ts", change: "+5/-2", state: "done", ref: "bbb2222", source: "git" },
    ]);
  });
  await t.step(
    "transcript facts merge: new files as edited/wip, unfinished tasks outstanding",
    () => {
      const ev = {
        files: filesFromGit(FACTS),
        outstanding: [{ slug: "p", text: "**p** — parked.", source: "parked" }],
      } as Evidence;
      const facts: TranscriptFacts = {
        path: "/t.jsonl",
        files: [
          { path: "lib/a.ts", outside: false, tools: ["Edit"], line: 4 },
          { path: "docs/x.md", outside: false, tools: ["Write"], line: 9 },
        ],
        tasks: [
          { id: "1", subject: "Write the parser", status: "completed", line: 2 },
          { id: "2", subject: "Add CRLF tests for the reader", status: "in_progress", line: 3 },
        ],
        questions: [],
        deferrals: [],
      };
      const merged = withTranscript(ev, facts);
      assert.equal(merged.files.length, ev.files.length + 1);
      assert.deepEqual(merged.files.at(-1), {
        path: "docs/x.md",
        change: "edited",
        state: "wip",
        ref: "transcript:L9",
        source: "transcript",
        line: 9,
      });
      // A file git shows that the session touched keeps git's facts and gains the line.
      const a = merged.files.find((f) => f.path === "lib/a.ts")!;
      assert.deepEqual([a.source, a.line], ["git", 4]);
      assert.equal(merged.files.find((f) => f.path === "lib/b.ts")!.line, undefined);
      assert.equal(merged.outstanding.length, 2);
      assert.equal(merged.outstanding[1].slug, "add-crlf-tests-for-the");
      assert.match(merged.outstanding[1].text, /^\*\*add-crlf-tests-for-the\*\* — Add CRLF tests/);
      assert.equal(merged.transcript, "/t.jsonl");
    },
  );
});
