import assert from "node:assert/strict";
import {
  acquireLock,
  isStale,
  LOCK_EMPTY_GRACE_MS,
  LOCK_SILENT_MS,
  LockTimeoutError,
  OS_LOCKS,
  withLock,
} from "../../lib/fs/lock.ts";
import { FREED_WAIT_MS, LOCK_KINDS, scratchDir } from "../support/scratch.ts";

const BOOT = "boot-a";
const AGES = { staleMs: 60_000, silentMs: 10_000 };

Deno.test("lock", async (t) => {
  await using dirScratch = await scratchDir();
  const dir = dirScratch.path;
  const target = `${dir}/PARKED.md`;
  // The flock steps need a Deno with OS locks (2.0 and 2.2 have only the file kind).
  for (const kind of LOCK_KINDS) {
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
  await t.step(
    "file: an empty lock (a crash mid-write) is taken over after its short grace",
    async () => {
      const path = `${target}.lock.held`;
      // Older than the grace, younger than the silent age: only the grace can free it.
      const age = LOCK_EMPTY_GRACE_MS + 1_000;
      assert.ok(age < LOCK_SILENT_MS);
      await Deno.writeTextFile(path, "");
      const then = new Date(Date.now() - age);
      await Deno.utime(path, then, then);
      const lock = await acquireLock(target, { kind: "file", waitMs: 60 });
      assert.equal(JSON.parse(await Deno.readTextFile(path)).pid, Deno.pid, "taken over");
      lock.release();
      // Within the grace, an empty lock is a creator still writing: not taken over.
      await Deno.writeTextFile(path, "");
      await assert.rejects(acquireLock(target, { kind: "file", waitMs: 60 }), LockTimeoutError);
      await Deno.remove(path);
    },
  );
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

  await t.step(
    "file: a lock is stamped when taken, not when its waiter began to wait",
    async () => {
      const first = await acquireLock(target, { kind: "file" });
      const second = acquireLock(target, { kind: "file" });
      await new Promise((r) => setTimeout(r, 200));
      const released = Date.now();
      first.release();
      const lock = await second;
      const holder = JSON.parse(await Deno.readTextFile(`${target}.lock.held`));
      lock.release();
      assert.ok(holder.ts >= released, `stamped ${released - holder.ts} ms before it was taken`);
    },
  );
  await t.step({
    name: "file: a holder killed with SIGKILL, not judged by pid, is taken over once silent",
    fn: async () => {
      // The permissions a user's command has: no boot id readable, so no pid to judge.
      const child = await spawnHolder(dir, target, "file", ["--allow-read", "--allow-write"]);
      const silentMs = 3_000;
      // Alive, it keeps touching its lock: longer than silentMs, no waiter takes it over.
      await assert.rejects(
        acquireLock(target, { kind: "file", waitMs: silentMs + 1_500, silentMs }),
        LockTimeoutError,
      );
      await child.kill();
      const before = performance.now();
      (await acquireLock(target, { kind: "file", waitMs: silentMs * 2, silentMs })).release();
      assert.ok(performance.now() - before < silentMs * 2);
    },
  });
  await t.step({
    name: "flock: a holder killed with SIGKILL leaves no stale lock",
    ignore: !OS_LOCKS,
    fn: async () => {
      const child = await spawnHolder(dir, target, "flock", ["--allow-all"]);
      await assert.rejects(acquireLock(target, { kind: "flock", waitMs: 60 }), LockTimeoutError);
      await child.kill();
      (await acquireLock(target, { kind: "flock", waitMs: FREED_WAIT_MS })).release();
    },
  });
});

/** A process holding the lock on `target` until killed; `kill` returns once it is dead. */
async function spawnHolder(
  dir: string,
  target: string,
  kind: "flock" | "file",
  perms: string[],
): Promise<{ kill(): Promise<void> }> {
  const script = `${dir}/hold.ts`;
  await Deno.writeTextFile(
    script,
    `import { acquireLock } from ${
      JSON.stringify(new URL("../../lib/fs/lock.ts", import.meta.url).href)
    };
await acquireLock(${JSON.stringify(target)}, { kind: ${JSON.stringify(kind)} });
console.log("held");
await new Promise((r) => setTimeout(r, 60_000));`,
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-lock", ...perms, script],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  assert.equal(new TextDecoder().decode(value).trim(), "held");
  return {
    async kill() {
      child.kill("SIGKILL");
      await child.status;
      reader.releaseLock();
      await child.stdout.cancel();
    },
  };
}

Deno.test("lock: isStale", async (t) => {
  const here = { boot: BOOT, alive: (pid: number) => pid === 1 };
  await t.step("too old is stale whoever holds it", () => {
    assert.equal(isStale({ pid: 1, boot: BOOT, ts: 0 }, 0, 100_000, AGES, here), true);
  });
  await t.step("fresh, same boot: stale only when the holder is dead", () => {
    assert.equal(isStale({ pid: 1, boot: BOOT, ts: 1000 }, 1000, 2000, AGES, here), false);
    assert.equal(isStale({ pid: 7, boot: BOOT, ts: 1000 }, 1000, 2000, AGES, here), true);
  });
  await t.step("fresh, another machine or boot: never judged by pid", () => {
    assert.equal(isStale({ pid: 7, boot: "other", ts: 1000 }, 1000, 2000, AGES, here), false);
    assert.equal(isStale({ pid: 7, ts: 1000 }, 1000, 2000, AGES, here), false);
  });
  await t.step("fresh, not judged by pid: stale once untouched for silentMs", () => {
    assert.equal(isStale({ pid: 7, ts: 1000 }, 5000, 15_000, AGES, here), false);
    assert.equal(isStale({ pid: 7, ts: 1000 }, 5000, 15_001, AGES, here), true);
    assert.equal(isStale({ pid: 7, boot: "other", ts: 1000 }, 5000, 15_001, AGES, here), true);
    // A live holder judged by pid keeps its lock, touched or not.
    assert.equal(isStale({ pid: 1, boot: BOOT, ts: 1000 }, 1000, 30_000, AGES, here), false);
  });
  await t.step("unreadable holder falls back to the file's age", () => {
    assert.equal(isStale(undefined, 1000, 2000, AGES, here), false);
    assert.equal(isStale(undefined, 1000, 70_000, AGES, here), true);
    assert.equal(isStale(undefined, undefined, 0, AGES, here), true);
  });
});
