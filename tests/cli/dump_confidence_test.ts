import assert from "node:assert/strict";
import { type DumpFacts, dumpPoints } from "../../lib/cli/dump.ts";
import { parseSections } from "../../lib/handover/document.ts";
import { DEFAULT_OPTIONS } from "../../lib/hook/input.ts";
import { answer } from "../../lib/hook/answer.ts";
import { join } from "../../lib/fs/path.ts";
import { storeAt } from "../../lib/store/store.ts";
import { git, NOW, put, scratchProject } from "../support/scratch.ts";
import { clearPayload, runCliInProcess } from "../support/run.ts";

const GOOD: DumpFacts = {
  backing: { agentRows: 0, unbacked: [], omitted: [], inTranscript: 2, gitOnly: 1 },
  rows: 3,
  transcript: true,
  sections: parseSections(
    "## Decisions\n\n- Token bucket — why: one instance.\n\n## Next step\n\nEdit `src/limiter.ts`.",
  ),
  size: { lines: 30, chars: 800, tokens: 200 },
  since: "2026-11-30T04:00:00Z",
  swept: "2026-11-30T11:50:00Z",
  now: NOW,
};

/** Each point's name and score, for a comparison at a glance. */
function scores(f: DumpFacts): string[] {
  return dumpPoints(f).map((p) => `${p.ok ? "✓" : "⚠"} ${p.name}`);
}

/** The one point named `name`. */
function pointOf(f: DumpFacts, name: string) {
  return dumpPoints(f).find((p) => p.name === name)!;
}

Deno.test("dump's points flip between ✓ and ⚠ with the facts", async (t) => {
  await t.step("all backed, reasoned, swept, concrete, within the cap: ✓ each", () => {
    assert.deepEqual(scores(GOOD), ["✓ files", "✓ decisions", "✓ sweep", "✓ next step", "✓ size"]);
    assert.equal(pointOf(GOOD, "files").fact, "3 rows, 2 in the transcript, 1 from git only");
    assert.equal(pointOf(GOOD, "next step").fact, "names `src/limiter.ts` (a file)");
    assert.equal(pointOf(GOOD, "decisions").fact, "1, each with its why");
    assert.equal(pointOf(GOOD, "sweep").fact, "run 10 min ago, before this dump");
  });
  await t.step("files: a row no evidence shows, or a file the table left out", () => {
    const ghost = { ...GOOD, backing: { ...GOOD.backing, agentRows: 1, unbacked: ["`x.ts`"] } };
    assert.equal(pointOf(ghost, "files").ok, false);
    assert.match(pointOf(ghost, "files").fact, /1 you gave that no evidence shows: `x\.ts`/);
    const left = { ...GOOD, backing: { ...GOOD.backing, agentRows: 1, omitted: ["a.ts"] } };
    assert.equal(pointOf(left, "files").ok, false);
    assert.match(pointOf(left, "files").fact, /1 the evidence shows that your table left out/);
    assert.equal(pointOf(left, "files").fix, "give the left-out files their rows");
  });
  await t.step("decisions: one without a why", () => {
    const f = {
      ...GOOD,
      sections: parseSections("## Decisions\n\n- Token bucket — why: one.\n- Cookies\n"),
    };
    assert.equal(pointOf(f, "decisions").ok, false);
    assert.equal(pointOf(f, "decisions").fact, '2, 1 without a why: "Cookies"');
  });
  await t.step("sweep: never run, or run before the session started", () => {
    assert.equal(pointOf({ ...GOOD, swept: undefined }, "sweep").ok, false);
    const before = pointOf({ ...GOOD, swept: "2026-11-30T03:59:59Z" }, "sweep");
    assert.equal(before.ok, false);
    assert.match(before.fact, /before this session/);
    assert.equal(pointOf({ ...GOOD, swept: GOOD.since }, "sweep").ok, true, "at the start counts");
  });
  await t.step("next step: vague, or missing", () => {
    for (const step of ["continue", "keep going", "finish it"]) {
      const f = { ...GOOD, sections: parseSections(`## Next step\n\n${step}\n`) };
      assert.equal(pointOf(f, "next step").ok, false, step);
      assert.equal(pointOf(f, "next step").fact, `names nothing concrete: "${step}"`);
    }
    assert.equal(pointOf({ ...GOOD, sections: [] }, "next step").fact, "missing");
  });
  await t.step("size: 75 lines and ~1,500 tokens are within the cap; one more is over", () => {
    const at = (lines: number, tokens: number) =>
      pointOf({ ...GOOD, size: { lines, chars: tokens * 4, tokens } }, "size");
    assert.equal(at(75, 1_500).ok, true);
    assert.equal(at(76, 1_500).ok, false);
    assert.equal(at(76, 1_500).fact, "76 lines, ~1,500 tokens: 1 line over 75");
    assert.equal(at(75, 1_501).ok, false);
    assert.match(at(75, 1_501).fact, /~1 tokens over 1,500/);
  });
});

