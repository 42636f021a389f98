import assert from "node:assert/strict";
import { parseParked } from "../lib/parked.ts";
import { join, storeAt } from "../lib/store.ts";
import { cli, put, scratchRepo } from "./support/cli.ts";
import { runCli } from "./support/scratch.ts";

const PARKED = ".claude/state/session/PARKED.md";

async function readParkedFile(root: string): Promise<string> {
  return await Deno.readTextFile(join(root, PARKED));
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("park: process-level", async (t) => {
  const repo = await scratchRepo();
  const root = repo.root;
  try {
    await t.step("from a subdirectory: store at the git root, exact bullet, count", async () => {
      await Deno.mkdir(join(root, "src/deep"), { recursive: true });
      const r = await runCli([
        "park",
        "Retry",
        "the",
        "flaky",
        "upload",
        "test",
        "--why",
        "fails 1 in 20",
        "--next",
        "add a seed",
      ], { cwd: join(root, "src/deep") });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "Parked: retry-flaky-upload-test (1 open)\n");
      assert.equal(
        await readParkedFile(root),
        "# Parked items\n\n- **retry-flaky-upload-test** — Retry the flaky upload test. " +
          "Raised: 2026-11-30. Why: fails 1 in 20. Next: add a seed.\n",
      );
      assert.equal(await exists(join(root, "src/deep/.claude")), false, "no second store");
    });
    await t.step(
      "words that look like flags stay in the summary; -- keeps named ones",
      async () => {
        const r = await runCli([
          "park",
          "commit",
          "with",
          "--no-verify",
          "-x",
          "--",
          "--why",
          "not",
        ], {
          cwd: root,
        });
        assert.equal(r.code, 0, r.stderr);
        const item = parseParked(await readParkedFile(root)).items[1];
        assert.equal(item.summary, "commit with --no-verify -x --why not");
        assert.equal(item.why, undefined);
        assert.equal(r.stdout, `Parked: ${item.slug} (2 open)\n`);
      },
    );
    await t.step("--opt=value form and --slug; the same slug updates that bullet", async () => {
      const a = await runCli(["park", "first", "words", "--slug", "Mine", "--why=because"], {
        cwd: root,
      });
      assert.equal(a.stdout, "Parked: mine (3 open)\n");
      const b = await runCli(["park", "better", "words", "--slug=mine", "--next", "do it"], {
        cwd: root,
      });
      assert.equal(b.code, 0, b.stderr);
      assert.match(b.stdout, /^Parked: mine \(3 open\)\nUpdated the existing bullet/);
      const items = parseParked(await readParkedFile(root)).items;
      const mine = items.find((i) => i.slug === "mine")!;
      assert.equal(mine.summary, "better words");
      assert.equal(mine.why, "because", "why kept");
      assert.equal(mine.next, "do it");
      assert.equal(items.length, 3);
    });
    await t.step(
      "same summary again updates; another summary with the same slug gets -2",
      async () => {
        const again = await runCli(["park", "retry the flaky upload test", "--next", "bisect"], {
          cwd: root,
        });
        assert.equal(again.stdout.split("\n")[0], "Parked: retry-flaky-upload-test (3 open)");
        const other = await runCli(["park", "retry flaky upload test harder"], { cwd: root });
        // Five telling words: "retry flaky upload test harder" derives a different slug already.
        assert.equal(other.code, 0);
        const clash = await runCli(["park", "Retry: flaky upload test!"], { cwd: root });
        assert.equal(clash.stdout, "Parked: retry-flaky-upload-test-2 (5 open)\n");
      },
    );
    await t.step("empty payload: exit 2 suggesting sweep, nothing written", async () => {
      const before = await readParkedFile(root);
      for (const args of [["park"], ["park", "  "], ["park", "--why", "x"], ["park", "--"]]) {
        const r = await runCli(args, { cwd: root });
        assert.equal(r.code, 2, args.join(" "));
        assert.match(r.stderr, /nothing to park.*sweep/);
        assert.equal(r.stdout, "");
      }
      assert.equal(await readParkedFile(root), before);
    });
    await t.step("refusals: a bad --slug, a named option without value", async () => {
      for (const args of [["park", "x", "--slug", "../up"], ["park", "x", "--slug", "!!"]]) {
        const r = await runCli(args, { cwd: root });
        assert.equal(r.code, 2, args.join(" "));
        assert.match(r.stderr, /--slug/);
      }
      const r = await runCli(["park", "x", "--why"], { cwd: root });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /needs a value/);
    });
    await t.step("--help exits 0 and documents the payload rule", async () => {
      const r = await runCli(["park", "--help"], { cwd: root });
      assert.equal(r.code, 0);
      assert.match(r.stdout, /Usage: session.ts park/);
      assert.match(r.stdout, /--no-verify/);
    });
    await t.step(
      "PARKED.md with bytes that are not UTF-8: they survive an edit exactly",
      async () => {
        const other = await scratchRepo();
        try {
          const path = join(other.root, PARKED);
          await put(other.root, PARKED, "");
          const bad = new Uint8Array([0x2d, 0x20, 0x2a, 0x2a, 0x61, 0x2a, 0x2a, 0x20, 0xff, 0xfe]);
          const bytes = new Uint8Array([...bad, 0x0a]);
          await Deno.writeFile(path, bytes);
          const r = await runCli(["park", "x"], { cwd: other.root });
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stdout, "Parked: x (2 open)\n");
          const after = await Deno.readFile(path);
          assert.deepEqual(after.subarray(0, bytes.length), bytes);
          const dropped = await runCli(["drop", "x"], { cwd: other.root });
          assert.equal(dropped.code, 0, dropped.stderr);
          assert.deepEqual(await Deno.readFile(path), bytes);
        } finally {
          await other.cleanup();
        }
      },
    );
  } finally {
    await repo.cleanup();
  }
});

