/**
 * Measures push / pull at 1,000 handovers and 10,000 parked items: a first
 * push and pull, then the same with nothing changed and with one item changed. Not a test (no
 * `_test` suffix); run: `deno run -A tests/sync/measure.ts`.
 */
import { git } from "../support/scratch.ts";
import { runCliProcess } from "../support/run.ts";

const STORE = ".claude/state/session";
const DOCS = Number(Deno.env.get("DOCS") ?? 1000);
const ITEMS = Number(Deno.env.get("ITEMS") ?? 10000);

const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "session-measure-" }));
const remote = `${tmp}/remote.git`;
await git(tmp, ["init", "-q", "--bare", "-b", "main", remote]);
const a = `${tmp}/a`;
const b = `${tmp}/b`;
await git(tmp, ["init", "-q", "-b", "main", a]);
await Deno.writeTextFile(`${a}/.gitignore`, ".claude/state/\n");
await git(a, ["add", "-A"]);
await git(a, ["commit", "-q", "-m", "init"]);
await git(a, ["remote", "add", "origin", remote]);
await git(a, ["push", "-q", "-u", "origin", "main"]);
await git(tmp, ["clone", "-q", remote, b]);
for (const [dir, who] of [[a, "a"], [b, "b"]]) await git(dir, ["config", "user.email", `${who}@x`]);

await Deno.mkdir(`${a}/${STORE}`, { recursive: true });
for (let i = 0; i < DOCS; i++) {
  await Deno.writeTextFile(
    `${a}/${STORE}/doc-${i}.md`,
    `---\nslug: doc-${i}\ncreated: 2026-11-30T1${
      i % 10
    }:00:00Z\nconsumed: false\nbranch: main\n---\n\n` +
      `## Goal\nHandover ${i}: ${"x".repeat(600)}\n\n## Next step\nGo on.\n`,
  );
}
const lines = ["# Parked items", ""];
for (let i = 0; i < ITEMS; i++) {
  lines.push(`- **item-${i}** — Item ${i} to look at. Raised: 2026-11-30. Why: reason ${i}.`);
}
await Deno.writeTextFile(`${a}/${STORE}/PARKED.md`, lines.join("\n") + "\n");

async function timed(label: string, args: string[], cwd: string): Promise<void> {
  const t = performance.now();
  const r = await runCliProcess(args, { cwd });
  const ms = performance.now() - t;
  if (r.code !== 0) throw new Error(`${label}: ${r.stderr}`);
  console.log(
    `${label.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms  ${r.stdout.trim().split("\n")[0]}`,
  );
}

const floor = performance.now();
await runCliProcess(["--help"], { cwd: a });
console.log(
  `${"floor: session.ts --help".padEnd(44)} ${
    (performance.now() - floor).toFixed(0).padStart(6)
  } ms`,
);
console.log(`store: ${DOCS} handovers, ${ITEMS} parked items`);
await timed("push, first (everything new)", ["push"], a);
await timed("push, nothing changed", ["push"], a);
await runCliProcess(["park", "One more thing"], { cwd: a });
await timed("push, one item parked", ["push"], a);
await Deno.writeTextFile(
  `${a}/${STORE}/new-doc.md`,
  "---\nslug: new-doc\ncreated: 2026-11-30T12:00:00Z\nconsumed: false\n---\n\n## Goal\nNew.\n",
);
await timed("push, one handover added", ["push"], a);
await timed("pull, first (everything new)", ["pull"], b);
await timed("pull, nothing changed", ["pull"], b);
await runCliProcess(["park", "Another thing"], { cwd: a });
await runCliProcess(["push"], { cwd: a });
await timed("pull, one item parked elsewhere", ["pull"], b);
await runCliProcess(["drop", "item-5000"], { cwd: b });
await timed("push, one item dropped", ["push"], b);
await timed("pull, one drop from elsewhere", ["pull"], a);
await Deno.remove(tmp, { recursive: true });
