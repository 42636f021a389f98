import assert from "node:assert/strict";
import { forEachLine } from "../../lib/transcript/lines.ts";
import { scratchDir } from "../support/scratch.ts";

Deno.test("streaming: CRLF, a line longer than a chunk, a multibyte char split by chunks", async () => {
  await using dirScratch = await scratchDir();
  const dir = dirScratch.path;
  const long = "é".repeat(700_000); // 1.4 MB of two-byte chars: crosses the 1 MiB chunk
  const body = `one\r\n${long}\r\n\r\nlast`;
  await Deno.writeTextFile(`${dir}/t.jsonl`, body);
  const got: string[] = [];
  await forEachLine(`${dir}/t.jsonl`, (l) => got.push(l));
  assert.deepEqual(got.map((l) => l.length), [3, long.length, 0, 4]);
  assert.equal(got[1], long);
});