Deno.test("park: store rule outside git, --dir and CLAUDE_PROJECT_DIR", async (t) => {
  const plain = await scratchRepo({ git: false });
  const elsewhere = await scratchRepo({ git: false });
  try {
    await t.step("outside git: the working directory", async () => {
      const r = await runCli(["park", "outside git"], { cwd: plain.root });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(parseParked(await readParkedFile(plain.root)).items[0].slug, "outside-git");
    });
    await t.step("--dir wins over the working directory", async () => {
      const r = await runCli(["park", "via dir", "--dir", elsewhere.root], { cwd: plain.root });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(parseParked(await readParkedFile(elsewhere.root)).items[0].slug, "via-dir");
      assert.equal(parseParked(await readParkedFile(plain.root)).items.length, 1);
    });
    await t.step("CLAUDE_PROJECT_DIR is used when set", async () => {
      const r = await runCli(["park", "via env"], {
        cwd: plain.root,
        env: { CLAUDE_PROJECT_DIR: elsewhere.root },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(parseParked(await readParkedFile(elsewhere.root)).items.length, 2);
    });
  } finally {
    await plain.cleanup();
    await elsewhere.cleanup();
  }
});

Deno.test("park: 50 concurrent processes keep 50 items", async () => {
  const repo = await scratchRepo();
  try {
    const runs = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        runCli(["park", `parallel item number ${i}`], {
          cwd: repo.root,
        })),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const doc = parseParked(await readParkedFile(repo.root));
    assert.equal(doc.items.length, 50);
    assert.equal(new Set(doc.items.map((i) => i.slug)).size, 50);
    const counts = runs.map((r) => Number(/\((\d+) open\)/.exec(r.stdout)![1])).sort((a, b) =>
      a - b
    );
    assert.deepEqual(counts, Array.from({ length: 50 }, (_, i) => i + 1), "each saw the others");
    const leftovers = [...Deno.readDirSync(storeAt(repo.root).dir)].filter((e) =>
      e.name.startsWith(".tmp-")
    );
    assert.deepEqual(leftovers, []);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("park: in-process (fast paths)", async (t) => {
  const repo = await scratchRepo({ git: false });
  try {
    await t.step(
      "CRLF PARKED.md: a new bullet is written with CRLF, the rest untouched",
      async () => {
        const text = "# Parked items\r\n\r\n- **a** — hand written\r\n  continued\r\n\r\nNotes\r\n";
        await put(repo.root, PARKED, text);
        const r = await cli(["park", "new one"], { cwd: repo.root });
        assert.equal(r.code, 0, r.err);
        assert.equal(
          await readParkedFile(repo.root),
          text.replace(
            "continued\r\n",
            "continued\r\n- **new-one** — new one. Raised: 2026-11-30.\r\n",
          ),
        );
      },
    );
  } finally {
    await repo.cleanup();
  }
});
