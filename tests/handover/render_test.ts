import assert from "node:assert/strict";
import {
  countItems,
  knownTitle,
  largestSections,
  measure,
  orderSections,
  overage,
  parseSections,
  renderHandover,
} from "../../lib/handover/document.ts";
import { splitFrontMatter } from "../../lib/store/front_matter.ts";

Deno.test("handover rendering", async (t) => {
  await t.step("known titles: exact, case, parenthetical, plurals, first word", () => {
    assert.equal(knownTitle("goal"), "Goal");
    assert.equal(knownTitle("Goals"), "Goal");
    assert.equal(knownTitle("Next steps"), "Next step");
    assert.equal(knownTitle("Next"), "Next step");
    assert.equal(knownTitle("Files touched (table)"), "Files touched");
    assert.equal(knownTitle("Lessons"), "Lessons / corrections");
    assert.equal(knownTitle("Decision"), "Decisions");
    assert.equal(knownTitle("Notes"), undefined);
    assert.equal(knownTitle(""), undefined);
  });
  await t.step("order: known in spec order, repeats merged, unknown after, empty dropped", () => {
    const md = "Preface.\n## Next step\n\nN\n## Custom\n\nC\n## Goal\n\nG\n## Decisions\n\n" +
      "## goal\n\nG2\n## Artifacts\n";
    assert.deepEqual(orderSections(parseSections(md)), [
      { title: "", content: "Preface." },
      { title: "Goal", content: "G\n\nG2" },
      { title: "Next step", content: "N" },
      { title: "Custom", content: "C" },
    ]);
  });
  await t.step("render: front matter, then sections; parses back", () => {
    const text = renderHandover(
      { slug: "s", created: "2026-11-30T04:02:39Z", branch: "main" },
      [{ title: "Goal", content: "G" }, { title: "Next step", content: "N" }],
    );
    assert.equal(
      text,
      "---\nslug: s\ncreated: 2026-11-30T04:02:39Z\nconsumed: false\nbranch: main\n---\n\n" +
        "## Goal\n\nG\n\n## Next step\n\nN\n",
    );
    assert.deepEqual(splitFrontMatter(text)!.fields.consumed, "false");
  });
  await t.step("measure: lines and ~tokens (chars / 4); CRLF counts like LF", () => {
    assert.deepEqual(measure("abcd\nefgh\n"), { lines: 2, chars: 9, tokens: 3 });
    assert.deepEqual(measure("abcd\r\nefgh\r\n"), measure("abcd\nefgh\n"));
    assert.deepEqual(measure(""), { lines: 0, chars: 0, tokens: 0 });
  });
  await t.step("overage: within the cap undefined; over names lines and tokens", () => {
    assert.equal(overage({ lines: 75, chars: 6000, tokens: 1500 }), undefined);
    assert.equal(overage({ lines: 80, chars: 0, tokens: 0 }), "5 lines over 75");
    assert.equal(
      overage({ lines: 76, chars: 0, tokens: 2750 }),
      "1 line over 75, ~1,250 tokens over 1,500",
    );
  });
  await t.step("largest sections first", () => {
    const l = largestSections([
      { title: "A", content: "x" },
      { title: "B", content: "x".repeat(40) },
      { title: "C", content: "x\n".repeat(5) },
    ], 2);
    assert.deepEqual(l.map((s) => [s.title, s.tokens]), [["B", 10], ["C", 3]]);
  });
  await t.step("countItems counts top-level list items only", () => {
    assert.equal(countItems("- a\n  - nested\n* b\n1. c\n2) d\ntext\n-not"), 4);
    assert.equal(countItems(undefined), 0);
  });
});