const WEAK = [
  "## Goal",
  "",
  "Rate limits.",
  "",
  "## Decisions",
  "",
  "- Token bucket — why: one instance.",
  "- Cookies for sessions",
  "",
  "## Files touched",
  "",
  "| File | Change | State | Ref |",
  "| --- | --- | --- | --- |",
  "| `ghost.ts` | +1/-0 | wip | |",
  "",
  "## Next step",
  "",
  "keep going",
  "",
].join("\n");

Deno.test("dump flags each weak point, still writes, and ends with /clear", async (t) => {
  await using p = await scratchProject({ git: "repo", store: false });
  await put(p.root, "src/limiter.ts", "export {};\n");
  await git(p.root, ["add", "."]);
  await git(p.root, ["commit", "-qm", "limiter"]);
  await put(p.root, "src/limiter.ts", "export const a = 1;\n");
  const path = join(storeAt(p.root).dir, "rate.md");

  await t.step(
    "weak: every point the sections make weak is flagged; the write happens",
    async () => {
      const r = await runCliInProcess(["dump", "rate"], { cwd: p.root, stdin: WEAK });
      assert.equal(r.code, 0, r.err);
      const lines = r.out.split("\n");
      const at = lines.indexOf("## Confidence");
      assert.ok(at > 0, r.out);
      assert.equal(lines[at - 1], "", "set off by a blank line");
      assert.match(
        lines[at + 1],
        /^⚠ files: 2 rows; 1 you gave that no evidence shows: `ghost\.ts`; 1 the evidence shows that your table left out \(added from it\): `src\/limiter\.ts` → /,
      );
      assert.match(lines[at + 2], /^⚠ decisions: 2, 1 without a why: "Cookies for sessions" → /);
      assert.match(
        lines[at + 3],
        /^⚠ sweep: not run \(no \.temp\/session\/unlanded\.md\) → run `session\.ts sweep`/,
      );
      assert.match(lines[at + 4], /^⚠ next step: names nothing concrete: "keep going" → /);
      assert.match(lines[at + 5], /^✓ size: \d+ lines/);
      assert.match(
        lines[at + 6],
        /Fix what is flagged and rerun once.*session\.ts dump rate --force$/,
      );
      assert.equal(lines[at + 7], "Next step: keep going", "the block comes right before it");
      assert.equal(lines.at(-1), "/clear");
      const text = await Deno.readTextFile(path);
      assert.match(text, /keep going/, "written anyway");
      assert.doesNotMatch(text, /Confidence/, "the block is output, not part of the document");
    },
  );

  await t.step("the hook injects the document, not the block", async () => {
    const payload = JSON.parse(clearPayload(p.root));
    const a = await answer(payload, DEFAULT_OPTIONS, { projectDir: p.root }, NOW);
    assert.match(a.stdout ?? "", /keep going/, a.reason);
    assert.doesNotMatch(a.stdout ?? "", /Confidence|⚠/);
  });

  await t.step("fixed and rerun with --force (after a sweep): every point ✓", async () => {
    assert.equal((await runCliInProcess(["sweep"], { cwd: p.root })).code, 0);
    const fixed = WEAK.replace("- Cookies for sessions", "- Cookies — why: same origin.")
      .replace("| `ghost.ts` | +1/-0 | wip | |", "| `src/limiter.ts` | +1/-1 | wip | |")
      .replace("keep going", "Write the burst test in `tests/limiter_test.ts`.");
    const r = await runCliInProcess(["dump", "rate", "--force"], { cwd: p.root, stdin: fixed });
    assert.equal(r.code, 0, r.err);
    const block = r.out.split("## Confidence\n")[1].split("\nNext step:")[0];
    assert.doesNotMatch(block, /⚠|Fix what/, block);
    assert.match(block, /^✓ files: 1 row, 1 from git \(no transcript read\), 1 given by you$/m);
    assert.match(block, /^✓ sweep: run just now, before this dump$/m);
    assert.match(block, /^✓ next step: names `tests\/limiter_test\.ts` \(a file\)$/m);
    assert.equal(r.out.split("\n").at(-1), "/clear");
  });
});

