import assert from "node:assert/strict";

Deno.test("evidence: parked items", async (t) => {
  await t.step("each open bullet becomes one line without its marker", async () => {
    const { openItems } = await import("../../../lib/handover/evidence/parked.ts");
    const { parseParked } = await import("../../../lib/parked/scanner.ts");
    const parkedItems = (text: string) => openItems(parseParked(text).items);
    const text =
      "# Parked items\r\n\r\n- **flaky-ci** — CI flakes. Raised: 2026-11-01. Why: x.\r\n" +
      "* **two** — Second\r\n  continued. Next: y.\r\n";
    assert.deepEqual(parkedItems(text), [
      {
        slug: "flaky-ci",
        text: "**flaky-ci** — CI flakes. Raised: 2026-11-01. Why: x.",
        source: "parked",
      },
      { slug: "two", text: "**two** — Second continued. Next: y.", source: "parked" },
    ]);
    assert.deepEqual(parkedItems("\0\x01 binary"), []);
  });
});
