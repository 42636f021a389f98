/**
 * The floor of the "session end: draft" row: what any SessionEnd that drafts from a transcript
 * must pay besides starting Deno — read the file line by line in chunks and JSON.parse the lines
 * that can carry a fact (a user or assistant record), as bench/transcript.ts `bareLoop` does, in a
 * script that imports nothing (a module's load is the subject's cost, not the floor's).
 *
 *   deno run --allow-read bench/parse_floor.ts <transcript.jsonl>
 * @module
 */

const path = Deno.args[0];
const file = Deno.openSync(path, { read: true });
const decoder = new TextDecoder();
const buf = new Uint8Array(1 << 20);
let carry = "";
let count = 0;
const take = (line: string) => {
  if (!line.includes('"user"') && !line.includes('"assistant"')) return;
  try {
    if (JSON.parse(line)) count++;
  } catch { /* a bad line */ }
};
for (;;) {
  const n = await file.read(buf);
  if (n === null) break;
  const text = carry + decoder.decode(buf.subarray(0, n), { stream: true });
  let start = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
    take(text.slice(start, nl));
    start = nl + 1;
  }
  carry = text.slice(start);
}
take(carry + decoder.decode());
file.close();
if (count < 0) console.log(count);
