import assert from "node:assert/strict";
import {
  byNewest,
  cachePath,
  catalog,
  entryOf,
  heads,
  listSlugs,
  readHead,
} from "../../lib/store/catalog.ts";
import { writeFileAtomic } from "../../lib/fs/atomic.ts";
import {
  expire,
  isUnsaved,
  listing,
  listPoints,
  parkedRows,
  renderListing,
} from "../../lib/cli/list.ts";
import { CLI_FLAGS, cliCommand } from "../../lib/agents/command.ts";
import { encodeProjectDir } from "../../lib/transcript/paths.ts";
import { parseParked } from "../../lib/parked/scanner.ts";
import { join } from "../../lib/fs/path.ts";
import { readLatest } from "../../lib/store/latest.ts";
import { isoStamp, STALE_MARK } from "../../lib/store/time.ts";
import { CLI, NOW, scratchDir, scratchProject, writeDoc } from "../support/scratch.ts";
import { clearPayload, runCliInProcess, runCliProcess, runProcess } from "../support/run.ts";
import { DEFAULT_OPTIONS } from "../../lib/hook/input.ts";
import { answer } from "../../lib/hook/answer.ts";
import { canUnshare, inNamespace } from "../support/namespace.ts";

const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

Deno.test("catalog", async (t) => {
  await t.step(
    "lists .md documents only: temp files, other files, reserved names skipped",
    async () => {
      await using p = await scratchProject();
      await writeDoc(p.store, "b", { latest: false });
      await writeDoc(p.store, "a", { latest: false });
      for (const name of [".tmp-a.md.1.x", "PARKED.md", "notes.txt", "LATEST", "dropped.jsonl"]) {
        await Deno.writeTextFile(join(p.store.dir, name), "x");
      }
      await Deno.mkdir(join(p.store.dir, "dir.md"));
      assert.deepEqual(listSlugs(p.store), ["a", "b"]);
    },
  );
  await t.step("a missing store lists nothing and is not created", async () => {
    await using p = await scratchProject({ store: false });
    assert.deepEqual(listSlugs(p.store), []);
    assert.equal((await runCliInProcess(["list"], { cwd: p.root })).code, 0);
    await assert.rejects(Deno.stat(p.store.dir));
  });
  await t.step(
    "readHead reads the front matter; a huge or binary body does not matter",
    async () => {
      await using p = await scratchProject();
      const path = join(p.store.dir, "big.md");
      const head =
        "---\nslug: big\ncreated: 2026-11-30T00:00:00Z\nconsumed: true\nbranch: x\n---\n";
      const body = new Uint8Array(4_000_000).fill(0xff);
      await Deno.writeFile(path, new Uint8Array([...new TextEncoder().encode(head), ...body]));
      assert.deepEqual(readHead(path), {
        slug: "big",
        created: "2026-11-30T00:00:00Z",
        consumed: "true",
        branch: "x",
      });
      assert.equal(readHead(join(p.store.dir, "missing.md")), undefined);
      await Deno.writeTextFile(join(p.store.dir, "plain.md"), "no front matter");
      assert.deepEqual(readHead(join(p.store.dir, "plain.md")), {});
    },
  );
  await t.step("entries: age, stale over 14 d, expired over 30 d, undated never", () => {
    const at = (d: number) => entryOf("s", { created: ago(d).toISOString() }, NOW);
    assert.deepEqual([at(14).stale, at(14.01).stale, at(30).expired, at(30.01).expired], [
      false,
      true,
      false,
      true,
    ]);
    const undated = entryOf("u", { consumed: "maybe" }, NOW);
    assert.deepEqual(undated, { slug: "u", stale: false, expired: false });
    const sorted = [entryOf("u", {}, NOW), at(3), entryOf("n", { created: NOW.toISOString() }, NOW)]
      .sort(byNewest).map((e) => e.slug);
    assert.deepEqual(sorted, ["n", "s", "u"]);
  });
});

