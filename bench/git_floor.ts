/**
 * The floor of the `evidence`/`dump` rows: the git commands the mode ran (recorded by a PATH
 * shim in bench/run.ts), replayed all at once — the least any implementation could spend.
 *
 *   deno run --allow-read --allow-run=git bench/git_floor.ts <log>
 * @module
 */

const fields = Deno.readTextFileSync(Deno.args[0]).split("\0");
const calls: string[][] = [];
for (let i = 0; i + 1 < fields.length;) {
  const n = Number(fields[i]);
  calls.push(fields.slice(i + 1, i + 2 + n));
  i += 2 + n;
}
await Promise.all(calls.map(async ([cwd, ...args]) => {
  await new Deno.Command("git", { args, cwd, stdin: "null", stdout: "piped", stderr: "piped" })
    .output();
}));
