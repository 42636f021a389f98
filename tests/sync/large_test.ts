import assert from "node:assert/strict";
import { git } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";
import { STORE, within, world } from "./_world.ts";

/** `n` handovers named `<prefix>-<i>` written straight into a clone's store. */
async function fill(cwd: string, prefix: string, n: number): Promise<void> {
  await Deno.mkdir(`${cwd}/${STORE}`, { recursive: true });
  await Promise.all(Array.from({ length: n }, (_, i) =>
    Deno.writeTextFile(
      `${cwd}/${STORE}/${prefix}-${i}.md`,
      `---\nslug: ${prefix}-${i}\ncreated: 2026-11-30T10:00:00Z\nconsumed: false\nbranch: main\n` +
        `---\n\n## Goal\nHandover ${i} of ${prefix}: ${"x".repeat(600)}\n\n## Next step\nGo on.\n`,
    )));
}

function count(cwd: string): number {
  return [...Deno.readDirSync(`${cwd}/${STORE}`)].filter((e) =>
    e.name.endsWith(".md") && e.name !== "PARKED.md"
  ).length;
}

// Past ~1,600 handovers git's pipes fill both ways; each sync below must end, and in bounded time
// (a deadlock fails the test rather than hang the run).
Deno.test("push and pull of 2,000 handovers each way end, and record their base", async (t) => {
  const w = await world(2);
  const [a, b] = w.clones;
  const N = 2_000;
  const sync = (cwd: string, mode: string) =>
    within(120_000, runCliInProcess([mode], { cwd }), `${mode} of ${N} handovers`);
  const synced = async (cwd: string) =>
    (await git(cwd, ["rev-parse", "refs/session/synced/origin"])).trim();
  const remoteTip = async () => (await git(w.remote, ["rev-parse", "refs/session/store"])).trim();
  try {
    await fill(a, "a", N);
    await fill(b, "b", N);
    await t.step("a first push sends them all", async () => {
      const r = await sync(a, "push");
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /: 2000 new handovers/);
      assert.equal(await synced(a), await remoteTip());
    });
    await t.step("a push that brings the remote's in: both sides, the base recorded", async () => {
      const r = await sync(b, "push");
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /: 2000 new handovers/);
      assert.match(r.out, /From "origin": 2000 handovers\./);
      assert.equal(count(b), 2 * N);
      assert.equal(await synced(b), await remoteTip());
    });
    await t.step("a pull brings the other side's", async () => {
      const r = await sync(a, "pull");
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /From "origin": 2000 handovers\./);
      assert.equal(count(a), 2 * N);
      assert.equal(await synced(a), await remoteTip());
    });
  } finally {
    await w.cleanup();
  }
});
