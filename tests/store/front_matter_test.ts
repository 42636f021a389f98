import assert from "node:assert/strict";
import {
  KEYS,
  markConsumed,
  renderFrontMatter,
  splitFrontMatter,
} from "../../lib/store/front_matter.ts";

const DOC =
  "---\nslug: a\ncreated: 2026-11-30T04:02:39Z\nconsumed: false\nbranch: main\n---\n\n## Goal\n\nx\n";

Deno.test("front matter", async (t) => {
  await t.step("splits fields and body byte-exactly (LF)", () => {
    const s = splitFrontMatter(DOC)!;
    assert.equal(s.fields.slug, "a");
    assert.equal(s.fields.consumed, "false");
    assert.equal(s.head + s.body, DOC);
    assert.equal(s.body, "\n## Goal\n\nx\n");
  });
  await t.step("CRLF documents parse and split byte-exactly", () => {
    const crlf = DOC.replaceAll("\n", "\r\n");
    const s = splitFrontMatter(crlf)!;
    assert.equal(s.fields.branch, "main");
    assert.equal(s.head + s.body, crlf);
  });
  await t.step("no front matter, unterminated, or garbage: undefined, never a throw", () => {
    assert.equal(splitFrontMatter("## Goal\n"), undefined);
    assert.equal(splitFrontMatter("---\nslug: a\n"), undefined);
    assert.equal(splitFrontMatter(""), undefined);
    assert.equal(splitFrontMatter("---\n\0\x01binary\n---\n"), undefined);
  });
  await t.step("markConsumed flips only the front-matter line, keeping CRLF", () => {
    const body = "## Goal\r\n\r\nconsumed: false\r\n";
    const crlf = DOC.replaceAll("\n", "\r\n").replace(/## Goal[\s\S]*$/, body);
    const out = markConsumed(crlf)!;
    assert.equal(out, crlf.replace("consumed: false\r\nbranch", "consumed: true\r\nbranch"));
    assert.ok(out.endsWith("consumed: false\r\n"), "the body's own line is untouched");
    assert.equal(markConsumed(out), undefined, "already consumed: nothing to flip");
  });
  await t.step(
    "markConsumed flips a quoted false byte for byte, and the field that is read",
    () => {
      for (const q of ['"', "'"]) {
        const doc = DOC.replace("consumed: false", `consumed: ${q}false${q}`);
        assert.equal(splitFrontMatter(doc)!.fields.consumed, "false");
        const out = markConsumed(doc)!;
        assert.equal(out, DOC.replace("consumed: false", `consumed: ${q}true${q}`));
        assert.equal(splitFrontMatter(out)!.fields.consumed, "true");
      }
      // Later duplicates win when read: the line flipped is the one read, so it reads consumed.
      const twice = DOC.replace("consumed: false", "consumed: false\nconsumed: false");
      assert.equal(splitFrontMatter(markConsumed(twice)!)!.fields.consumed, "true");
      // A `false` that no flip can make read `true` is refused, never reported as flipped.
      assert.equal(markConsumed(DOC.replace("consumed: false", `consumed: "false'`)), undefined);
    },
  );
  await t.step("a body's own --- block is not front matter", () => {
    const doc = DOC + "---\nconsumed: false\n---\n";
    const s = splitFrontMatter(doc)!;
    assert.equal(s.fields.consumed, "false");
    assert.ok(s.body.includes("---\nconsumed: false\n---"));
  });
  await t.step("a body opening with a rule and a `key: value` line is body, every byte", () => {
    for (
      const text of [
        "---\nNote: the CI is red\n---\n## Goal\n\nKeep this.\n",
        "---\r\nTODO: x\r\n\r\n---\r\nrest\r\n",
        "---\nslug: a\nNote: b\n---\nc\n",
        "---\n---\nx\n",
        "---\n# only a comment\n---\nx\n",
      ]
    ) assert.equal(splitFrontMatter(text), undefined, JSON.stringify(text));
  });
  await t.step("only our own keys make a front matter", () => {
    for (const key of KEYS) {
      assert.deepEqual(splitFrontMatter(`---\n${key}: v\n---\nx`)?.fields, { [key]: "v" });
    }
  });
  await t.step("renderFrontMatter round-trips through splitFrontMatter", () => {
    const text = renderFrontMatter([["slug", "x"], ["consumed", "false"]]);
    assert.deepEqual(splitFrontMatter(text)!.fields, { slug: "x", consumed: "false" });
  });
});
