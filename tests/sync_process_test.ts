/**
 * push / pull as processes: three clones parking and pushing at once, and kill -9 at every stage
 * of a push and a pull (mid-write by the fault point, and at random moments) — the store stays
 * valid, the ref a commit, and the next sync completes with everything.
 */
import assert from "node:assert/strict";
import { CLI, git, NOW } from "./support/scratch.ts";
import { runCliProcess } from "./support/run.ts";
import { isoStamp } from "../lib/store/time.ts";
import { parseParked } from "../lib/parked/scanner.ts";
import { slugs, STORE, world } from "./sync/_world.ts";

const FLAGS = ["--allow-read", "--allow-write", "--allow-env", "--allow-run=git"];

/** Whether the store reads whole: PARKED.md parses, every dropped.jsonl line is JSON. */
function storeValid(cwd: string): void {
  const parked = Deno.readTextFileSync(`${cwd}/${STORE}/PARKED.md`);
  assert.ok(parked.startsWith("# Parked items"), parked.slice(0, 80));
  for (const item of parseParked(parked).items) assert.match(item.text, /^- \*\*[^*]+\*\* — /);
  try {
    for (const line of Deno.readTextFileSync(`${cwd}/${STORE}/dropped.jsonl`).split("\n")) {
      if (line) JSON.parse(line);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}

async function refConsistent(remote: string): Promise<void> {
  const r = await new Deno.Command("git", {
    args: ["rev-parse", "--verify", "-q", "refs/session/store^{commit}"],
    cwd: remote,
    stdout: "null",
    stderr: "null",
  }).output();
  // No ref yet is consistent too; one that exists names a commit whose tree is whole.
  if (r.code === 0) await git(remote, ["fsck", "--no-dangling", "--no-progress"]);
}

function spawnCli(args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...FLAGS, CLI, ...args],
    cwd,
    env: { SESSION_NOW: isoStamp(NOW), NO_COLOR: "1", ...env },
    stdout: "null",
    stderr: "piped",
  }).spawn();
}

/** Runs a CLI process until it says it paused mid-write, then kills it with SIGKILL. */
async function killWhenPaused(args: string[], cwd: string): Promise<boolean> {
  const child = spawnCli(args, cwd, { SESSION_FAULT: "pause" });
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let paused = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
    if (seen.includes("paused mid-write")) {
      paused = true;
      child.kill("SIGKILL");
      break;
    }
  }
  await reader.cancel().catch(() => {});
  await child.status;
  return paused;
}

Deno.test("three clones, as processes, parking and pushing at once: all items everywhere", async () => {
  const w = await world(3, { prefix: "p" });
  try {
    await Promise.all(w.clones.map(async (c, i) => {
      for (let k = 0; k < 3; k++) {
        const p = await runCliProcess(["park", `Process item ${k} of ${i}`], { cwd: c });
        assert.equal(p.code, 0, p.stderr);
        const r = await runCliProcess(["push"], { cwd: c });
        assert.equal(r.code, 0, r.stderr);
      }
    }));
    for (const c of w.clones) assert.equal((await runCliProcess(["pull"], { cwd: c })).code, 0);
    for (const c of w.clones) assert.equal(slugs(c).length, 9, slugs(c).join());
    for (const c of w.clones) assert.deepEqual(slugs(c), slugs(w.clones[0]));
  } finally {
    await w.cleanup();
  }
});

Deno.test("kill -9 mid-write of a push and of a pull: store valid, ref consistent, next sync whole", async () => {
  const w = await world(2, { prefix: "p" });
  const [a, b] = w.clones;
  try {
    await runCliProcess(["park", "Alpha item"], { cwd: a });
    await runCliProcess(["push"], { cwd: a });
    await runCliProcess(["park", "Beta item"], { cwd: b });
    // b's push lands on the remote, then pauses bringing a's item in: killed there.
    assert.ok(await killWhenPaused(["push"], b));
    storeValid(b);
    await refConsistent(w.remote);
    const tree = await git(w.remote, ["show", "refs/session/store:PARKED.md"]);
    assert.match(tree, /alpha-item/);
    assert.match(tree, /beta-item/);
    // a's pull pauses writing PARKED.md: killed there.
    assert.ok(await killWhenPaused(["pull"], a));
    storeValid(a);
    assert.deepEqual(slugs(a), ["alpha-item"]);
    // The next syncs complete.
    for (const c of [a, b]) assert.equal((await runCliProcess(["pull"], { cwd: c })).code, 0);
    assert.deepEqual(slugs(a), ["alpha-item", "beta-item"]);
    assert.deepEqual(slugs(b), ["alpha-item", "beta-item"]);
  } finally {
    await w.cleanup();
  }
});

Deno.test("kill -9 at random moments of pushes and pulls: never a broken store or ref", async () => {
  const w = await world(2, { prefix: "p" });
  const [a, b] = w.clones;
  try {
    for (let round = 0; round < 6; round++) {
      const c = round % 2 ? b : a;
      await runCliProcess(["park", `Round ${round} item`], { cwd: c });
      const child = spawnCli([round % 3 ? "push" : "pull"], c);
      await new Promise((r) => setTimeout(r, 60 + Math.random() * 400));
      try {
        child.kill("SIGKILL");
      } catch { /* already done */ }
      await child.status;
      await child.stderr.cancel().catch(() => {});
      storeValid(c);
      await refConsistent(w.remote);
    }
    for (const c of [a, b, a]) {
      const r = await runCliProcess(["push"], { cwd: c });
      assert.equal(r.code, 0, r.stderr);
    }
    await runCliProcess(["pull"], { cwd: b });
    assert.equal(slugs(a).length, 6, slugs(a).join());
    assert.deepEqual(slugs(b), slugs(a));
  } finally {
    await w.cleanup();
  }
});
