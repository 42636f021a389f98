import assert from "node:assert/strict";
import {
  decide,
  matchParked,
  QUERY_LIMITS,
  queryProblem,
  queryWords,
  type Ranked,
} from "../../lib/parked/match.ts";
import type { ParkedItem } from "../../lib/parked/grammar.ts";
import { parseParked } from "../../lib/parked/scanner.ts";

const ITEMS = parseParked([
  "- **fix-flaky-parser** — Fix the flaky parser test.",
  "- **fix-parser** — Fix parser crash on CRLF.",
  "- **docs-install** — Document install on Windows.",
  "- **cache-warmup** — Cache warmup is slow.",
].join("\n")).items;

async function slugOf(query: string): Promise<string> {
  const r = await matchParked(ITEMS, query);
  return r.kind === "one" ? r.best.item.slug : r.kind;
}

function ranked(distance: number, exact = false): Ranked {
  return { item: {} as ParkedItem, exact, distance };
}

Deno.test("match", async (t) => {
  await t.step("an exact slug beats every fuzzy match", async () => {
    assert.equal(await slugOf("fix-parser"), "fix-parser");
    assert.equal(await slugOf("Fix Parser"), "fix-parser", "slugified first");
  });
  await t.step("every word must be found; typos up to one per three letters", async () => {
    assert.equal(await slugOf("flaky"), "fix-flaky-parser");
    assert.equal(await slugOf("flakey parsr"), "fix-flaky-parser");
    assert.equal(await slugOf("windows install"), "docs-install", "order does not matter");
    assert.equal(await slugOf("windows kubernetes"), "none");
    assert.equal(await slugOf("crl"), "fix-parser", "3 letters: found exactly");
    assert.equal(await slugOf("crx"), "none", "3 letters: no typo allowed");
  });
  await t.step("equally close: same tier and same total edits → ambiguous", async () => {
    const r = await matchParked(ITEMS, "parser");
    assert.equal(r.kind, "ambiguous");
    if (r.kind !== "ambiguous") return;
    assert.equal(r.tied, 2);
    assert.deepEqual(r.closest.map((c) => c.item.slug), ["fix-flaky-parser", "fix-parser"]);
  });
  await t.step("one fewer edit is closer: no tie", async () => {
    // "parsex" is 1 edit from "parser" in both; "crlf" is 0 edits only in fix-parser.
    assert.equal(await slugOf("parsex crlf"), "fix-parser");
  });
  await t.step("decide: the definition, on rankings", () => {
    assert.deepEqual(decide([]), { kind: "none" });
    assert.equal(decide([ranked(2), ranked(1)]).kind, "one");
    assert.equal(decide([ranked(1), ranked(1), ranked(3)]).kind, "ambiguous");
    assert.equal(decide([ranked(0, true), ranked(0)]).kind, "one", "exact beats distance 0");
    const six = decide([5, 1, 1, 2, 1, 1].map((d) => ranked(d)));
    assert.equal(six.kind, "ambiguous");
    if (six.kind === "ambiguous") {
      assert.equal(six.tied, 4);
      assert.deepEqual(six.closest.map((c) => c.distance), [1, 1, 1, 1]);
    }
    const three = decide([1, 1, 2, 9, 3].map((d) => ranked(d)));
    if (three.kind === "ambiguous") {
      assert.deepEqual(three.closest.map((c) => c.distance), [1, 1, 2, 3], "closest four");
    } else assert.fail("expected a tie");
  });
  await t.step("query words: slugified, deduplicated, stop words dropped unless all", () => {
    assert.deepEqual(queryWords("The Parser, the PARSER!"), ["parser"]);
    assert.deepEqual(queryWords("the"), ["the"]);
    assert.deepEqual(queryWords("--"), []);
  });
  await t.step("hostile queries never throw", async () => {
    for (const q of ["", "\0", "x".repeat(500), "(*)[]{}+?", "🙂 é"]) {
      const r = await matchParked(ITEMS, q);
      assert.ok(["one", "none", "ambiguous", "slow"].includes(r.kind));
    }
  });
  await t.step("bounded: over-long queries are refused, never searched", async () => {
    const { chars, words, wordChars } = QUERY_LIMITS;
    const w = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
    assert.equal(queryProblem(w(words)), undefined);
    assert.match(queryProblem(w(words + 1)) ?? "", /words/);
    assert.equal(queryProblem("p".repeat(wordChars)), undefined);
    assert.match(queryProblem("p".repeat(wordChars + 1)) ?? "", /letters/);
    assert.match(queryProblem("a ".repeat(chars)) ?? "", /characters/);
    // A 6,000-character query: refused at once, and the matcher will not search it.
    const huge = "fix the flaky parser ".repeat(300).slice(0, 6_000);
    assert.ok(queryProblem(huge));
    const started = performance.now();
    assert.equal((await matchParked(ITEMS, huge)).kind, "slow");
    assert.ok(performance.now() - started < 1_000, "not searched");
  });
  await t.step("bounded: the search stops at its time budget, between words", async () => {
    let now = 0;
    const ticking = () => (now += 600);
    const r = await matchParked(ITEMS, "fix flaky parser crash", {
      budgetMs: 1_000,
      clock: ticking,
    });
    assert.equal(r.kind, "slow");
    now = 0;
    const ok = await matchParked(ITEMS, "flaky", { budgetMs: 1_000, clock: ticking });
    assert.equal(ok.kind, "one");
  });
});