Deno.test("catalog cache", async (t) => {
  /** Makes the store look untouched for an hour (real file times: the cache compares them). */
  const settle = (dir: string) => {
    const hourAgo = (Date.now() - 3_600_000) / 1000;
    return Deno.utime(dir, hourAgo, hourAgo);
  };
  await t.step("a cache of the older format (before parent:) is read afresh", async () => {
    await using p = await scratchProject();
    await Deno.writeTextFile(
      join(p.store.dir, "a.md"),
      "---\nslug: a\ncreated: 2026-11-30T12:00:00Z\nconsumed: false\nbranch: main\nparent: x\n---\n",
    );
    await Deno.mkdir(join(p.store.dir, ".cache"));
    await settle(p.store.dir);
    const mtime = (await Deno.stat(p.store.dir)).mtime!.getTime();
    const docs = { a: { created: "2026-11-30T12:00:00Z", consumed: "false", branch: "main" } };
    await Deno.writeTextFile(
      cachePath(p.store),
      JSON.stringify({ version: 1, dirMtimeMs: mtime, docs }),
    );
    assert.equal((await Deno.stat(p.store.dir)).mtime!.getTime(), mtime, "the cache matches");
    assert.equal(catalog(p.store, NOW)[0].parent, "x");
  });
  await t.step("a store changed just now is read afresh and not cached", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "a");
    assert.equal(heads(p.store).get("a")?.consumed, "false");
    await assert.rejects(Deno.stat(cachePath(p.store)));
  });
  await t.step("a still store is cached; used while the directory is unchanged", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "a", { latest: false });
    await Deno.mkdir(join(p.store.dir, ".cache"));
    await settle(p.store.dir);
    assert.equal(catalog(p.store, NOW)[0].consumed, false);
    const cache = JSON.parse(await Deno.readTextFile(cachePath(p.store)));
    assert.equal(cache.dirMtimeMs, (await Deno.stat(p.store.dir)).mtime!.getTime());
    assert.deepEqual(cache.docs, {
      a: { created: "2026-11-30T12:00:00Z", branch: "main", consumed: "false" },
    });
    // An in-place edit does not move the directory's mtime: the cache answers (proof of use).
    const path = join(p.store.dir, "a.md");
    await Deno.writeTextFile(
      path,
      (await Deno.readTextFile(path)).replace("consumed: false", "consumed: true"),
    );
    assert.equal(catalog(p.store, NOW)[0].consumed, false);
    // Every writer of this project renames into the store: that is always seen.
    await writeFileAtomic(path, await Deno.readTextFile(path));
    assert.equal(catalog(p.store, NOW)[0].consumed, true);
    await writeDoc(p.store, "b", { latest: false });
    assert.deepEqual(catalog(p.store, NOW).map((e) => e.slug).sort(), ["a", "b"]);
    await Deno.remove(join(p.store.dir, "b.md"));
    assert.deepEqual(catalog(p.store, NOW).map((e) => e.slug), ["a"]);
  });
  await t.step("a cache that calls a document expired is checked against it first", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "fresh", { latest: false, created: ago(1) });
    await writeDoc(p.store, "old", { latest: false, created: ago(40) });
    await Deno.mkdir(join(p.store.dir, ".cache"));
    await settle(p.store.dir);
    const mtime = (await Deno.stat(p.store.dir)).mtime!.getTime();
    // What a cache says after "fresh" was hand-edited in place from an old date: expired.
    const old = isoStamp(ago(40));
    const docs = { fresh: { created: old }, old: { created: old } };
    await Deno.writeTextFile(
      cachePath(p.store),
      JSON.stringify({ version: 2, dirMtimeMs: mtime, docs }),
    );
    assert.equal(catalog(p.store, NOW).find((e) => e.slug === "fresh")?.expired, true);
    const l = await listing(p.store, NOW);
    assert.deepEqual(l.removed, ["old"]);
    assert.deepEqual(l.handovers.map((h) => h.slug), ["fresh"]);
    assert.ok(await Deno.stat(join(p.store.dir, "fresh.md")));
  });
  await t.step("a broken or hostile cache is ignored", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "a", { latest: false });
    await Deno.mkdir(join(p.store.dir, ".cache"));
    await settle(p.store.dir);
    const mtime = (await Deno.stat(p.store.dir)).mtime!.getTime();
    for (
      const bad of [
        "{not json",
        "\0\xff",
        JSON.stringify({ version: 3, dirMtimeMs: mtime, docs: {} }),
        JSON.stringify({ version: 2, dirMtimeMs: mtime, docs: { "../x": {} } }),
        JSON.stringify({ version: 2, dirMtimeMs: mtime, docs: { a: null } }),
        JSON.stringify({ version: 2, dirMtimeMs: mtime, docs: null }),
      ]
    ) {
      await Deno.writeTextFile(cachePath(p.store), bad);
      await settle(p.store.dir);
      assert.deepEqual(catalog(p.store, NOW).map((e) => e.slug), ["a"], bad);
    }
    // Wrong types in a cache that matches are dropped field by field, never trusted.
    await settle(p.store.dir);
    const now = (await Deno.stat(p.store.dir)).mtime!.getTime();
    const forged = { version: 2, dirMtimeMs: now, docs: { a: { consumed: 7, created: [] } } };
    await Deno.writeTextFile(cachePath(p.store), JSON.stringify(forged));
    assert.deepEqual(catalog(p.store, NOW), [{ slug: "a", stale: false, expired: false }]);
  });
});

