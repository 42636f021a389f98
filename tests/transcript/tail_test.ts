import assert from "node:assert/strict";
import { readTail } from "../../lib/transcript/tail.ts";
import { join } from "../../lib/fs/path.ts";
import { scratchDir } from "../support/scratch.ts";

Deno.test("readTail: a short file whole, a long one's tail, or nothing with wholeOnly", async () => {
  await using d = await scratchDir();
  const t = join(d.path, "t.txt");
  Deno.writeTextFileSync(t, "é".repeat(10));
  assert.deepEqual(readTail(t, 20), { text: "é".repeat(10), from: 0 });
  assert.deepEqual(readTail(t, 20, true), { text: "é".repeat(10), from: 0 });
  // é is two bytes: the last 5 bytes start mid-character, decoded as a replacement character.
  assert.deepEqual(readTail(t, 5), { text: "\ufffdéé", from: 15 });
  assert.deepEqual(readTail(t, 5, true), { text: undefined, from: 15 });
  assert.throws(() => readTail(join(d.path, "missing"), 5));
});
