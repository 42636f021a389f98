/**
 * What counts as text (lib/text/utf8.ts): UTF-8 without a NUL byte, wherever the NUL is — the
 * first byte included.
 * @module
 */

import assert from "node:assert/strict";
import { notText, strictUtf8 } from "../../lib/text/utf8.ts";

const bytes = (...b: number[]) => new Uint8Array(b);
const utf8 = (s: string) => new TextEncoder().encode(s);

Deno.test("notText: UTF-8 without a NUL byte is text", async (t) => {
  await t.step("text, empty, multi-byte, a BOM", () => {
    assert.equal(notText(utf8("hello\n")), undefined);
    assert.equal(notText(bytes()), undefined);
    assert.equal(notText(utf8("café — 日本 😀")), undefined);
    assert.equal(notText(bytes(0xef, 0xbb, 0xbf, 0x61)), undefined);
  });
  await t.step("a NUL byte anywhere is not text: first, middle, last", () => {
    assert.equal(notText(bytes(0, 0x61, 0x62)), "a NUL byte at offset 0");
    assert.equal(notText(bytes(0x61, 0, 0x62)), "a NUL byte at offset 1");
    assert.equal(notText(bytes(0x61, 0x62, 0)), "a NUL byte at offset 2");
    assert.equal(notText(bytes(0)), "a NUL byte at offset 0");
  });
  await t.step("bytes that are not UTF-8 are not text", () => {
    assert.equal(notText(bytes(0xff, 0x61)), "bytes that are not UTF-8");
    assert.equal(notText(bytes(0xe6, 0x97)), "bytes that are not UTF-8", "a cut code point");
    assert.equal(notText(bytes(0xed, 0xa0, 0x80)), "bytes that are not UTF-8", "a surrogate");
  });
});

Deno.test("strictUtf8: decodes UTF-8, keeps a BOM, undefined otherwise", () => {
  assert.equal(strictUtf8(utf8("café")), "café");
  assert.equal(strictUtf8(bytes(0xef, 0xbb, 0xbf, 0x61)), "\ufeffa");
  assert.equal(strictUtf8(bytes(0xc3)), undefined);
});