Deno.test("list", async (t) => {
  await t.step("empty store: the one line", async () => {
    await using p = await scratchProject();
    const r = await runCliInProcess(["list"], { cwd: p.root });
    assert.equal(r.code, 0);
    assert.equal(
      r.out,
      "No stored handovers, no parked items.\n\n## Confidence\n" +
        "✓ store: empty: 0 handovers and 0 parked items found\n" +
        "✓ front matter: no documents to parse\n" +
        "✓ ages: from `created` (0 handovers) and `Raised:` (0 parked items)",
    );
  });
  await t.step("expires by created (never mtime); undated kept; stale flagged", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "fresh", { created: ago(1), latest: false, branch: "feat/x" });
    await writeDoc(p.store, "stale", { created: ago(20), consumed: true, latest: false });
    await writeDoc(p.store, "expired", { created: ago(31) });
    await writeDoc(p.store, "undated", { created: null, latest: false });
    // A fresh mtime must not save an expired document, nor an old one condemn a fresh one.
    const old = ago(100).getTime() / 1000;
    await Deno.utime(join(p.store.dir, "fresh.md"), old, old);
    const r = await runCliInProcess(["list"], { cwd: p.root });
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(listSlugs(p.store), ["fresh", "stale", "undated"]);
    assert.equal(readLatest(p.store), undefined, "LATEST named the expired document");
    assert.match(r.out, /^Removed 1 expired handover\(s\) \(over 30 days\): expired/);
    assert.ok(r.out.includes("| fresh | 24 h | feat/x | no |"));
    assert.ok(r.out.includes("| ⚠ stale stale | 20 d | main | yes |"));
    assert.ok(r.out.includes("| undated | unknown age | main | no |"));
    assert.ok(r.out.includes("No parked items."));
  });
  await t.step("--json: the documented shape; parked items with Raised and stale", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "d", { created: ago(0.5) });
    await Deno.writeTextFile(
      p.store.parked,
      "# Parked items\n\n- **old** — Old thing. Raised: 2026-11-01. Why: w. Next: n.\n" +
        "- **new** — New thing. Raised: 2026-11-29.\n- **undated** — No date.\n",
    );
    const r = await runCliInProcess(["list", "--json"], { cwd: p.root });
    assert.equal(r.code, 0, r.err);
    const l = JSON.parse(r.out);
    assert.deepEqual(Object.keys(l), [
      "store",
      "latest",
      "removed",
      "notRemoved",
      "handovers",
      "parked",
      "confidence",
    ]);
    // The same points as the text's block; the undated parked item is the weak one.
    assert.deepEqual(l.confidence, [
      { name: "store", ok: true, fact: "1 handover and 3 parked items found" },
      { name: "front matter", ok: true, fact: "every one parsed" },
      {
        name: "ages",
        ok: false,
        fact: "1 parked without `Raised:` (`undated`: never stale)",
        fix: "give each a `created:` (ISO 8601 UTC) or `Raised: YYYY-MM-DD`",
      },
    ]);
    assert.equal(l.latest, "d");
    assert.deepEqual(l.handovers, [{
      slug: "d",
      created: "2026-11-30T00:00:00Z",
      age: "12 h",
      ageMs: 12 * 3_600_000,
      branch: "main",
      consumed: false,
      stale: false,
      latest: true,
      parent: null,
    }]);
    assert.deepEqual(l.parked, [
      {
        slug: "old",
        summary: "Old thing",
        raised: "2026-11-01",
        why: "w",
        next: "n",
        stale: true,
      },
      {
        slug: "new",
        summary: "New thing",
        raised: "2026-11-29",
        why: null,
        next: null,
        stale: false,
      },
      { slug: "undated", summary: "No date", raised: null, why: null, next: null, stale: false },
    ]);
    const text = (await runCliInProcess(["list"], { cwd: p.root })).out;
    assert.ok(text.includes("| d (LATEST) | 12 h | main | no |"));
    assert.ok(text.includes("| ⚠ stale old | 2026-11-01 | Old thing |"));
    assert.ok(text.includes("Parked items (3 open):"));
  });
  await t.step("parked rows: stale from Raised, never throws on hostile text", () => {
    assert.equal(
      parkedRows(parseParked("- **a** — x. Raised: 2026-11-15.").items, NOW)[0].stale,
      true,
    );
    assert.equal(
      parkedRows(parseParked("- **a** — x. Raised: 2026-11-17.").items, NOW)[0].stale,
      false,
    );
    assert.equal(
      parkedRows(parseParked("- **a** — x. Raised: someday.").items, NOW)[0].stale,
      false,
    );
    parkedRows(parseParked("\0\xff- **").items, NOW);
  });
  await t.step("CRLF documents list; a LATEST naming a missing document is cleared", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "win", { crlf: true, created: ago(2), latest: false });
    await Deno.writeTextFile(p.store.latest, "removed-by-hand\n");
    const l = JSON.parse((await runCliInProcess(["list", "--json"], { cwd: p.root })).out);
    assert.equal(l.handovers[0].slug, "win");
    assert.equal(l.handovers[0].branch, "main");
    assert.equal(l.handovers[0].consumed, false);
    assert.equal(l.latest, null);
    assert.equal(readLatest(p.store), undefined);
  });
  await t.step("table cells escape pipes; items sharing a date share its staleness", async () => {
    await using p = await scratchProject();
    await Deno.writeTextFile(
      p.store.parked,
      "- **a** — Use a | b. Raised: 2026-11-01.\n- **b** — Other. Raised: 2026-11-01.\n" +
        "- **c** — New. Raised: 2026-11-29.\n",
    );
    const r = await runCliInProcess(["list"], { cwd: p.root });
    assert.ok(r.out.includes("| ⚠ stale a | 2026-11-01 | Use a \\| b |"), r.out);
    assert.ok(r.out.includes("| ⚠ stale b | 2026-11-01 | Other |"));
    assert.ok(r.out.includes("| c | 2026-11-29 | New |"));
  });
  await t.step("1,000 documents: all listed, in one run", async () => {
    await using p = await scratchProject();
    for (let i = 0; i < 1000; i++) {
      await writeDoc(p.store, `doc-${String(i).padStart(4, "0")}`, {
        created: new Date(NOW.getTime() - i * 60_000),
        latest: false,
      });
    }
    const started = performance.now();
    const docs = catalog(p.store, NOW);
    const took = performance.now() - started;
    assert.equal(docs.length, 1000);
    assert.equal(docs[0].slug, "doc-0000");
    assert.ok(took < 5_000, `catalog of 1,000 took ${took} ms`);
  });
  await t.step("refusals: unknown flag and words exit 2; --help exits 0", async () => {
    await using p = await scratchProject();
    const flag = await runCliInProcess(["list", "--all"], { cwd: p.root });
    assert.equal(flag.code, 2);
    assert.match(
      flag.err,
      /unknown flag "--all". Supported flags of list: --json, --tree, --dir DIR, --help/,
    );
    assert.equal((await runCliInProcess(["list", "x"], { cwd: p.root })).code, 2);
    assert.match(
      (await runCliInProcess(["list", "--help"], { cwd: p.root })).out,
      /^Usage: session.ts list/,
    );
  });
  await t.step("as a process: JSON parses, from a subdirectory finds the store", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "proc");
    await Deno.mkdir(join(p.root, "sub"));
    const r = await runCliProcess(["list", "--json"], { cwd: join(p.root, "sub") });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).handovers[0].slug, "proc");
  });
});

