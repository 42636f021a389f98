import assert from "node:assert/strict";
import { readLatest } from "../../lib/store/latest.ts";
import { CLAIM_PREFIX } from "../../lib/store/lifecycle.ts";
import { join } from "../../lib/fs/path.ts";
import { BODY, NOW, scratchProject, writeDoc } from "../support/scratch.ts";
import { runCliInProcess, runCliProcess } from "../support/run.ts";
import { type RecallFacts, recallPoints } from "../../lib/cli/recall.ts";

Deno.test("recall", async (t) => {
  await t.step(
    "LATEST: banner with slug and age, body without front matter; consumed; LATEST cleared",
    async () => {
      await using p = await scratchProject();
      const before = await writeDoc(p.store, "auth", {
        created: new Date(NOW.getTime() - 2 * 3_600_000),
        crlf: true,
      });
      const r = await runCliInProcess(["recall"], { cwd: p.root });
      assert.equal(r.code, 0, r.err);
      const [printed, block] = r.out.split("\n\n## Confidence\n");
      assert.equal(
        printed,
        `[session] Handover "auth" (dumped 2 h ago, branch main)\n\n${BODY.trim()}`,
      );
      assert.match(block, /^✓ target: `auth`, named by LATEST, the only one of that name\n/);
      assert.match(block, /\n✓ doc: \d+ lines, \d+ sections, printed whole\n/);
      assert.match(block, /\n✓ consumed: marked consumed, and re-read so$/);
      assert.ok(!printed.includes("consumed:"), "no front matter printed");
      const after = await Deno.readTextFile(join(p.store.dir, "auth.md"));
      assert.equal(
        after,
        before.replace("consumed: false", "consumed: true"),
        "byte-exact, CRLF kept",
      );
      assert.equal(readLatest(p.store), undefined);
    },
  );
  await t.step("by name: LATEST kept when it names another document", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "older", { latest: false });
    await writeDoc(p.store, "newer");
    const r = await runCliInProcess(["recall", "older"], { cwd: p.root });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^\[session\] Handover "older"/);
    assert.equal(readLatest(p.store), "newer");
    assert.match(await Deno.readTextFile(join(p.store.dir, "older.md")), /consumed: true/);
    assert.match(await Deno.readTextFile(join(p.store.dir, "newer.md")), /consumed: false/);
  });
  await t.step("by name when LATEST names it: cleared", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "auth-refactor");
    assert.equal((await runCliInProcess(["recall", "Auth Refactor"], { cwd: p.root })).code, 0);
    assert.equal(readLatest(p.store), undefined);
  });
  await t.step("a consumed document still prints, says so, and stays consumed", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "done", { consumed: true, latest: false });
    const r = await runCliInProcess(["recall", "done"], { cwd: p.root });
    assert.equal(r.code, 0);
    assert.match(r.out, /recalled before/);
  });
  await t.step("a handover pulled from another machine says whose it is and when", async () => {
    await using p = await scratchProject();
    const text = await writeDoc(p.store, "pulled", { latest: false });
    const from = "ana@laptop, 2026-11-30T11:00:00Z";
    await Deno.writeTextFile(
      join(p.store.dir, "pulled.md"),
      text.replace("branch: main\n", `branch: main\nfrom: ${from}\n`),
    );
    const r = await runCliInProcess(["recall", "pulled"], { cwd: p.root });
    assert.equal(r.code, 0);
    assert.match(r.out.split("\n")[0], /branch main; from ana@laptop, 2026-11-30T11:00:00Z\)/);
  });
  await t.step("a miss: says so, lists what exists, exit 1", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "one", { latest: false });
    const named = await runCliInProcess(["recall", "nope"], { cwd: p.root });
    assert.equal(named.code, 1);
    assert.match(named.err, /No handover "nope"/);
    assert.match(named.err, /Stored handovers \(1\), newest first:\n {2}one {2}\(just now\)/);
    const latest = await runCliInProcess(["recall"], { cwd: p.root });
    assert.equal(latest.code, 1);
    assert.match(latest.err, /LATEST is empty/);
    await Deno.writeTextFile(p.store.latest, "gone\n");
    const dangling = await runCliInProcess(["recall"], { cwd: p.root });
    assert.equal(dangling.code, 1);
    assert.match(dangling.err, /LATEST names "gone", but the store has no such document/);
    await Deno.writeFile(join(p.store.dir, "bin.md"), new Uint8Array([0xff, 0xfe, 0x00, 0x80]));
    const binary = await runCliInProcess(["recall", "bin"], { cwd: p.root });
    assert.equal(binary.code, 1);
    assert.match(binary.err, /Handover "bin" exists but cannot be read/);
  });
  await t.step("an empty store: the miss says it holds nothing", async () => {
    await using p = await scratchProject({ store: false });
    const r = await runCliInProcess(["recall"], { cwd: p.root });
    assert.equal(r.code, 1);
    assert.match(r.err, /holds no handovers/);
  });
  await t.step("refusals: path-like names and unknown flags exit 2", async () => {
    await using p = await scratchProject();
    for (
      const args of [["recall", "../x"], ["recall", "a/b"], ["recall", "--json"], [
        "recall",
        "a",
        "b",
      ]]
    ) {
      assert.equal((await runCliInProcess(args, { cwd: p.root })).code, 2, args.join(" "));
    }
  });
  await t.step(
    "as a process: prints, marks consumed; a second hook-free recall still prints",
    async () => {
      await using p = await scratchProject();
      await writeDoc(p.store, "proc");
      const r = await runCliProcess(["recall"], { cwd: p.root });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Ship the restore hook/);
      const miss = await runCliProcess(["recall"], { cwd: p.root });
      assert.equal(miss.code, 1);
      assert.match(miss.stderr, /proc {2}\(just now, consumed\)/);
      assert.equal((await runCliProcess(["recall", "proc"], { cwd: p.root })).code, 0);
    },
  );
  await t.step(
    "a claim a killed hook of an earlier version left: recovered, never a consumed one",
    async () => {
      await using p = await scratchProject();
      await writeDoc(p.store, "pending", { latest: false });
      await writeDoc(p.store, "done", { latest: false, consumed: true });
      const claim = (name: string, slug: string, old: boolean) => {
        const path = join(p.store.dir, `${CLAIM_PREFIX}${name}`);
        Deno.writeTextFileSync(path, slug + "\n");
        // Long dead (epoch) or just written (a hook may still be running: left alone).
        if (old) Deno.utimeSync(path, 0, 0);
        return path;
      };
      const consumedClaim = claim("1.a", "done", true);
      const young = claim("2.b", "pending", false);
      const r = await runCliInProcess(["list"], { cwd: p.root });
      assert.equal(r.code, 0, r.err);
      assert.equal(readLatest(p.store), undefined, "a consumed pointer never comes back");
      assert.throws(() => Deno.statSync(consumedClaim), "its claim is removed");
      assert.ok(Deno.statSync(young).isFile, "a young claim is left alone");
      Deno.removeSync(young);
      claim("3.c", "pending", true);
      const recalled = await runCliInProcess(["recall"], { cwd: p.root });
      assert.equal(recalled.code, 0, recalled.err);
      assert.match(recalled.out, /^\[session\] Handover "pending"/);
      assert.equal(readLatest(p.store), undefined, "recalled: cleared again");
      const left = [...Deno.readDirSync(p.store.dir)].filter((e) =>
        e.name.startsWith(CLAIM_PREFIX)
      );
      assert.deepEqual(left, []);
    },
  );
  await t.step("a dump supersedes a stale claim: it never comes back after", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "older", { latest: false });
    const path = join(p.store.dir, `${CLAIM_PREFIX}8.y`);
    Deno.writeTextFileSync(path, "older\n");
    Deno.utimeSync(path, 0, 0);
    const d = await runCliInProcess(["dump", "newer"], {
      cwd: p.root,
      stdin: "## Goal\n\nNewer.\n",
    });
    assert.equal(d.code, 0, d.err);
    assert.equal((await runCliInProcess(["recall"], { cwd: p.root })).code, 0);
    assert.equal((await runCliInProcess(["list"], { cwd: p.root })).code, 0);
    assert.equal(readLatest(p.store), undefined, "the older pointer stays gone");
  });
  await t.step("list puts a lost pointer back from a stale claim", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "pending", { latest: false });
    const path = join(p.store.dir, `${CLAIM_PREFIX}9.z`);
    Deno.writeTextFileSync(path, "pending\n");
    Deno.utimeSync(path, 0, 0);
    assert.equal((await runCliInProcess(["list"], { cwd: p.root })).code, 0);
    assert.equal(readLatest(p.store), "pending");
  });
});

