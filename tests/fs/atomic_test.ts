import assert from "node:assert/strict";
import {
  createFileAtomic,
  PRIVATE_DIR,
  PRIVATE_FILE,
  setFault,
  targetMode,
  writeFileAtomic,
  writeFileAtomicSync,
} from "../../lib/fs/atomic.ts";
import { acquireLock, OS_LOCKS } from "../../lib/fs/lock.ts";
import { join } from "../../lib/fs/path.ts";
import { ensureStore, storeAt } from "../../lib/store/store.ts";
import { scratchDir, tempFilesIn } from "../support/scratch.ts";

const POSIX = Deno.build.os !== "windows";
const mode = (path: string) => Deno.statSync(path).mode! & 0o777;

Deno.test({
  name: "atomic writes: store files private, other files keep their mode",
  ignore: !POSIX,
  fn: async (t) => {
    await using scratch = await scratchDir();
    const root = scratch.path;
    const store = storeAt(root);

    await t.step("ensureStore: .claude/state and the store 0700, .claude as usual", () => {
      Deno.chmodSync(root, 0o755);
      ensureStore(store);
      assert.equal(mode(store.dir), PRIVATE_DIR);
      assert.equal(mode(join(root, ".claude/state")), PRIVATE_DIR);
      assert.notEqual(mode(join(root, ".claude")) & 0o077, 0, "the agent's folder stays shared");
    });

    await t.step("a store made 0755 before the rule is made 0700", () => {
      Deno.chmodSync(store.dir, 0o755);
      ensureStore(store);
      assert.equal(mode(store.dir), PRIVATE_DIR);
    });

    await t.step("new files in the store: 0600 (sync, async, exclusive)", async () => {
      writeFileAtomicSync(store.latest, "a\n");
      await writeFileAtomic(store.parked, "# Parked\n");
      assert.equal(await createFileAtomic(join(store.dir, "doc.md"), "x"), true);
      for (const f of [store.latest, store.parked, join(store.dir, "doc.md")]) {
        assert.equal(mode(f), PRIVATE_FILE, f);
      }
    });

    await t.step("a store file made 0644 before keeps its mode (the 0700 store guards it)", () => {
      Deno.chmodSync(store.latest, 0o644);
      writeFileAtomicSync(store.latest, "b\n");
      assert.equal(mode(store.latest), 0o644);
      assert.equal(Deno.readTextFileSync(store.latest), "b\n");
    });

    await t.step("a settings.json keeps its mode when replaced (sync and async)", async () => {
      const settings = join(root, ".claude/settings.json");
      Deno.writeTextFileSync(settings, "{}\n");
      for (const m of [0o644, 0o664, 0o640]) {
        Deno.chmodSync(settings, m);
        await writeFileAtomic(settings, `{"m":${m}}\n`);
        assert.equal(mode(settings), m);
        writeFileAtomicSync(settings, `{"m":${m}}\n`);
        assert.equal(mode(settings), m);
      }
    });

    await t.step("a new file outside the store: the usual mode (not 0600)", async () => {
      Deno.chmodSync(root, 0o755);
      const ignore = join(root, ".gitignore");
      await writeFileAtomic(ignore, ".claude/state/\n");
      const usual = join(root, "usual");
      Deno.writeTextFileSync(usual, "");
      assert.equal(mode(ignore), mode(usual));
      assert.equal(targetMode(join(root, "new-file")), undefined);
      assert.equal(targetMode(join(store.dir, "new-file")), PRIVATE_FILE);
    });

    await t.step("lock files: 0600", async () => {
      if (OS_LOCKS) {
        (await acquireLock(join(store.dir, "x"), { kind: "flock" })).release();
        assert.equal(mode(join(store.dir, "x.lock")), PRIVATE_FILE);
      }
      const held = await acquireLock(join(store.dir, "y"), { kind: "file" });
      assert.equal(mode(join(store.dir, "y.lock.held")), PRIVATE_FILE);
      held.release();
    });

    await t.step("no temp file is left behind", () => {
      assert.deepEqual(tempFilesIn(store.dir), []);
    });
  },
});

Deno.test("atomic writes: content in pieces", async (t) => {
  await using scratch = await scratchDir();
  const path = join(scratch.path, "PARKED.md");
  const big = new Uint8Array(1 << 21).map((_, i) => 97 + (i % 26));
  const chunks = [big.subarray(0, 1000), new Uint8Array(0), Uint8Array.of(10, 0, 255), big];
  const joined = new Uint8Array(await new Blob(chunks).arrayBuffer());

  await t.step(
    "the pieces are written one after another, byte for byte (sync and async)",
    async () => {
      writeFileAtomicSync(path, chunks);
      assert.deepEqual(Deno.readFileSync(path), joined);
      await writeFileAtomic(path, [Uint8Array.of(1), Uint8Array.of(2, 3)]);
      assert.deepEqual(Deno.readFileSync(path), Uint8Array.of(1, 2, 3));
      assert.equal(await createFileAtomic(join(scratch.path, "new"), [Uint8Array.of(4)]), true);
      assert.deepEqual(Deno.readFileSync(join(scratch.path, "new")), Uint8Array.of(4));
    },
  );

  await t.step("a write of pieces cut short leaves the old file and no temp file", () => {
    writeFileAtomicSync(path, "old\n");
    setFault("short-write");
    try {
      assert.throws(() => writeFileAtomicSync(path, chunks), /No space left on device/);
    } finally {
      setFault(undefined);
    }
    assert.equal(Deno.readTextFileSync(path), "old\n");
    assert.deepEqual(tempFilesIn(scratch.path), []);
  });

  await t.step("a file system that takes no bytes and says nothing: an error, not a hang", () => {
    writeFileAtomicSync(path, "old\n");
    const real = Deno.FsFile.prototype.writeSync;
    Deno.FsFile.prototype.writeSync = () => 0;
    try {
      assert.throws(() => writeFileAtomicSync(path, chunks), /wrote nothing/);
    } finally {
      Deno.FsFile.prototype.writeSync = real;
    }
    assert.equal(Deno.readTextFileSync(path), "old\n");
    assert.deepEqual(tempFilesIn(scratch.path), []);
  });
});