Deno.test("a created that is not a strict ISO 8601 stamp is no date: kept, never injected", async (t) => {
  // Each of these is a date to V8's Date.parse (in 2000/2001, or local time within the window).
  const garbage = ["0", "1", "foo 1", "12/1", "2026-11-30T11:50:00", "2026-11-30 11:50:00Z"];
  await t.step("list keeps them and shows no age", async () => {
    await using p = await scratchProject();
    for (const [i, created] of garbage.entries()) {
      await writeDoc(p.store, `g${i}`, { created, latest: false });
    }
    const l = await listing(p.store, NOW);
    assert.deepEqual(l.removed, []);
    assert.deepEqual(l.handovers.map((h) => h.slug).sort(), garbage.map((_, i) => `g${i}`));
    assert.ok(l.handovers.every((h) => h.ageMs === null && h.age === "unknown age"));
    for (const [i] of garbage.entries()) {
      assert.ok(await Deno.stat(join(p.store.dir, `g${i}.md`)));
    }
  });
  await t.step("the hook injects none of them", async () => {
    for (const created of garbage) {
      await using p = await scratchProject();
      await writeDoc(p.store, "g", { created });
      const payload = JSON.parse(clearPayload(p.root));
      const general = await answer(payload, DEFAULT_OPTIONS, { projectDir: p.root }, NOW);
      assert.equal(general.stdout, undefined, created);
      assert.equal(readLatest(p.store), "g", created);
    }
  });
});

