import assert from "node:assert/strict";
import { makeTranscript } from "../../bench/transcript.ts";
import { scratchDir } from "../support/scratch.ts";

const LIB = new URL("../../lib/transcript/claude.ts", import.meta.url).href;

Deno.test("a 100 MB transcript with hostile lines parses with a 32 MB heap (memory does not grow)", async () => {
  await using dirScratch = await scratchDir();
  const dir = dirScratch.path;
  const path = `${dir}/big.jsonl`;
  const { garbage } = await makeTranscript(path, 100 * 1024 * 1024, { garbageEvery: 10 });
  // Reading the whole file into one string would need over 100 MB of heap and crash here.
  const code = `import { readTranscript } from ${JSON.stringify(LIB)};
      const f = await readTranscript(${JSON.stringify(path)}, { root: "/home/dev/demo-app" });
      console.log(JSON.stringify({ files: f.files.length, tasks: f.tasks.length,
        questions: f.questions.length, bad: f.badLines, lines: f.lines }));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--max-old-space-size=32", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr.slice(-2000));
  const got = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.ok(garbage > 100, `garbage lines: ${garbage}`);
  assert.equal(
    got.bad,
    garbage,
    "every truncated, binary or non-object line is counted, none throws",
  );
  assert.ok(got.lines > 40_000, `lines: ${got.lines}`);
  // 500 distinct greet_N.ts files plus the fixture's three others and one outside.
  assert.equal(got.files, 504);
  assert.equal(got.tasks, 3, "task ids repeat each round: the final state of #1..#3");
});
