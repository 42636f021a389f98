import assert from "node:assert/strict";
import { acquireLock, isStale, LockTimeoutError, withLock } from "../../lib/fs/lock.ts";
import { FREED_WAIT_MS, scratchDir } from "../support/scratch.ts";

const BOOT = "boot-a";

Deno.test("lock", async (t) => {
  await using dirScratch = await scratchDir();
  const dir = dirScratch.path;
  const target = `${dir}/PARKED.md`;
  for (const kind of ["flock", "file"] as const) {
    await t.step(`${kind}: a second holder waits until the first releases`, async () => {
      const order: string[] = [];
      const first = await acquireLock(target, { kind });
      assert.equal(first.kind, kind);
      const second = withLock(target, () => order.push("second"), { kind });
      await new Promise((r) => setTimeout(r, 50));
      order.push("first releases");
      first.release();
      await second;
      assert.deepEqual(order, ["first releases", "second"]);
    });
    await t.step(`${kind}: a waiter gives up after waitMs with LockTimeoutError`, async () => {
      const held = await acquireLock(target, { kind });
      try {
        await assert.rejects(acquireLock(target, { kind, waitMs: 60 }), LockTimeoutError);
      } finally {
        held.release();
      }
      (await acquireLock(target, { kind, waitMs: FREED_WAIT_MS })).release();
    });
    await t.step(`${kind}: withLock releases when fn throws`, async () => {
      await assert.rejects(withLock(target, () => {
        throw new Error("boom");
      }, { kind }));
      (await acquireLock(target, { kind, waitMs: FREED_WAIT_MS })).release();
    });
    await t.step(`${kind}: release is idempotent, a second one frees no later holder`, async () => {
      const first = await acquireLock(target, { kind });
      first.release();
      const later = await acquireLock(target, { kind, waitMs: FREED_WAIT_MS });
      try {
        first.release();
        await assert.rejects(acquireLock(target, { kind, waitMs: 60 }), LockTimeoutError);
      } finally {
        later.release();
      }
    });
  }

  await t.step({
    name: "file: a lock left by a dead process on this machine is taken over",
    // Judging a pid needs Linux's boot id and /proc; elsewhere only the age rule applies
    // (the next step).
    ignore: Deno.build.os !== "linux",
    fn: async () => {
      const boot = (await Deno.readTextFile("/proc/sys/kernel/random/boot_id")).trim();
      assert.ok(boot, "Linux has a boot id");
      const path = `${target}.lock.held`;
      await Deno.writeTextFile(path, JSON.stringify({ pid: 2 ** 30, boot, ts: Date.now() }));
      const lock = await acquireLock(target, { kind: "file", waitMs: 60 });
      assert.equal(JSON.parse(await Deno.readTextFile(path)).pid, Deno.pid);
      lock.release();
      await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
    },
  });
  await t.step("file: a lock older than staleMs is taken over, whoever holds it", async () => {
    const path = `${target}.lock.held`;
    // A live holder (this very process) on no known boot: only its age can make it stale.
    const old = Date.now() - 10_000;
    await Deno.writeTextFile(path, JSON.stringify({ pid: Deno.pid, ts: old }));
    const before = Date.now();
    const lock = await acquireLock(target, { kind: "file", waitMs: 60, staleMs: 5_000 });
    assert.equal(lock.kind, "file");
    // Taken over: the file is now ours, freshly stamped, and no waiter can get it.
    const holder = JSON.parse(await Deno.readTextFile(path));
    assert.equal(holder.pid, Deno.pid);
    assert.ok(holder.ts >= before, `fresh stamp, not the stale ${old}`);
    await assert.rejects(acquireLock(target, { kind: "file", waitMs: 60 }), LockTimeoutError);
    lock.release();
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound, "released");
    // Younger than staleMs, the same lock is not taken over.
    await Deno.writeTextFile(path, JSON.stringify({ pid: Deno.pid, ts: Date.now() - 1_000 }));
    await assert.rejects(
      acquireLock(target, { kind: "file", waitMs: 60, staleMs: 5_000 }),
      LockTimeoutError,
    );
    await Deno.remove(path);
  });
  await t.step("file: a fresh lock of a live holder is not taken over", async () => {
    const path = `${target}.lock.held`;
    await Deno.writeTextFile(path, JSON.stringify({ pid: Deno.pid, ts: Date.now() }));
    await assert.rejects(acquireLock(target, { kind: "file", waitMs: 60 }), LockTimeoutError);
    await Deno.remove(path);
  });
  await t.step("file: releasing a lock taken over meanwhile leaves the new holder's", async () => {
    const path = `${target}.lock.held`;
    const lock = await acquireLock(target, { kind: "file", waitMs: 60 });
    // What a waiter's takeover leaves: the same name, another holder's content.
    const other = JSON.stringify({ pid: Deno.pid, ts: Date.now() + 1 });
    await Deno.writeTextFile(path, other);
    lock.release();
    assert.equal(await Deno.readTextFile(path), other);
    await Deno.remove(path);
  });

  await t.step("flock: a holder killed with SIGKILL leaves no stale lock", async () => {
    const script = `${dir}/hold.ts`;
    await Deno.writeTextFile(
      script,
      `import { acquireLock } from ${
        JSON.stringify(new URL("../../lib/fs/lock.ts", import.meta.url).href)
      };
await acquireLock(${JSON.stringify(target)}, { kind: "flock" });
console.log("held");
await new Promise((r) => setTimeout(r, 60_000));`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", script],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.getReader();
    const { value } = await reader.read();
    assert.equal(new TextDecoder().decode(value).trim(), "held");
    await assert.rejects(acquireLock(target, { kind: "flock", waitMs: 60 }), LockTimeoutError);
    child.kill("SIGKILL");
    await child.status;
    reader.releaseLock();
    await child.stdout.cancel();
    (await acquireLock(target, { kind: "flock", waitMs: FREED_WAIT_MS })).release();
  });
});

Deno.test("lock: isStale", async (t) => {
  const here = { boot: BOOT, alive: (pid: number) => pid === 1 };
  await t.step("too old is stale whoever holds it", () => {
    assert.equal(isStale({ pid: 1, boot: BOOT, ts: 0 }, 0, 100_000, 60_000, here), true);
  });
  await t.step("fresh, same boot: stale only when the holder is dead", () => {
    assert.equal(isStale({ pid: 1, boot: BOOT, ts: 1000 }, 1000, 2000, 60_000, here), false);
    assert.equal(isStale({ pid: 7, boot: BOOT, ts: 1000 }, 1000, 2000, 60_000, here), true);
  });
  await t.step("fresh, another machine or boot: never judged by pid", () => {
    assert.equal(isStale({ pid: 7, boot: "other", ts: 1000 }, 1000, 2000, 60_000, here), false);
    assert.equal(isStale({ pid: 7, ts: 1000 }, 1000, 2000, 60_000, here), false);
  });
  await t.step("unreadable holder falls back to the file's age", () => {
    assert.equal(isStale(undefined, 1000, 2000, 60_000, here), false);
    assert.equal(isStale(undefined, 1000, 70_000, 60_000, here), true);
    assert.equal(isStale(undefined, undefined, 0, 60_000, here), true);
  });
});