Deno.test("list says which expired handovers it could not remove, and still lists them", async (t) => {
  await t.step("a failed removal is reported with its reason; LATEST is kept", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "gone", { created: ago(40), latest: false });
    await writeDoc(p.store, "stuck", { created: ago(35) });
    const entries = catalog(p.store, NOW);
    const r = await expire(p.store, entries, NOW, (path) => {
      if (path.endsWith("stuck.md")) {
        throw new Deno.errors.PermissionDenied("Read-only file system");
      }
      Deno.removeSync(path);
    });
    assert.deepEqual(r.removed, ["gone"]);
    assert.deepEqual(r.notRemoved, [{ slug: "stuck", reason: "Read-only file system" }]);
    assert.equal(readLatest(p.store), "stuck", "the pointer of a document that stays stays");
    const text = renderListing({ ...(await listing(p.store, NOW)), notRemoved: r.notRemoved });
    assert.match(
      text,
      /Could not remove 1 expired handover\(s\).*stuck \(Read-only file system\)/,
    );
  });
  await t.step({
    name: "in a read-only store (tmpfs in a user namespace): exit 1, nothing hidden",
    ignore: !canUnshare(),
    fn: async () => {
      await using p = await scratchProject();
      await writeDoc(p.store, "old", { created: ago(40) });
      const script = [
        "set -e",
        `S=${JSON.stringify(p.store.dir)}`,
        `mkdir -p /tmp/seed-$$ && cp -a "$S"/. /tmp/seed-$$/`,
        `mount -t tmpfs -o size=32k none "$S" && cp -a /tmp/seed-$$/. "$S"/ && rm -rf /tmp/seed-$$`,
        `mount -o remount,ro "$S"`,
        "set +e",
        [
          JSON.stringify(Deno.execPath()),
          `run --no-prompt ${CLI_FLAGS.join(" ")}`,
          JSON.stringify(CLI),
          "list",
        ].join(" "),
        'echo "code=$?"',
      ].join("\n");
      const { stdout: out, stderr: err } = await inNamespace(script, p.root);
      assert.match(out, /code=1$/m, out + err);
      assert.doesNotMatch(out, /Removed 1/);
      assert.match(out, /Could not remove 1 expired handover\(s\).*old \(/);
      assert.match(out, /\| ⚠ stale old \(LATEST\) \|/, "still listed, and still LATEST");
      assert.match(err, /could not remove 1 expired handover\(s\); make the store writable/);
    },
  });
});

