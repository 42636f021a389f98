import assert from "node:assert/strict";
import { clip, clipStart, head, tail } from "../../lib/text/cut.ts";
import { hasLoneSurrogate } from "./_text.ts";

const ROCKET = "🚀"; // two UTF-16 units

Deno.test("head and tail: at most max units, never half of a pair", async (t) => {
  await t.step("an emoji at every place around the cut", () => {
    for (let pad = 0; pad < 4; pad++) {
      const text = "a".repeat(pad) + ROCKET.repeat(10) + "z";
      for (let max = 0; max <= text.length + 1; max++) {
        for (const [name, out] of [["head", head(text, max)], ["tail", tail(text, max)]]) {
          assert.ok(out.length <= max, `${name} ${pad} ${max}: ${out.length}`);
          assert.ok(!hasLoneSurrogate(out), `${name} ${pad} ${max}`);
          // Never more than the one unit of a pair short of the budget.
          assert.ok(out.length >= Math.min(max, text.length) - 1, `${name} ${pad} ${max}`);
        }
        assert.ok(text.startsWith(head(text, max)));
        assert.ok(text.endsWith(tail(text, max)));
      }
    }
  });
  await t.step("text that fits, and plain text, cut exactly as a slice would", () => {
    assert.equal(head("abc", 3), "abc");
    assert.equal(head("abcdef", 4), "abcd");
    assert.equal(tail("abcdef", 4), "cdef");
    assert.equal(head("abc", -1), "");
    assert.equal(tail("abc", 0), "");
  });
  await t.step("a lone surrogate already in the text is left as it is", () => {
    assert.equal(head("ab\ud83dcd", 3), "ab\ud83d");
    assert.ok(
      hasLoneSurrogate("ab\ud83d") && hasLoneSurrogate("\ude80") && !hasLoneSurrogate(ROCKET),
    );
  });
});

Deno.test("clip and clipStart: within max, marked with …, never half of a pair", () => {
  for (let pad = 0; pad < 4; pad++) {
    const text = "a".repeat(pad) + ROCKET.repeat(20);
    for (let max = 1; max <= text.length + 1; max++) {
      for (const out of [clip(text, max), clipStart(text, max)]) {
        assert.ok(out.length <= max, `${pad} ${max}: ${out}`);
        assert.ok(!hasLoneSurrogate(out), `${pad} ${max}: ${JSON.stringify(out)}`);
        assert.equal(out.endsWith("…") || out.startsWith("…"), text.length > max, `${pad} ${max}`);
      }
    }
  }
  assert.equal(clip("fits", 4), "fits");
  assert.equal(clip("a long line", 7), "a long…");
  assert.equal(clip("a long line", 8), "a long…", "white space before the mark is dropped");
  assert.equal(clipStart("a long line", 6), "…line");
});
