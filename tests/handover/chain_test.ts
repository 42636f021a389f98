import assert from "node:assert/strict";
import { chainStory } from "../../lib/handover/chain.ts";
import type { Link } from "../../lib/store/lineage.ts";
import { NOW } from "../support/scratch.ts";
import { prng } from "../support/prng.ts";

const LIMIT = 9_500;

/** A link dumped `hours` ago with these sections. */
function link(slug: string, hours: number, body: string): Link {
  const created = new Date(NOW.getTime() - hours * 3_600_000).toISOString().slice(0, 19) + "Z";
  return { slug, fields: { slug, created, branch: "main" }, body };
}

Deno.test("chainStory", async (t) => {
  await t.step("Goal, Decisions, Lessons newest first; an item carried forward once", () => {
    const links = [
      link(
        "c",
        1,
        "## Goal\n\nShip retries.\n\n## Decisions\n\n- Retry 3 times — why: flaky network.\n" +
          "- Backoff 2x — why: load.\n\n## Next step\n\nRun it.\n",
      ),
      link(
        "b",
        5,
        "## Goal\n\nShip retries.\n\n## Decisions\n\n-  retry 3 TIMES — why: flaky network.\n\n" +
          "## Lessons / corrections\n\n- The mock lies about timeouts.\n",
      ),
      link("a", 30, "## Goal\n\nFind why uploads fail.\n\n## Files touched\n\n| a | b |\n"),
    ];
    const s = chainStory(links, { kind: "root" }, NOW, LIMIT);
    const order = ["## c", "Ship retries.", "Retry 3 times", "Backoff 2x", "## b", "mock lies"]
      .map((x) => s.text.indexOf(x));
    assert.deepEqual([...order].sort((x, y) => x - y), order, s.text);
    assert.ok(order.every((i) => i >= 0), s.text);
    assert.equal(s.text.match(/Ship retries\./g)!.length, 1, "the same goal once");
    assert.equal(s.text.match(/retry 3 times/gi)!.length, 1, "the same decision once");
    assert.match(s.text, /## a — dumped 30 h ago[^\n]*\n\n### Goal\n\nFind why uploads fail\./);
    assert.doesNotMatch(s.text, /Run it\.|\| a \| b \|/, "only Goal, Decisions and Lessons");
    assert.equal(s.repeats, 2);
    assert.deepEqual([s.whole, s.digested, s.omitted], [3, 0, 0]);
    assert.match(s.text, /The chain starts at the oldest handover above\.$/);
  });

  await t.step("long ancestors: within the budget, the oldest in one line each", () => {
    const rand = prng(34);
    const long = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => `- Decision ${i} ${rand().toString(36).slice(2)} — why: ${"because ".repeat(20)}`,
      )
        .join("\n");
    const links = Array.from(
      { length: 40 },
      (_, i) =>
        link(`h${40 - i}`, i + 1, `## Goal\n\nGoal ${40 - i}.\n\n## Decisions\n\n${long(12)}\n`),
    );
    const s = chainStory(links, { kind: "missing", parent: "h0" }, NOW, LIMIT);
    assert.ok(s.text.length <= LIMIT, `${s.text.length} > ${LIMIT}`);
    assert.ok(s.whole >= 1 && s.digested >= 1, JSON.stringify({ ...s, text: undefined }));
    assert.equal(s.whole + s.digested + s.omitted, 40);
    assert.match(s.text, /## Older handovers, one line each \(over the 9,500-character budget\)/);
    assert.match(s.text, /Its parent "h0" is not in this store \(expired, or never pulled\)\.$/);
    if (s.omitted) assert.match(s.text, new RegExp(`… and ${s.omitted} older: `));
  });

  await t.step("the newest alone over the budget is cut, never dropped; the rest named", () => {
    const huge = (slug: string) =>
      `## Goal\n\n${"A very long goal line. ".repeat(50)}${slug}\n\n## Decisions\n\n${
        Array.from({ length: 400 }, (_, i) => `- d${i} of ${slug} — why: ${"x".repeat(40)}`)
          .join("\n")
      }\n`;
    for (const n of [1, 2, 300]) {
      const links = Array.from({ length: n }, (_, i) => link(`k${i}`, i, huge(`k${i}`)));
      const s = chainStory(links, { kind: "root" }, NOW, LIMIT);
      assert.ok(s.text.length <= LIMIT, `${n}: ${s.text.length}`);
      assert.equal(s.whole, 1);
      assert.match(s.text, /more lines? elided/);
      assert.equal(s.whole + s.digested + s.omitted, n);
    }
  });

  await t.step(
    "the budget is used to its end: whole when it fits exactly, no line left out",
    () => {
      const body = (slug: string, n: number) =>
        `## Goal\n\nGoal of ${slug}.\n\n## Decisions\n\n${
          Array.from({ length: n }, (_, i) => `- ${slug} decision ${i} — why: reasons.`).join("\n")
        }\n`;
      const three = [
        link("c", 1, body("c", 40)),
        link("b", 5, body("b", 40)),
        link("a", 9, body("a", 40)),
      ];
      const full = chainStory(three, { kind: "root" }, NOW, 100_000);
      const exact = chainStory(three, { kind: "root" }, NOW, full.text.length);
      assert.deepEqual([exact.whole, exact.digested], [3, 0], "the oldest whole: it fits exactly");
      assert.equal(exact.text, full.text);
      const less = chainStory(three, { kind: "root" }, NOW, full.text.length - 1);
      assert.deepEqual([less.whole, less.digested, less.omitted], [2, 1, 0]);
      // Several long ancestors, each in one line (their goals long enough that every line is
      // longer than the line counting the rest would be): the last of them too, when it fits.
      const goal = (slug: string) => `${"A goal worth a long line. ".repeat(6)}${slug}`;
      const long = [
        link("new", 1, body("new", 90)),
        ...[2, 3, 4, 5, 6].map((h) =>
          link(
            `old${h}`,
            h,
            body(`old${h}`, 80).replace(
              `Goal of old${h}.`,
              goal(`old${h}`),
            ),
          )
        ),
      ];
      const lines = chainStory(long, { kind: "root" }, NOW, 6_000);
      assert.deepEqual([lines.whole, lines.digested, lines.omitted], [1, 5, 0], "precondition");
      const tight = chainStory(long, { kind: "root" }, NOW, lines.text.length + 10);
      assert.deepEqual(
        [tight.whole, tight.digested, tight.omitted],
        [1, 5, 0],
        "every ancestor in its line, the last too",
      );
      assert.match(tight.text, /\n- old6 \(6 h ago\): A goal/);
    },
  );
  await t.step("every budget from tight to wide is kept", () => {
    const rand = prng(7);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(rand() * 30);
      const links = Array.from({ length: n }, (_, i) =>
        link(
          `s${i}-${"q".repeat(Math.floor(rand() * 60))}`,
          i,
          `## Goal\n\n${"g".repeat(Math.floor(rand() * 400))}\n\n## Decisions\n\n${
            "- x\n".repeat(Math.floor(rand() * 200))
          }`,
        ));
      const limit = 2_000 + Math.floor(rand() * 9_000);
      const s = chainStory(links, { kind: "cycle", parent: "s0" }, NOW, limit);
      assert.ok(s.text.length <= limit, `round ${round}: ${s.text.length} > ${limit}`);
      assert.equal(s.whole + s.digested + s.omitted, n);
    }
  });
});