Deno.test("list: a session that ended without a handover (killed before SessionEnd)", async (t) => {
  const ID = "5f0c2d1e-0000-4000-8000-00000000abcd";
  /** A project, a home with its Claude Code transcript folder, and one transcript in it. */
  async function world(o: { transcriptAgoH?: number; lines?: string[] } = {}) {
    const p = await scratchProject();
    const home = await scratchDir("session-home-");
    const folder = join(home.path, ".claude", "projects", encodeProjectDir(p.root));
    await Deno.mkdir(folder, { recursive: true });
    const transcript = join(folder, `${ID}.jsonl`);
    const lines = o.lines ?? [
      JSON.stringify({
        type: "user",
        cwd: p.root,
        sessionId: ID,
        message: { role: "user", content: "Fix the flaky login test in auth.ts" },
      }),
      JSON.stringify({
        type: "assistant",
        cwd: p.root,
        message: { role: "assistant", content: [{ type: "text", text: "Looking at auth.ts." }] },
      }),
    ];
    await Deno.writeTextFile(transcript, lines.map((l) => l + "\n").join(""));
    const at = new Date(NOW.getTime() - (o.transcriptAgoH ?? 1) * 3_600_000);
    await Deno.utime(transcript, at, at);
    return {
      p,
      home: home.path,
      transcript,
      async [Symbol.asyncDispose]() {
        await home[Symbol.asyncDispose]();
        await p[Symbol.asyncDispose]();
      },
    };
  }
  const list = (w: { p: { root: string }; home: string }, args: string[] = [], env = {}) =>
    runCliInProcess(["list", ...args], { cwd: w.p.root, env: { HOME: w.home, ...env } });

  await t.step("newest transcript newer than every document, none of its session", async () => {
    await using w = await world();
    await writeDoc(w.p.store, "earlier", { created: ago(2 / 24) });
    const r = await list(w);
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      new RegExp(
        `newest session of this project \\(${ID}, last written 1 h ago\\) left no handover`,
      ),
    );
    const command = cliCommand("recover", "--session", ID);
    assert.ok(r.out.includes(`  ${command}`), r.out);
    const json = JSON.parse((await list(w, ["--json"])).out);
    assert.deepEqual(json.unsaved, {
      session: ID,
      transcript: w.transcript,
      modified: "2026-11-30T11:00:00.000Z",
      command,
    });
  });
  await t.step("an empty store says it too; --dir is carried into the command", async () => {
    await using w = await world();
    const r = await list(w, ["--dir", w.p.root]);
    assert.match(r.out, /^No stored handovers, no parked items\.\n\nThe newest session/);
    assert.ok(r.out.includes(cliCommand("recover", "--session", ID, "--dir", w.p.root)));
  });
  await t.step("the printed command drafts it; then list is quiet", async () => {
    await using w = await world();
    const first = await list(w);
    const command = first.out.split("\n").find((l) => l.startsWith("  deno run"))!.trim();
    const deno = Deno.execPath();
    const env: Record<string, string> = {
      PATH: `${deno.slice(0, deno.lastIndexOf("/"))}:/usr/bin:/bin`,
      HOME: w.home,
      SESSION_NOW: isoStamp(NOW),
      NO_COLOR: "1",
    };
    for (const name of ["DENO_DIR", "XDG_CACHE_HOME"]) {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }
    const r = await runProcess("sh", ["-c", command], { cwd: w.p.root, env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Fix the flaky login test/, "drafted from that transcript");
    const after = await list(w);
    assert.doesNotMatch(after.out, /left no handover/, after.out);
  });
  await t.step("quiet: its session has a document, or a newer document exists", async () => {
    await using w = await world();
    const path = join(w.p.store.dir, "dumped.md");
    await writeDoc(w.p.store, "dumped", { created: ago(3 / 24) });
    await Deno.writeTextFile(
      path,
      (await Deno.readTextFile(path)).replace("branch: main", `branch: main\nsession: ${ID}`),
    );
    assert.doesNotMatch((await list(w)).out, /left no handover/);
    await Deno.remove(path);
    await writeDoc(w.p.store, "newer", { created: ago(0.5 / 24) });
    assert.doesNotMatch((await list(w)).out, /left no handover/);
    const json = JSON.parse((await list(w, ["--json"])).out);
    assert.equal("unsaved" in json, false, "the key is there only when it says something");
  });
  await t.step("quiet: the running session, an empty transcript, no home", async () => {
    await using w = await world();
    assert.doesNotMatch((await list(w, [], { CLAUDE_CODE_SESSION_ID: ID })).out, /no handover/);
    await Deno.writeTextFile(w.transcript, "");
    assert.doesNotMatch((await list(w)).out, /no handover/);
    const r = await runCliInProcess(["list"], { cwd: w.p.root, env: {} });
    assert.doesNotMatch(r.out, /no handover/);
  });
  await t.step("CLAUDE_CONFIG_DIR moves the folder", async () => {
    await using w = await world();
    const config = join(w.home, "cfg");
    await Deno.rename(join(w.home, ".claude"), config);
    assert.doesNotMatch((await list(w)).out, /no handover/);
    assert.match((await list(w, [], { CLAUDE_CONFIG_DIR: config })).out, /left no handover/);
  });
  await t.step("isUnsaved: a document of that session, or created after it, covers it", () => {
    const t0 = { path: "/x", session: "s", mtimeMs: NOW.getTime() - 3_600_000, size: 9 };
    const doc = (h: number, session?: string) => ({
      ...entryOf("d", { created: isoStamp(new Date(NOW.getTime() - h * 3_600_000)) }, NOW),
      ...(session ? { session } : {}),
    });
    assert.equal(isUnsaved(undefined, [], NOW), false);
    assert.equal(isUnsaved(t0, [], NOW), true);
    assert.equal(isUnsaved(t0, [doc(2)], NOW), true);
    assert.equal(isUnsaved(t0, [doc(2, "s")], NOW), false);
    assert.equal(isUnsaved(t0, [doc(0.5)], NOW), false);
    // A document without `session:` written while the transcript was (an older dump).
    const born = { ...t0, birthtimeMs: NOW.getTime() - 4 * 3_600_000 };
    assert.equal(isUnsaved(born, [doc(2)], NOW), false);
    assert.equal(isUnsaved(born, [doc(2, "other")], NOW), true);
    assert.equal(isUnsaved(born, [doc(5)], NOW), true);
  });
});

