import assert from "node:assert/strict";
import { parseParked } from "../../lib/parked/scanner.ts";
import { join } from "../../lib/fs/path.ts";
import { storeAt } from "../../lib/store/store.ts";
import { put, scratchProject, tempFilesIn } from "../support/scratch.ts";
import { runCliInProcess, runCliProcess } from "../support/run.ts";
import { type ParkFacts, parkPoints } from "../../lib/cli/park.ts";

const PARKED = ".claude/state/session/PARKED.md";

async function readParkedFile(root: string): Promise<string> {
  return await Deno.readTextFile(join(root, PARKED));
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** What park said before its `## Confidence` block. */
function said(stdout: string): string {
  return `${stdout.split("\n\n## Confidence\n")[0]}\n`;
}

Deno.test("park: process-level", async (t) => {
  await using repo = await scratchProject({ git: "repo", store: false });
  const root = repo.root;
  await t.step("from a subdirectory: store at the git root, exact bullet, count", async () => {
    await Deno.mkdir(join(root, "src/deep"), { recursive: true });
    const r = await runCliProcess([
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
    assert.equal(said(r.stdout), "Parked: retry-flaky-upload-test (1 open)\n");
    assert.equal(
      r.stdout.split("\n## Confidence\n")[1],
      "✓ slug: `retry-flaky-upload-test`, new\n" +
        "✓ lock: PARKED.md edited under its lock: 0 → 1 open\n" +
        "✓ re-read: `retry-flaky-upload-test` is in PARKED.md as written, 1 open\n",
    );
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
      const r = await runCliProcess([
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
      assert.equal(said(r.stdout), `Parked: ${item.slug} (2 open)\n`);
    },
  );
  await t.step("--opt=value form and --slug; the same slug updates that bullet", async () => {
    const a = await runCliProcess(["park", "first", "words", "--slug", "Mine", "--why=because"], {
      cwd: root,
    });
    assert.equal(said(a.stdout), "Parked: mine (3 open)\n");
    const b = await runCliProcess(["park", "better", "words", "--slug=mine", "--next", "do it"], {
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
      const again = await runCliProcess(
        ["park", "retry the flaky upload test", "--next", "bisect"],
        {
          cwd: root,
        },
      );
      assert.equal(again.stdout.split("\n")[0], "Parked: retry-flaky-upload-test (3 open)");
      const other = await runCliProcess(["park", "retry flaky upload test harder"], { cwd: root });
      // Five telling words: "retry flaky upload test harder" derives a different slug already.
      assert.equal(other.code, 0);
      const clash = await runCliProcess(["park", "Retry: flaky upload test!"], { cwd: root });
      assert.equal(said(clash.stdout), "Parked: retry-flaky-upload-test-2 (5 open)\n");
      assert.match(
        clash.stdout,
        /\n⚠ slug: `retry-flaky-upload-test-2`, new: `retry-flaky-upload-test` already holds a different item → /,
      );
    },
  );
  await t.step(
    "options without a summary: exit 2 suggesting sweep, nothing written",
    async () => {
      const before = await readParkedFile(root);
      for (
        const args of [["park", "--why", "x"], ["park", "--next=y", "--"], [
          "park",
          "--slug",
          "s",
        ]]
      ) {
        const r = await runCliProcess(args, { cwd: root });
        assert.equal(r.code, 2, args.join(" "));
        assert.match(r.stderr, /nothing to park.*sweep/);
        assert.equal(r.stdout, "");
      }
      assert.equal(await readParkedFile(root), before);
    },
  );
  await t.step(
    "no payload: sweep's findings offered with ready park commands, exit 1",
    async () => {
      await put(root, "notes/todo draft.txt", "x\n");
      const before = await readParkedFile(root);
      for (const args of [["park"], ["park", "  "], ["park", "--"]]) {
        const r = await runCliProcess(args, { cwd: root });
        assert.equal(r.code, 1, args.join(" ") + r.stderr);
        assert.match(r.stderr, /^Nothing parked: no summary given\. Sweep found \d+ candidate/);
        const lines = r.stdout.trimEnd().split("\n");
        const at = lines.findIndex((l) => /\[untracked\] notes\/todo draft\.txt/.test(l));
        assert.ok(at >= 0, r.stdout);
        // Already parked items are not offered again.
        assert.doesNotMatch(r.stdout, /\[parked\]/);
        assert.equal(await readParkedFile(root), before, "nothing written");
        // The offered command, run through a shell as given, parks exactly that finding.
        const command = lines[at + 1].trim().replace(/^deno /, `'${Deno.execPath()}' `);
        assert.match(command, / park -- 'untracked: notes\/todo draft\.txt'$/);
        if (args.length > 1) continue;
        const ran = await new Deno.Command("sh", {
          args: ["-c", command],
          cwd: root,
          env: { SESSION_NOW: "2026-11-30T12:00:00Z" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert.equal(ran.code, 0, new TextDecoder().decode(ran.stderr));
        const items = parseParked(await readParkedFile(root)).items;
        assert.equal(items.at(-1)?.summary, "untracked: notes/todo draft.txt");
        await runCliProcess(["drop", items.at(-1)!.slug], { cwd: root });
        assert.equal(await readParkedFile(root), before);
      }
      await Deno.remove(join(root, "notes"), { recursive: true });
    },
  );
  await t.step(
    "object property names are words, never flags (--toString, --constructor)",
    async () => {
      const names = Object.getOwnPropertyNames(Object.prototype).filter((n) => /^[a-z]/i.test(n));
      assert.ok(names.includes("toString") && names.includes("constructor"));
      for (const name of names) {
        const r = await runCliInProcess(["park", "review", "the", `--${name}`, "output"], {
          cwd: root,
        });
        assert.equal(r.code, 0, `${name}: ${r.err}`);
        const item = parseParked(await readParkedFile(root)).items.at(-1)!;
        assert.equal(item.summary, `review the --${name} output`);
        const tail = await runCliInProcess(["park", "check", `--${name}`], { cwd: root });
        assert.equal(tail.code, 0, `${name}: ${tail.err}`);
        const last = parseParked(await readParkedFile(root)).items.at(-1)!;
        assert.equal(last.summary, `check --${name}`);
        for (const slug of [item.slug, last.slug]) {
          const d = await runCliInProcess(["drop", slug, `--${name}=x`], { cwd: root });
          assert.equal(d.code, 1, `${name}: the flag-looking word is part of the query`);
          const ok = await runCliInProcess(["drop", slug], { cwd: root });
          assert.equal(ok.code, 0, ok.err);
        }
      }
    },
  );
  await t.step(
    "a summary saying why:, next: or raised: reads back whole and updates",
    async () => {
      for (
        const summary of ["why: the CI is red", "NEXT : ship it.", "Raised: 2026-01-01. Why: x"]
      ) {
        const first = await runCliInProcess(["park", summary], { cwd: root });
        assert.equal(first.code, 0, first.err);
        const count = parseParked(await readParkedFile(root)).count;
        const again = await runCliInProcess(["park", summary, "--why", "second"], { cwd: root });
        assert.match(again.out, /Updated the existing bullet/, summary);
        const items = parseParked(await readParkedFile(root)).items;
        assert.equal(items.length, count, `${summary}: no second item`);
        const item = items.find((i) => i.summary === summary);
        assert.ok(item, `${summary} read back: ${JSON.stringify(items.at(-1))}`);
        assert.equal(item.why, "second");
        assert.equal((await runCliInProcess(["drop", item.slug], { cwd: root })).code, 0);
      }
    },
  );
  await t.step("park --slug over a bullet with notes keeps every note line", async () => {
    const before = await readParkedFile(root);
    const notes = "  Notes from Bob: keep this\n  and this. Why: still a note\n";
    await put(root, PARKED, `${before}- **alpha** — first. Raised: 2026-11-01.\n${notes}`);
    for (const args of [["new", "summary", "--why", "because"], ["newer", "--why", "other"]]) {
      const r = await runCliInProcess(["park", "--slug", "alpha", ...args], { cwd: root });
      assert.equal(r.code, 0, r.err);
    }
    const text = await readParkedFile(root);
    assert.ok(
      text.endsWith(`- **alpha** — newer. Raised: 2026-11-01. Why: other.\n${notes}`),
      text,
    );
    assert.equal((await runCliInProcess(["drop", "alpha"], { cwd: root })).code, 0);
    assert.equal(await readParkedFile(root), before);
  });
  await t.step("refusals: a bad --slug, a named option without value", async () => {
    for (const args of [["park", "x", "--slug", "../up"], ["park", "x", "--slug", "!!"]]) {
      const r = await runCliProcess(args, { cwd: root });
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, /--slug/);
    }
    const r = await runCliProcess(["park", "x", "--why"], { cwd: root });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /needs a value/);
  });
  await t.step("--help exits 0 and documents the payload rule", async () => {
    const r = await runCliProcess(["park", "--help"], { cwd: root });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Usage: session.ts park/);
    assert.match(r.stdout, /--no-verify/);
  });
  await t.step(
    "PARKED.md with bytes that are not UTF-8: they survive an edit exactly",
    async () => {
      await using other = await scratchProject({ git: "repo", store: false });
      const path = join(other.root, PARKED);
      await put(other.root, PARKED, "");
      const bad = new Uint8Array([0x2d, 0x20, 0x2a, 0x2a, 0x61, 0x2a, 0x2a, 0x20, 0xff, 0xfe]);
      const bytes = new Uint8Array([...bad, 0x0a]);
      await Deno.writeFile(path, bytes);
      const r = await runCliProcess(["park", "x"], { cwd: other.root });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(said(r.stdout), "Parked: x (2 open)\n");
      const after = await Deno.readFile(path);
      assert.deepEqual(after.subarray(0, bytes.length), bytes);
      const dropped = await runCliProcess(["drop", "x"], { cwd: other.root });
      assert.equal(dropped.code, 0, dropped.stderr);
      assert.deepEqual(await Deno.readFile(path), bytes);
    },
  );
});

Deno.test("park: store rule outside git, --dir and CLAUDE_PROJECT_DIR", async (t) => {
  await using plain = await scratchProject({ git: false, store: false });
  await using elsewhere = await scratchProject({ git: false, store: false });
  await t.step("outside git: the working directory", async () => {
    const r = await runCliProcess(["park", "outside git"], { cwd: plain.root });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(parseParked(await readParkedFile(plain.root)).items[0].slug, "outside-git");
  });
  await t.step("--dir wins over the working directory", async () => {
    const r = await runCliProcess(["park", "via dir", "--dir", elsewhere.root], {
      cwd: plain.root,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(parseParked(await readParkedFile(elsewhere.root)).items[0].slug, "via-dir");
    assert.equal(parseParked(await readParkedFile(plain.root)).items.length, 1);
  });
  await t.step("CLAUDE_PROJECT_DIR is used when set", async () => {
    const r = await runCliProcess(["park", "via env"], {
      cwd: plain.root,
      env: { CLAUDE_PROJECT_DIR: elsewhere.root },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(parseParked(await readParkedFile(elsewhere.root)).items.length, 2);
  });
});

Deno.test("park: 50 concurrent processes keep 50 items", async () => {
  await using repo = await scratchProject({ git: "repo", store: false });
  const runs = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      runCliProcess(["park", `parallel item number ${i}`], {
        cwd: repo.root,
      })),
  );
  for (const r of runs) assert.equal(r.code, 0, r.stderr);
  const doc = parseParked(await readParkedFile(repo.root));
  assert.equal(doc.items.length, 50);
  assert.equal(new Set(doc.items.map((i) => i.slug)).size, 50);
  const counts = runs.map((r) => Number(/\((\d+) open\)/.exec(r.stdout)![1])).sort((a, b) => a - b);
  assert.deepEqual(counts, Array.from({ length: 50 }, (_, i) => i + 1), "each saw the others");
  assert.deepEqual(tempFilesIn(storeAt(repo.root).dir), []);
});

Deno.test("park: in-process", async (t) => {
  await using repo = await scratchProject({ git: false, store: false });
  await t.step(
    "CRLF PARKED.md: a new bullet is written with CRLF, the rest untouched",
    async () => {
      const text = "# Parked items\r\n\r\n- **a** — hand written\r\n  continued\r\n\r\nNotes\r\n";
      await put(repo.root, PARKED, text);
      const r = await runCliInProcess(["park", "new one"], { cwd: repo.root });
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
});

Deno.test("park's points flip between ✓ and ⚠ with the facts", async (t) => {
  const good: ParkFacts = {
    slug: "retry",
    base: "retry",
    updated: false,
    before: 2,
    open: 3,
    reread: { open: 3, found: true },
  };
  const scores = (f: ParkFacts) => parkPoints(f).map((p) => `${p.ok ? "✓" : "⚠"} ${p.name}`);
  await t.step("new (or updated) as asked, counted under the lock, re-read: ✓ each", () => {
    assert.deepEqual(scores(good), ["✓ slug", "✓ lock", "✓ re-read"]);
    const updated = { ...good, updated: true, open: 2, reread: { open: 2, found: true } };
    assert.deepEqual(scores(updated), ["✓ slug", "✓ lock", "✓ re-read"]);
    assert.equal(parkPoints(updated)[0].fact, "`retry`, updated the existing bullet");
  });
  await t.step("slug: a suffix taken because another item holds the slug is ⚠", () => {
    const p = parkPoints({ ...good, slug: "retry-2" })[0];
    assert.deepEqual([p.ok, p.fix], [
      false,
      "if it is the same loop, park it again with --slug retry to update that one",
    ]);
  });
  await t.step("lock: a count that moved by other than the edit is ⚠", () => {
    const p = parkPoints({ ...good, open: 4, reread: { open: 4, found: true } })[1];
    assert.deepEqual([p.ok, p.fact], [false, "PARKED.md edited under its lock: 2 → 4 open, not 3"]);
  });
  await t.step("re-read: the bullet missing, or another count: ⚠", () => {
    assert.equal(parkPoints({ ...good, reread: { open: 3, found: false } })[2].ok, false);
    assert.equal(parkPoints({ ...good, reread: { open: 5, found: true } })[2].ok, false);
  });
});