Deno.test("dump: the cap and the files table at their thresholds", async (t) => {
  await using p = await scratchProject({ git: false, store: false });
  const dump = async (name: string, body: string) => {
    const r = await runCliInProcess(["dump", name], { cwd: p.root, stdin: body });
    assert.equal(r.code, 0, r.err);
    return { out: r.out, text: await Deno.readTextFile(join(storeAt(p.root).dir, `${name}.md`)) };
  };
  const lines = (text: string) => text.replace(/\n$/, "").split("\n").length;
  const filler = (n: number) =>
    `## Goal\n\nG.\n\n## Lessons / corrections\n\n${
      Array.from({ length: n }, (_, i) => `- l${i}`).join("\n")
    }\n`;

  await t.step("75 lines: within the cap; 76: over, said, still written", async () => {
    const probe = await dump("probe", filler(10));
    const base = lines(probe.text) - 10; // the lines a dump adds around the filler
    const at = await dump("at-cap", filler(75 - base));
    assert.equal(lines(at.text), 75);
    assert.match(at.out, /^✓ size: 75 lines/m);
    assert.doesNotMatch(at.out, /Over the cap/);
    const over = await dump("over-cap", filler(76 - base));
    assert.equal(lines(over.text), 76);
    assert.match(over.out, /^⚠ size: 76 lines, ~\d+ tokens: 1 line over 75 → /m);
    assert.match(over.out, /^Over the cap: 1 line over 75\. Written anyway/m);
  });

  await t.step("~1,500 tokens: within the cap; one token more: over", async () => {
    const body = (chars: number) => `## Goal\n\n${"x".repeat(chars)}\n`;
    const probe = await dump("tok-p", body(100)); // names of one length: the slug is in the front matter
    const base = probe.text.replace(/\n$/, "").length - 100; // characters around the goal
    const at = await dump("tok-a", body(6_000 - base));
    assert.match(at.out, /^✓ size: \d+ lines, ~1,500 tokens/m);
    const over = await dump("tok-o", body(6_001 - base));
    assert.match(over.out, /^⚠ size: \d+ lines, ~1,501 tokens: ~1 tokens over 1,500/m);
  });

  await t.step("25 rows: shown; 26: grouped by directory, the elided count stated", async () => {
    const table = (n: number) =>
      "## Files touched\n\n| File | Change | State | Ref |\n| --- | --- | --- | --- |\n" +
      Array.from({ length: n }, (_, i) => `| \`${i % 2 ? "a" : "b"}/f${i}.ts\` | +1/-0 | wip | |`)
        .join("\n") +
      "\n";
    const shown = await dump("rows-25", table(25));
    assert.equal(shown.text.match(/^\| `[ab]\/f\d+\.ts` \|/gm)?.length, 25);
    assert.doesNotMatch(shown.text, /grouped by directory/);
    const grouped = await dump("rows-26", table(26));
    assert.equal(grouped.text.match(/^\| `[ab]\/f\d+\.ts` \|/gm), null);
    assert.match(grouped.text, /^\| `a\/` \(13 files\) \| \+13\/-0 \| wip \|/m);
    assert.match(
      grouped.text,
      /^26 files, over 25 rows: grouped by directory into 2 rows \(24 rows elided; /m,
    );
    assert.match(grouped.out, /^Counts: 26 files/m);
  });
});
