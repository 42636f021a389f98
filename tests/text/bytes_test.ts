import assert from "node:assert/strict";
import { truncateUtf8, utf8Length } from "../../lib/text/bytes.ts";

Deno.test("utf8Length: bytes per code point, a lone surrogate as U+FFFD's three", () => {
  assert.equal(utf8Length(""), 0);
  assert.equal(utf8Length("a日é😀\ud800"), 1 + 3 + 2 + 4 + 3);
  for (const s of ["a日é😀", "😀😀", "x", "\u07ff\u0800"]) {
    assert.equal(utf8Length(s), new TextEncoder().encode(s).length, s);
  }
});

Deno.test("truncateUtf8: the longest prefix within the bytes, never half a code point", () => {
  for (const s of ["a日é😀", "😀😀", "x"]) {
    for (let max = 0; max < 12; max++) {
      const cut = truncateUtf8(s, max);
      const bytes = new TextEncoder().encode(cut).length;
      assert.ok(s.startsWith(cut) && bytes <= max, `${s} at ${max}: ${cut}`);
      assert.ok(!/[\ud800-\udbff]$/.test(cut), "never half a surrogate pair");
      // The longest: one more code point would not fit.
      const next = [...s.slice(cut.length)][0];
      if (next !== undefined) assert.ok(bytes + utf8Length(next) > max, `${s} at ${max}`);
    }
  }
  assert.equal(truncateUtf8("日日", 6), "日日", "exactly the limit fits");
  assert.equal(truncateUtf8("日日", 5), "日");
});
