import assert from "node:assert/strict";
import { formatBullet, type ParkedItem } from "../../lib/parked/grammar.ts";
import { parseParked, renderParked } from "../../lib/parked/scanner.ts";
import { prng as rng } from "../support/prng.ts";
import { WELL_FORMED } from "./_fixture.ts";

Deno.test("parked: parse", async (t) => {
  await t.step("well-formed file: fields of every bullet", () => {
    const doc = parseParked(WELL_FORMED);
    assert.equal(doc.items.length, 2);
    const [a, b] = doc.items;
    assert.equal(a.slug, "fix-flaky-parser");
    assert.equal(a.summary, "Fix the flaky parser test");
    assert.equal(a.raised, "2026-11-20");
    assert.equal(a.why, "CI fails 1 in 10");
    assert.equal(a.next, "run with seed 42");
    assert.equal(a.line, 3);
    assert.equal(b.slug, "docs-install");
    assert.equal(b.why, undefined);
    assert.equal(b.next, undefined);
    assert.equal(b.line, 4);
  });
  await t.step("render(parse(x)) is byte-exact for a well-formed file, LF and CRLF", () => {
    assert.equal(renderParked(parseParked(WELL_FORMED)), WELL_FORMED);
    const crlf = WELL_FORMED.replaceAll("\n", "\r\n");
    const doc = parseParked(crlf);
    assert.equal(renderParked(doc), crlf);
    assert.equal(doc.eol, "\r\n");
    assert.equal(doc.items[0].next, "run with seed 42", "no stray \\r in fields");
    assert.equal(doc.items[0].text.includes("\r"), false);
  });
  await t.step("a canonical bullet re-formats to itself", () => {
    for (const item of parseParked(WELL_FORMED).items) assert.equal(formatBullet(item), item.text);
  });
  await t.step("multi-line bullets: indented and lazy continuation, ended by blank/heading", () => {
    const text = [
      "# Parked items",
      "- **wrap** — a long summary",
      "  that wraps. Raised: 2026-11-01.",
      "Why: lazy line. Next: finish",
      "  - a nested detail",
      "",
      "Some prose paragraph.",
      "## Later",
      "- **b** — second",
      "# Heading ends it",
    ].join("\n");
    const doc = parseParked(text);
    assert.equal(renderParked(doc), text);
    assert.equal(doc.items.length, 2);
    const [wrap, b] = doc.items;
    // Fields come from the first line; the lines after it are the user's notes, verbatim.
    assert.equal(wrap.summary, "a long summary");
    assert.equal(wrap.raised, undefined);
    assert.equal(wrap.why, undefined);
    assert.equal(wrap.next, undefined);
    assert.equal(
      wrap.notes,
      "  that wraps. Raised: 2026-11-01.\nWhy: lazy line. Next: finish\n  - a nested detail",
    );
    assert.equal(wrap.text.split("\n").length, 4);
    assert.equal(b.slug, "b");
    assert.equal(b.line, 9);
  });
  await t.step("bullets inside fenced code are text", () => {
    const doc = parseParked("```\n- **not** — an item\n```\n- **yes** — item\n");
    assert.deepEqual(doc.items.map((i) => i.slug), ["yes"]);
  });
  await t.step("empty and header-only files have no items", () => {
    assert.equal(parseParked("").items.length, 0);
    assert.equal(parseParked("# Parked items\n\n").items.length, 0);
    assert.equal(parseParked("-\n- \n*\n").items.length, 0);
  });
  await t.step("hostile input never throws and always round-trips", () => {
    const rand = rng(42);
    const alphabet = ["-", "*", " ", "\n", "\r", "\r\n", "**", "—", ":", ".", "Why:", "Next:"]
      .concat([
        "Raised:",
        "`",
        "_",
        "#",
        "```",
        "a",
        "é",
        "\0",
        "\uFFFD",
        "\uD800",
        "x".repeat(50),
      ]);
    for (let n = 0; n < 500; n++) {
      let s = "";
      const len = Math.floor(rand() * 80);
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
      const doc = parseParked(s);
      assert.equal(renderParked(doc), s);
      for (const item of doc.items) assert.ok(item.slug.length > 0, JSON.stringify(s));
    }
    const huge = "- **h** — " + "x".repeat(2_000_000) + "\n" + "*".repeat(100_000);
    assert.equal(renderParked(parseParked(huge)), huge);
    const binary = String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => i % 256));
    assert.equal(renderParked(parseParked(binary)), binary);
    // deno-lint-ignore no-explicit-any
    assert.deepEqual(parseParked(undefined as any).items, []);
  });
});

/** The reading rules as plain regexes on decoded lines: the byte scanner must agree. */
function referenceBullets(text: string): number[] {
  const kind = (c: string) =>
    /^ {0,3}(```|~~~)/.test(c)
      ? "fence"
      : /^ ?[-*+][ \t]+(?=\S)/.test(c)
      ? "bullet"
      : !/\S/.test(c)
      ? "blank"
      : /^ {0,3}#/.test(c)
      ? "heading"
      : /^\s*<!--/.test(c)
      ? "comment"
      : "other";
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const out: number[] = [];
  let open = false;
  let fenced = false;
  lines.forEach((line, i) => {
    const k = kind(line);
    if (!fenced && k === "bullet") {
      out.push(i + 1);
      open = true;
    } else if (!(open && !fenced && k === "other")) {
      if (k === "fence") fenced = !fenced;
      open = false;
    }
  });
  return out;
}

Deno.test("parked: the byte scanner agrees with the regex rules", () => {
  const rand = rng(99);
  const bits = ["-", "*", "+", " ", "\t", "\r", "#", "`", "~", "<!--", "x", "é", "\u00a0", "\u3000"]
    .concat(["\u2028", "**", "a-b", "\n", "\n", "\n", "```", "~~~", "- ", " - ", "-\u00a0x"]);
  for (let n = 0; n < 2000; n++) {
    let s = "";
    const len = Math.floor(rand() * 30);
    for (let i = 0; i < len; i++) s += bits[Math.floor(rand() * bits.length)];
    assert.deepEqual(
      parseParked(s).items.map((i) => i.line),
      referenceBullets(s),
      JSON.stringify(s),
    );
  }
});

Deno.test("parked: all items of a large file read the same as one by one", () => {
  const pieces = [
    "- **a-1** — one. Raised: 2026-01-01.\n",
    "- **b** — two\r\n  more of two\r\n",
    "* hand — é ünïcode. Why: x\n",
    "lazy continuation\n",
    "\n",
    "## heading\n",
    "- **c** — \u2028 odd\n",
    "- **d-2** — canonical. Raised: 2026-11-20. Why: because. Next: go.\n",
    "- **e** — canonical, CRLF. Raised: 2026-11-20. Next: go.\r\n",
  ];
  let text = "# Parked items\n\n";
  for (let i = 0; i < 300; i++) text += pieces[i % pieces.length];
  text += "- **last** — no newline";
  const all = parseParked(text).items;
  const oneByOne = parseParked(text) as unknown as { count: number; item(i: number): ParkedItem };
  assert.ok(all.length > 64);
  const view = (i: ParkedItem) => [i.slug, i.line, i.text, i.summary, i.raised, i.why, i.next];
  for (let i = 0; i < all.length; i++) assert.deepEqual(view(all[i]), view(oneByOne.item(i)));
  assert.ok(all.some((i) => i.slug === "d-2" && i.next === "go"));
});