Deno.test("list: the rendered tables, cell by cell", () => {
  const handover = {
    age: "2 h",
    ageMs: 7_200_000,
    created: null,
    stale: false,
    latest: false,
    parent: null,
  };
  const text = renderListing({
    store: "/p/.claude/state/session",
    latest: "a",
    removed: [],
    notRemoved: [],
    handovers: [
      { ...handover, slug: "a", branch: "main", consumed: false, latest: true },
      { ...handover, slug: "b", branch: "fix|pipe\r\nnext", consumed: true, stale: true },
      { ...handover, slug: "c", branch: null, consumed: null },
    ],
    parked: [
      { slug: "p", summary: "x | y\nz", raised: null, why: null, next: null, stale: true },
      { slug: "q|r", summary: "Q", raised: "2026|11", why: null, next: null, stale: false },
    ],
  }, NOW);
  assert.equal(
    text,
    [
      "Handovers (3):",
      "",
      "| Slug | Age | Branch | Consumed |",
      "| --- | --- | --- | --- |",
      "| a (LATEST) | 2 h | main | no |",
      `| ${STALE_MARK} b | 2 h | fix\\|pipe next | yes |`,
      "| c | 2 h | ? | ? |",
      "",
      "Parked items (2 open):",
      "",
      "| Slug | Raised | Summary |",
      "| --- | --- | --- |",
      `| ${STALE_MARK} p | ? | x \\| y z |`,
      "| q\\|r | 2026\\|11 | Q |",
    ].join("\n"),
  );
});

