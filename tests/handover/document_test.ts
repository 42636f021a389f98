import assert from "node:assert/strict";
import {
  buildDigest,
  capLines,
  findSection,
  parseSections,
  sectionKey,
} from "../../lib/handover/document.ts";
import { BUDGETS } from "../../lib/frame/budget.ts";

const BODY = [
  "## Goal",
  "",
  "Ship it.",
  "",
  "## Decisions",
  "",
  "- A — why: B",
  "",
  "```md",
  "## Not a heading (inside a fence)",
  "```",
  "",
  "## Files touched",
  "",
  "| File | Change | State | Ref |",
  "|---|---|---|---|",
  "| a.ts | +1/-0 | done | abc |",
  "",
  "## Next step",
  "",
  "Run tests.",
].join("\n");

Deno.test("sections", async (t) => {
  await t.step("splits at ## headings outside fences", () => {
    const s = parseSections(BODY);
    assert.deepEqual(s.map((x) => x.title), ["Goal", "Decisions", "Files touched", "Next step"]);
    assert.ok(findSection(s, "Decisions")!.includes("## Not a heading"));
    assert.equal(findSection(s, "Goal"), "Ship it.");
  });
  await t.step("CRLF bodies parse the same", () => {
    assert.deepEqual(parseSections(BODY.replaceAll("\n", "\r\n")), parseSections(BODY));
  });
  await t.step("lookup ignores case, spacing and a trailing parenthetical", () => {
    assert.equal(sectionKey("Files touched (3)"), sectionKey("files  TOUCHED"));
    assert.equal(findSection(parseSections("## next STEP\n\nGo."), "Next step"), "Go.");
  });
  await t.step("text before the first heading is kept under an empty title", () => {
    assert.deepEqual(parseSections("intro\n## A\nx"), [
      { title: "", content: "intro" },
      { title: "A", content: "x" },
    ]);
  });
  await t.step("empty and heading-only input never throws", () => {
    assert.deepEqual(parseSections(""), []);
    assert.deepEqual(parseSections("## Lone"), [{ title: "Lone", content: "" }]);
  });
});

Deno.test("capLines", async (t) => {
  await t.step("short text is untouched", () => assert.equal(capLines("a\nb", 10), "a\nb"));
  await t.step("a long table is cut at a row with the elided count", () => {
    const rows = Array.from({ length: 100 }, (_, i) => `| f${i}.ts | +1/-0 | done | |`);
    const out = capLines(rows.join("\n"), 300);
    assert.ok(out.length <= 300, `${out.length}`);
    const kept = out.split("\n").filter((l) => l.startsWith("|")).length;
    assert.match(out, new RegExp(`… ${100 - kept} more rows elided$`));
  });
});

Deno.test("digest", async (t) => {
  const filler = "## Decisions\n\n" + "- filler decision — why: padding\n".repeat(400);
  const files = "| File | Change | State | Ref |\n|---|---|---|---|\n" +
    Array.from({ length: 500 }, (_, i) => `| src/file${i}.ts | +1/-1 | wip | |`).join("\n");
  const body =
    `## Goal\n\nShip it.\n\n${filler}\n## Files touched\n\n${files}\n\n## Next step\n\nRun it.`;
  const digest = buildDigest(body, "deno run session.ts recall x", BUDGETS.claude.limit - 200);
  await t.step("keeps Goal, Files touched, Next step and the recall command", () => {
    assert.match(digest, /## Goal\n\nShip it\./);
    assert.match(digest, /## Files touched\n\n\| File/);
    assert.match(digest, /## Next step\n\nRun it\./);
    assert.ok(digest.includes("deno run session.ts recall x"));
  });
  await t.step("drops the filler and fits the budget, stating what was elided", () => {
    assert.ok(!digest.includes("filler decision"));
    assert.ok(digest.length <= BUDGETS.claude.limit - 200, `${digest.length}`);
    assert.match(digest, /more rows elided/);
  });
  await t.step("a huge goal is capped too", () => {
    const d = buildDigest(`## Goal\n\n${"g".repeat(50_000)}\n## Next step\n\nGo.`, "cmd", 2_000);
    assert.ok(d.length <= 2_000, `${d.length}`);
    assert.match(d, /## Goal\n\ng{500,}…/);
    assert.match(d, /## Next step\n\nGo\./);
  });
});

Deno.test("capLines cuts a single over-long prose line inside instead of losing it", () => {
  const out = capLines("x".repeat(5_000) + "\nsecond", 500);
  assert.ok(out.length <= 500, `${out.length}`);
  assert.match(out, /^x{100,}…\n… 1 more line elided$/);
});
