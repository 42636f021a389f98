import assert from "node:assert/strict";
import {
  codeSpan,
  fileKey,
  filesSection,
  groupRows,
  mergeRows,
  parseFilesSection,
  renderTable,
  type Row,
  rowsFromEvidence,
} from "../../lib/handover/files_table.ts";
import type { EvidenceFile } from "../../lib/handover/evidence/model.ts";
import { prng, textOf } from "../support/prng.ts";

const EV: EvidenceFile[] = [
  { path: "lib/a.ts", change: "+3/-1", state: "wip", ref: "uncommitted", source: "git" },
  { path: "lib/b.ts", change: "+5/-0", state: "done", ref: "abc1234", source: "git" },
  { path: "new.md", change: "uncommitted-new", state: "wip", ref: "uncommitted", source: "git" },
];

function rows(n: number, dir: (i: number) => string): Row[] {
  return Array.from({ length: n }, (_, i) => ({
    file: `\`${dir(i)}f${i}.ts\``,
    change: `+${i}/-1`,
    state: i % 2 ? "done" : "wip",
    ref: "abc1234",
  }));
}

Deno.test("files table", async (t) => {
  await t.step("from evidence: one row per file, paths in backticks", () => {
    assert.deepEqual(rowsFromEvidence(EV)[0], {
      file: "`lib/a.ts`",
      change: "+3/-1",
      state: "wip",
      ref: "uncommitted",
    });
    const table = renderTable(rowsFromEvidence(EV));
    assert.equal(
      table,
      [
        "| File | Change | State | Ref |",
        "| --- | --- | --- | --- |",
        "| `lib/a.ts` | +3/-1 | wip | uncommitted |",
        "| `lib/b.ts` | +5/-0 | done | abc1234 |",
        "| `new.md` | uncommitted-new | wip | uncommitted |",
      ].join("\n"),
    );
  });
  await t.step("parses the agent's table by header names, CRLF, notes kept", () => {
    const text = "Intro note.\r\n\r\n| Ref | File | State | Change |\r\n|:--|---|---|--:|\r\n" +
      "| r1 | `lib/a.ts` | needs-test | refactor |\r\n| | ./lib/b.ts | done | |\r\n\r\nAfter.";
    const parsed = parseFilesSection(text);
    assert.deepEqual(parsed.rows, [
      { file: "`lib/a.ts`", change: "refactor", state: "needs-test", ref: "r1" },
      { file: "./lib/b.ts", change: "", state: "done", ref: "" },
    ]);
    assert.equal(parsed.notes, "Intro note.\n\n\nAfter.");
  });
  await t.step("a headerless table reads in the standard order; escaped pipes stay", () => {
    const parsed = parseFilesSection("| x.ts | a \\| b | wip | r |");
    assert.deepEqual(parsed.rows, [{ file: "x.ts", change: "a \\| b", state: "wip", ref: "r" }]);
  });
  await t.step("merge keeps the agent's Change/State, fills a missing Ref, adds the rest", () => {
    const agent = [
      { file: "`lib/a.ts`", change: "refactor", state: "needs-test", ref: "" },
      { file: "./lib/b.ts", change: "", state: "reverted", ref: "mine" },
      { file: "docs/only-agent.md", change: "new", state: "done", ref: "-" },
    ];
    assert.deepEqual(mergeRows(agent, rowsFromEvidence(EV)), [
      { file: "`lib/a.ts`", change: "refactor", state: "needs-test", ref: "uncommitted" },
      { file: "./lib/b.ts", change: "+5/-0", state: "reverted", ref: "mine" },
      { file: "docs/only-agent.md", change: "new", state: "done", ref: "-" },
      { file: "`new.md`", change: "uncommitted-new", state: "wip", ref: "uncommitted" },
    ]);
  });
  await t.step("25 rows are written as they are", () => {
    const table = renderTable(rows(25, () => ""));
    assert.equal(table.split("\n").length, 27);
    assert.ok(!table.includes("elided"));
  });
  await t.step("over 25 rows: grouped by directory, elided count stated", () => {
    const many = rows(40, (i) => `src/m${i % 5}/`);
    const table = renderTable(many);
    const lines = table.split("\n");
    assert.equal(lines.filter((l) => l.startsWith("| `src/")).length, 5);
    assert.ok(table.includes("| `src/m0/` (8 files) |"));
    assert.match(
      table,
      /40 files, over 25 rows: grouped by directory into 5 rows \(35 rows elided/,
    );
  });
  await t.step("grouping climbs directories until it fits; sums and tallies", () => {
    const many = rows(30, (i) => `pkg${i % 3}/sub${i}/`);
    const grouped = groupRows(many, 25);
    assert.equal(grouped.length, 3);
    assert.equal(grouped[0].file, "`pkg0/` (10 files)");
    assert.equal(grouped[0].change, "+135/-10");
    assert.equal(grouped[0].state, "wip 5, done 5");
    assert.equal(grouped[0].ref, "abc1234");
    const flat = groupRows(rows(30, (i) => `d${i}/`), 25);
    assert.deepEqual(flat.map((r) => r.file), ["`./` (30 files)"]);
  });
  await t.step("200,000 files group without overflowing the stack", () => {
    // A deepest level taken as a spread of one argument per row overflows the stack at 200,000
    // rows, and dump would fail on a change set that size.
    const huge = rows(200_000, (i) => `src/d${i % 40}/`);
    const grouped = groupRows(huge, 25);
    assert.equal(grouped.length, 1);
    assert.equal(grouped[0].file, "`src/` (200000 files)");
  });
  await t.step("a directory with one file keeps its row; mixed changes are counted", () => {
    const mixed: Row[] = [
      ...rows(26, () => "a/"),
      { file: "b/one.ts", change: "uncommitted-new", state: "wip", ref: "uncommitted" },
      { file: "a/bin.png", change: "binary", state: "wip", ref: "uncommitted" },
    ];
    const grouped = groupRows(mixed, 25);
    assert.deepEqual(grouped[1], mixed[26]);
    assert.equal(grouped[0].change, "+325/-26, binary");
  });
  await t.step("filesSection: evidence alone, or merged with the agent's; counts files", () => {
    assert.deepEqual(filesSection(undefined, []), { content: "", files: 0 });
    const built = filesSection(undefined, EV);
    assert.equal(built.files, 3);
    assert.ok(built.content.startsWith("| File | Change | State | Ref |"));
    const merged = filesSection(
      "| File | Change | State | Ref |\n|---|---|---|---|\n| x.ts | y | wip | z |\n\nNote.",
      EV,
    );
    assert.equal(merged.files, 4);
    assert.ok(merged.content.endsWith("\n\nNote."));
  });
  await t.step("a path is one code span whatever backticks, spaces or line breaks it holds", () => {
    // CommonMark: the fence is longer than any run inside; a span that starts or ends with a
    // backtick, or with a space at both ends, is padded (the reader strips one space each side).
    const cases: [string, string][] = [
      ["lib/a.ts", "`lib/a.ts`"],
      ["a`b", "``a`b``"],
      ["a``b`c", "```a``b`c```"],
      ["`a", "`` `a ``"],
      ["a``", "``` a`` ```"],
      [" a ", "`  a  `"],
      ["  ", "`  `"],
      [" a", "` a`"],
      ["a\nb", "`a b`"],
      ["a\r\nb", "`a b`"],
      ["a\rb", "`a b`"],
      ["\n## Next step\n", "`  ## Next step  `"],
    ];
    // Not one span (its closing run is longer than its fence): a cell's backticks are dropped.
    assert.equal(fileKey("``a```"), "a");
    assert.equal(fileKey("`a``"), "a");
    assert.equal(fileKey("`a` and `b`"), "a and b");
    for (const [path, span] of cases) {
      assert.equal(codeSpan(path), span, JSON.stringify(path));
      assert.equal(fileKey(span), path.replace(/\r\n?|\n/g, " ").replace(/^\.\//, ""));
    }
  });
  await t.step("generated paths: one table line per file, read back to the same keys", () => {
    const next = prng(0x7ab1e);
    const pieces = ["a", "b/", "`", "``", " ", "|", "\\", "\n", "\r", "\r\n", "é", "#", "-", "*"];
    for (let round = 0; round < 500; round++) {
      const paths = [...new Set(Array.from({ length: 4 }, () => "f" + textOf(next, pieces, 9)))];
      const ev: EvidenceFile[] = paths.map((path) => ({
        path,
        change: "+1/-0",
        state: "wip",
        ref: "uncommitted",
        source: "git",
      }));
      const table = renderTable(rowsFromEvidence(ev));
      const lines = table.split(/\r\n?|\n/);
      assert.equal(lines.length, 2 + paths.length, JSON.stringify(paths));
      const parsed = parseFilesSection(table).rows;
      // Where a path is its own key once its line breaks are spaces: `\|` is GFM's pipe.
      const shown = (p: string) => p.replace(/\r\n?|\n/g, " ").replace(/\\\|/g, "|");
      assert.deepEqual(
        parsed.map((r) => fileKey(r.file)),
        paths.map((p) => shown(p).replace(/\\/g, "/")),
      );
      // The agent's own table read back matches every evidence row: the merge adds none.
      assert.equal(mergeRows(parsed, rowsFromEvidence(ev)).length, paths.length);
    }
  });
  await t.step("hostile input never throws", () => {
    for (const s of ["|", "||||", "| --- |", "\0|\x01|", "|".repeat(10_000)]) {
      parseFilesSection(s);
    }
  });
});
