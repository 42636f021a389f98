import assert from "node:assert/strict";
import {
  changedTasks,
  SINCE_MAX,
  sinceSection,
  withSince,
} from "../../lib/continuity/since_dump.ts";
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

Deno.test("withSince: before the closing Dropped deliberately, every byte of the text kept", async (t) => {
  const section = "## Since the dump\n\n- Files touched: `b.ts`\n";
  await t.step("a document closed by Dropped deliberately keeps it last", () => {
    const text = "---\nslug: a\n---\n\n## Goal\n\nG\n\n## Dropped deliberately\n\nTool output.\n";
    const out = withSince(text, section);
    const headings = [...out.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    assert.deepEqual(headings, ["Goal", "Since the dump", "Dropped deliberately"]);
    assert.equal(out.replace(section + "\n", ""), text, "the agent's bytes, none changed");
  });
  await t.step("CRLF: the section takes the document's line ends", () => {
    const text = "## Goal\r\n\r\nG\r\n\r\n## Dropped deliberately\r\n\r\nX\r\n";
    const out = withSince(text, section);
    assert.ok(!/[^\r]\n/.test(out), "no bare LF");
    assert.ok(out.endsWith("## Dropped deliberately\r\n\r\nX\r\n"));
  });
  await t.step("a hand-edited document without it: the section goes at the end", () => {
    const out = withSince("## Goal\n\nG\n", section);
    assert.equal(out, "## Goal\n\nG\n\n" + section);
  });
  await t.step("Dropped deliberately that is not the last section is not moved around", () => {
    const text = "## Dropped deliberately\n\nX\n\n## Notes\n\nN\n";
    assert.ok(withSince(text, section).endsWith("## Notes\n\nN\n\n" + section));
  });
});
