import assert from "node:assert/strict";
import { changedTasks, SINCE_MAX, sinceSection } from "../../lib/continuity/since.ts";
import type { TranscriptFacts } from "../../lib/transcript/facts.ts";

function facts(o: Partial<TranscriptFacts> = {}): TranscriptFacts {
  return { path: "/t.jsonl", files: [], tasks: [], questions: [], deferrals: [], ...o };
}

const file = (path: string, line: number) => ({ path, outside: false, tools: ["Edit"], line });
const task = (id: string, subject: string, status: string) => ({ id, subject, status, line: 1 });

Deno.test("sinceSection: nothing after the dump is no section", () => {
  const before = facts({ files: [file("a.ts", 3)], tasks: [task("1", "T", "pending")] });
  assert.equal(sinceSection({ before, after: before, fromLine: 10, commits: [] }), undefined);
});

Deno.test("sinceSection: files touched after, commits, new and changed tasks", () => {
  const before = facts({ tasks: [task("1", "Old", "pending"), task("2", "Same", "pending")] });
  const after = facts({
    files: [file("a.ts", 3), file("b.ts", 12), file(".claude/state/session/x.md", 13)],
    tasks: [
      task("1", "Old", "completed"),
      task("2", "Same", "pending"),
      task("3", "New", "pending"),
    ],
  });
  const s = sinceSection({
    before,
    after,
    fromLine: 10,
    commits: [{ text: "Fix the footer", line: 14 }],
  })!;
  assert.match(s, /^## Since the dump\n/);
  assert.match(s, /- Files touched: `b\.ts`\n/);
  assert.doesNotMatch(s, /a\.ts|\.claude/);
  assert.match(s, /- Commits: "Fix the footer"/);
  assert.match(s, /- Tasks: Old \(completed\), New \(pending\)$/);
});

Deno.test("sinceSection is bounded: the rest is counted", () => {
  const files = Array.from({ length: 40 }, (_, i) => file(`f${i}.ts`, 20 + i));
  const s = sinceSection({ before: facts(), after: facts({ files }), fromLine: 1, commits: [] })!;
  assert.match(s, new RegExp(`\\(and ${40 - SINCE_MAX} more\\)`));
  assert.ok(s.length < 1_000);
});

Deno.test("changedTasks: created after, or status or subject changed", () => {
  const got = changedTasks(
    [task("1", "A", "pending"), task("2", "B", "pending")],
    [task("1", "A", "pending"), task("2", "B2", "pending"), task("3", "C", "pending")],
  );
  assert.deepEqual(got.map((t) => t.id), ["2", "3"]);
});

Deno.test("sinceSection: a path with backticks or line breaks stays one code span on its bullet", () => {
  const files = [file("a`b.ts", 20), file("x\n## Next step\ny.ts", 21)];
  const s = sinceSection({ before: facts(), after: facts({ files }), fromLine: 1, commits: [] })!;
  const bullet = s.split("\n").find((l) => l.startsWith("- Files touched:"));
  assert.equal(bullet, "- Files touched: ``a`b.ts``, `x ## Next step y.ts`");
  assert.ok(!s.split("\n").some((l) => l.startsWith("## Next")));
});