Deno.test("list: 200,000 parked items render (their lines are appended, not spread)", () => {
  const parked = Array.from({ length: 200_000 }, (_, i) => ({
    slug: `item-${i}`,
    summary: `thing ${i}`,
    raised: "2026-11-30",
    why: null,
    next: null,
    stale: false,
  }));
  const text = renderListing({
    store: "/p/.claude/state/session",
    latest: null,
    removed: [],
    notRemoved: [],
    handovers: [],
    parked,
  }, NOW);
  assert.match(text, /Parked items \(200000 open\):/);
  assert.ok(text.includes("| item-199999 | 2026-11-30 | thing 199999 |"));
});

Deno.test("list at its thresholds: stale at 14 days, expiry at 30 (both sides)", async () => {
  await using p = await scratchProject();
  const minute = 60_000 / 86_400_000;
  await writeDoc(p.store, "d14", { created: ago(14), latest: false });
  await writeDoc(p.store, "d14-plus", { created: ago(14 + minute), latest: false });
  await writeDoc(p.store, "d30", { created: ago(30), latest: false });
  await writeDoc(p.store, "d30-plus", { created: ago(30 + minute), latest: false });
  await Deno.writeTextFile(
    p.store.parked,
    "# Parked items\n\n- **p13** — Thirteen and a half. Raised: 2026-11-17.\n" +
      "- **p14** — Fourteen and a half. Raised: 2026-11-16.\n",
  );
  const r = await runCliInProcess(["list"], { cwd: p.root });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Removed 1 expired handover\(s\) \(over 30 days\): d30-plus$/m);
  assert.match(r.out, /^\| d14 \| 14 d \|/m, "exactly 14 days: not stale yet");
  assert.match(r.out, /^\| ⚠ stale d14-plus \| 14 d \|/m);
  assert.match(r.out, /^\| ⚠ stale d30 \| 30 d \|/m, "exactly 30 days: kept");
  assert.match(r.out, /^\| p13 \| 2026-11-17 \|/m);
  assert.match(r.out, /^\| ⚠ stale p14 \| 2026-11-16 \|/m);
  assert.match(r.out, /^✓ store: 3 handovers and 2 parked items found; 1 expired one removed$/m);
});

Deno.test("list's points flip between ✓ and ⚠ with the facts", async (t) => {
  await using p = await scratchProject();
  const points = async () => {
    const r = await runCliInProcess(["list", "--json"], { cwd: p.root });
    return (JSON.parse(r.out).confidence as { name: string; ok: boolean; fact: string }[])
      .map((c) => `${c.ok ? "✓" : "⚠"} ${c.name}: ${c.fact}`);
  };
  await t.step("dated documents with front matter, dated items: ✓ each", async () => {
    await writeDoc(p.store, "good", { created: ago(1) });
    await Deno.writeTextFile(
      p.store.parked,
      "# Parked items\n\n- **a** — A. Raised: 2026-11-29.\n",
    );
    assert.deepEqual(await points(), [
      "✓ store: 1 handover and 1 parked item found",
      "✓ front matter: every one parsed",
      "✓ ages: from `created` (1 handover) and `Raised:` (1 parked item)",
    ]);
  });
  await t.step("front matter: a document without one is ⚠ (and its age unknown)", async () => {
    await Deno.writeTextFile(join(p.store.dir, "bare.md"), "## Goal\n\nNo front matter.\n");
    const [, fm, ages] = await points();
    assert.equal(fm, "⚠ front matter: 1 of 2 without a readable consumed field: `bare`");
    assert.equal(ages, "⚠ ages: 1 without a valid `created` (`bare`: kept, never expired)");
  });
  await t.step("ages: a parked item without Raised: is ⚠", async () => {
    await Deno.remove(join(p.store.dir, "bare.md"));
    await Deno.writeTextFile(p.store.parked, "# Parked items\n\n- **a** — A.\n");
    assert.equal(
      (await points())[2],
      "⚠ ages: 1 parked without `Raised:` (`a`: never stale)",
    );
  });
  await t.step("store: an expired document that cannot be removed is ⚠", () => {
    const l = {
      store: p.store.dir,
      latest: null,
      removed: [],
      notRemoved: [{ slug: "old", reason: "read-only" }],
      handovers: [],
      parked: [],
    };
    const [store] = listPoints(l);
    assert.equal(store.ok, false);
    assert.match(store.fact, /1 expired one could not be removed/);
  });
});