Deno.test("recall's points flip between ✓ and ⚠ with the facts", async (t) => {
  const good: RecallFacts = {
    target: { slug: "auth", via: "latest", siblings: [] },
    printed: { lines: 12, sections: 3, frontMatter: true },
    consumed: "written",
  };
  const scores = (f: RecallFacts) => recallPoints(f).map((p) => `${p.ok ? "✓" : "⚠"} ${p.name}`);
  await t.step("found by LATEST, printed whole, marked: ✓ each", () => {
    assert.deepEqual(scores(good), ["✓ target", "✓ doc", "✓ consumed"]);
    assert.deepEqual(scores({ ...good, consumed: "before" }), ["✓ target", "✓ doc", "✓ consumed"]);
  });
  await t.step("target: a later dump of the same name is ⚠, and named", () => {
    const p = recallPoints({
      ...good,
      target: { slug: "auth", via: "name", siblings: ["auth-2"] },
    });
    assert.equal(p[0].ok, false);
    assert.equal(p[0].fact, "`auth` by its name; the store also holds `auth-2`");
    assert.equal(p[0].fix, "recall `auth-2` if that is the one you meant");
  });
  await t.step("doc: no front matter is ⚠", () => {
    const p = recallPoints({ ...good, printed: { lines: 3, sections: 0, frontMatter: false } });
    assert.equal(p[1].ok, false);
  });
  await t.step("consumed: replaced meanwhile, no field, or not read back: ⚠", () => {
    for (const consumed of ["replaced", "unmarked", "unread"] as const) {
      assert.equal(recallPoints({ ...good, consumed })[2].ok, false, consumed);
    }
  });
  await t.step("a miss: ⚠ each", () => {
    assert.deepEqual(scores({}), ["⚠ target", "⚠ doc", "⚠ consumed"]);
  });
  await t.step("through the CLI: siblings found; a document without front matter", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "auth", { latest: false });
    await writeDoc(p.store, "auth-2", { latest: false });
    await writeDoc(p.store, "auth-x", { latest: false });
    const r = await runCliInProcess(["recall", "auth"], { cwd: p.root });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /\n⚠ target: `auth` by its name; the store also holds `auth-2` → /);
    await Deno.writeTextFile(join(p.store.dir, "bare.md"), "## Goal\n\nNo front matter.\n");
    const bare = await runCliInProcess(["recall", "bare"], { cwd: p.root });
    assert.match(bare.out, /\n⚠ doc: no front matter: printed whole as stored \(3 lines\)\n/);
    assert.match(bare.out, /\n⚠ consumed: no consumed field to flip; the document is unchanged$/);
    const miss = await runCliInProcess(["recall", "nope"], { cwd: p.root });
    assert.equal(miss.code, 1);
    assert.match(miss.out, /^⚠ target: nothing found to recall/m);
  });
});
