import assert from "node:assert/strict";
import { rankUnits } from "../../lib/search/rank.ts";
import type { Unit } from "../../lib/search/corpus.ts";

/** A handover section dated `day` of November 2026. */
function section(slug: string, text: string, day = 1, kind: Unit["kind"] = "handover"): Unit {
  const date = `2026-11-${String(day).padStart(2, "0")}T00:00:00Z`;
  return { kind, slug, section: "Decisions", text, date, dateMs: Date.parse(date) };
}

Deno.test("search ranking", async (t) => {
  await t.step("exact words before fuzzy ones, then fewer edits, whatever the age", async () => {
    const units = [
      section("newest-fuzzy", "- The retry polixx was dropped.", 29),
      section("old-exact", "- The retry policy is exponential.", 1),
      section("one-edit", "- The retry policx is linear.", 20),
      section("inside-a-word", "- Retrying policy, newest of all.", 30),
    ];
    const hits = await rankUnits(units, ["retry", "policy"]);
    assert.deepEqual(hits.map((h) => [h.unit.slug, h.exact, h.distance]), [
      ["old-exact", true, 0],
      ["inside-a-word", false, 0],
      ["one-edit", false, 1],
      ["newest-fuzzy", false, 2],
    ]);
  });
  await t.step("among equals: newest first, then handovers before items, then slug", async () => {
    const units = [
      section("b", "retry policy", 5, "parked"),
      section("a", "retry policy", 5, "dropped"),
      section("c", "retry policy", 5),
      section("d", "retry policy", 9),
    ];
    const hits = await rankUnits(units, ["retry", "policy"]);
    assert.deepEqual(hits.map((h) => h.unit.slug), ["d", "c", "b", "a"]);
  });
  await t.step("every word must be found; short words only exactly", async () => {
    const units = [
      section("x", "retry only"),
      section("y", "the api gateway"),
      section("z", "apx"),
    ];
    assert.deepEqual((await rankUnits(units, ["retry", "policy"])).length, 0);
    assert.deepEqual((await rankUnits(units, ["api"])).map((h) => h.unit.slug), ["y"]);
  });
  await t.step(
    "a word near a word elsewhere, but in nothing of a section, excludes it",
    async () => {
      // "policy" is near "policx" (one section) and "polici" (another): not near anything in the
      // sections between them, which hold the other word exactly.
      const units = [
        section("retry-only", "- retry, and nothing else", 9),
        section("fuzzy", "- the retry policx", 8),
        section("policy-only", "- the policy alone", 7),
        section("also-fuzzy", "- retry polici", 6),
        section("neither", "- unrelated", 5),
      ];
      const hits = await rankUnits(units, ["retry", "policy"]);
      assert.deepEqual(hits.map((h) => [h.unit.slug, h.exact, h.distance]), [
        ["fuzzy", false, 1],
        ["also-fuzzy", false, 1],
      ]);
    },
  );
  await t.step("the line shown holds the most query words, on one line", async () => {
    const units = [section("m", "- unrelated line\n- retry the upload\n- retry policy: backoff\n")];
    const [hit] = await rankUnits(units, ["retry", "policy"]);
    assert.equal(hit.line, "- retry policy: backoff");
  });
  await t.step("any script and case: words are the slug rule's", async () => {
    const units = [section("jp", "再試行 の方針"), section("up", "RETRY POLICY")];
    assert.deepEqual((await rankUnits(units, ["再試行"])).map((h) => h.unit.slug), ["jp"]);
    assert.deepEqual((await rankUnits(units, ["retry"])).map((h) => h.exact), [true]);
  });
});
