import assert from "node:assert/strict";
import { git } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";
import { splitFrontMatter } from "../../lib/store/front_matter.ts";
import { slugs, STORE, world } from "./_world.ts";

const park = (cwd: string, text: string) => runCliInProcess(["park", text], { cwd });
const run = (cwd: string, ...args: string[]) => runCliInProcess(args, { cwd });
async function dump(cwd: string, name: string, goal: string) {
  const r = await runCliInProcess(["dump", name], {
    cwd,
    stdin: `## Goal\n${goal}\n\n## Next step\nGo on.\n`,
  });
  assert.equal(r.code, 0, r.err);
}
function docs(cwd: string): string[] {
  const out: string[] = [];
  try {
    for (const e of Deno.readDirSync(`${cwd}/${STORE}`)) {
      if (e.isFile && e.name.endsWith(".md") && e.name !== "PARKED.md") {
        out.push(e.name.slice(0, -3));
      }
    }
  } catch { /* none */ }
  return out.sort();
}
/** Everything git keeps of the work tree, index, HEAD and branches. */
async function gitState(cwd: string): Promise<string> {
  const gitDir = `${cwd}/.git`;
  const index = await Deno.readFile(`${gitDir}/index`).catch(() => new Uint8Array());
  return [
    await git(cwd, ["status", "--porcelain", "--ignored=no"]),
    await Deno.readTextFile(`${gitDir}/HEAD`),
    await git(cwd, ["for-each-ref", "refs/heads", "refs/tags", "refs/remotes"]),
    await git(cwd, ["branch", "-a"]),
    Array.from(index).join(","),
    await Deno.readTextFile(`${cwd}/code.ts`),
    await Deno.readTextFile(`${gitDir}/config`),
  ].join("\n--\n");
}
function storeBytes(cwd: string): string {
  const out: string[] = [];
  try {
    for (
      const e of [...Deno.readDirSync(`${cwd}/${STORE}`)].sort((a, b) => a.name < b.name ? -1 : 1)
    ) {
      if (e.isFile && !e.name.startsWith(".")) {
        out.push(e.name, Deno.readTextFileSync(`${cwd}/${STORE}/${e.name}`));
      }
    }
  } catch { /* no store */ }
  return out.join("\n");
}

Deno.test("two clones: parks, a drop and a handover travel both ways; git untouched", async () => {
  const w = await world(2);
  const [a, b] = w.clones;
  try {
    await park(a, "Retry the flaky upload test");
    await park(a, "Document the install on Windows");
    await dump(a, "auth-refactor", "Refactor auth.");
    const before = [await gitState(a), await gitState(b)];
    const pushed = await run(a, "push");
    assert.equal(pushed.code, 0, pushed.err);
    assert.match(
      pushed.out,
      /Pushed to "origin" \(refs\/session\/store, [0-9a-f]{12}\): 1 new handover/,
    );
    const pulled = await run(b, "pull");
    assert.equal(pulled.code, 0, pulled.err);
    assert.match(pulled.out, /From "origin": 1 handover, 2 parked items added\./);
    assert.deepEqual(slugs(b), slugs(a));
    assert.deepEqual(docs(b), ["auth-refactor"]);
    const doc = Deno.readTextFileSync(`${b}/${STORE}/auth-refactor.md`);
    assert.match(splitFrontMatter(doc)!.fields.from, /^u0@.+, 2026-11-30T12:00:00Z$/);
    assert.match(doc, /Refactor auth\./);
    // The front matter with `from` is ours: list reads its date, recall shows the body.
    const listed = await run(b, "list", "--json");
    assert.match(listed.out, /"slug": "auth-refactor"[\s\S]*"created": "2026-11-30T12:00:00Z"/);
    const recalled = await run(b, "recall", "auth-refactor");
    assert.equal(recalled.code, 0, recalled.err);
    assert.match(recalled.out, /Refactor auth\./);
    assert.doesNotMatch(recalled.out, /^from:/m);
    // No LATEST travels: the next /clear on b restores nothing of a's.
    assert.equal(await Deno.stat(`${b}/${STORE}/LATEST`).then(() => true, () => false), false);

    assert.equal((await runCliInProcess(["drop", "flaky upload"], { cwd: b })).code, 0);
    await park(b, "Ship the release notes");
    assert.equal((await run(b, "push")).code, 0);
    const back = await run(a, "pull");
    assert.equal(back.code, 0, back.err);
    assert.deepEqual(slugs(a), slugs(b));
    assert.ok(!slugs(a).some((s) => s.includes("upload")));
    assert.ok(Deno.readTextFileSync(`${a}/${STORE}/dropped.jsonl`).includes("flaky upload"));
    // Again: nothing to do, nothing renamed, nothing duplicated.
    const again = await run(a, "pull");
    assert.match(again.out, /Up to date with "origin"\./);
    const none = await run(a, "push");
    assert.match(none.out, /already holds this store|Pushed/);
    assert.deepEqual(docs(a), ["auth-refactor"]);

    assert.equal(await gitState(a), before[0]);
    assert.equal(await gitState(b), before[1]);
    assert.equal(await git(a, ["branch", "--list"]), "* main\n");
    // The ref is a commit whose tree holds exactly the store's shared files.
    const tree = await git(w.remote, ["ls-tree", "-r", "--name-only", "refs/session/store"]);
    assert.deepEqual(tree.trim().split("\n").sort(), [
      "PARKED.md",
      "dropped.jsonl",
      "handovers/auth-refactor.md",
    ]);
  } finally {
    await w.cleanup();
  }
});

Deno.test("a consumed handover is the same handover: no duplicate after recall and push", async () => {
  const w = await world(2);
  const [a, b] = w.clones;
  try {
    await dump(a, "plan", "Plan.");
    await run(a, "push");
    await run(b, "pull");
    assert.equal((await run(a, "recall", "plan")).code, 0);
    assert.equal((await run(b, "recall", "plan")).code, 0);
    await run(a, "push");
    await run(b, "push");
    await run(a, "pull");
    assert.deepEqual(docs(a), ["plan"]);
    assert.deepEqual(docs(b), ["plan"]);
    const tree = await git(w.remote, ["ls-tree", "--name-only", "refs/session/store:handovers"]);
    assert.equal(tree.trim(), "plan.md");
  } finally {
    await w.cleanup();
  }
});

Deno.test("slug collision: both kept, the incoming one renamed and said so", async () => {
  const w = await world(2);
  const [a, b] = w.clones;
  try {
    await dump(a, "fix", "A's fix.");
    await dump(b, "fix", "B's fix.");
    assert.equal((await run(a, "push")).code, 0);
    const pushed = await run(b, "push");
    assert.equal(pushed.code, 0, pushed.err);
    assert.match(pushed.out, /fix is "fix-from-u1-[^"]+" there/);
    assert.match(pushed.out, /fix came in as fix-from-u0-/);
    const pulled = await run(a, "pull");
    assert.match(pulled.out, /From "origin": 1 handover\./);
    assert.ok(docs(a).some((d) => d.startsWith("fix-from-u1-")), docs(a).join());
    assert.equal(docs(a).length, 2);
    assert.equal(docs(b).length, 2);
    assert.match(Deno.readTextFileSync(`${a}/${STORE}/fix.md`), /A's fix/);
    assert.match(Deno.readTextFileSync(`${b}/${STORE}/fix.md`), /B's fix/);
    // Stable: more syncs add nothing.
    for (const c of [a, b, a, b]) await run(c, "push"), await run(c, "pull");
    assert.equal(docs(a).length, 2);
    assert.equal(docs(b).length, 2);
    const tree = await git(w.remote, ["ls-tree", "--name-only", "refs/session/store:handovers"]);
    assert.equal(tree.trim().split("\n").length, 2);
  } finally {
    await w.cleanup();
  }
});

Deno.test("three clones parking and pushing at once: every item everywhere after pulls", async () => {
  const w = await world(3);
  try {
    await Promise.all(w.clones.map(async (c, i) => {
      for (let k = 0; k < 4; k++) {
        await park(c, `Item ${k} of clone ${i}`);
        const r = await run(c, "push");
        assert.equal(r.code, 0, r.err);
      }
    }));
    for (const c of w.clones) assert.equal((await run(c, "pull")).code, 0);
    const want = slugs(w.clones[0]);
    assert.equal(want.length, 12);
    for (const c of w.clones) assert.deepEqual(slugs(c), want);
  } finally {
    await w.cleanup();
  }
});

Deno.test("edited on both sides: the newer edit kept, the other logged as superseded", async () => {
  const w = await world(2);
  const [a, b] = w.clones;
  try {
    await runCliInProcess(["park", "Upload retries", "--why", "flaky"], { cwd: a });
    await run(a, "push");
    await run(b, "pull");
    await runCliInProcess(["park", "Upload retries", "--why", "from a"], { cwd: a });
    await run(a, "push");
    // b edits later (its PARKED.md is newer than a's push), then syncs.
    await new Promise((r) => setTimeout(r, 20));
    await runCliInProcess(["park", "Upload retries", "--why", "from b"], { cwd: b });
    const r = await run(b, "pull");
    assert.match(r.out, /upload-retries was edited on both sides/);
    const parked = Deno.readTextFileSync(`${b}/${STORE}/PARKED.md`);
    assert.match(parked, /Why: from b\./);
    assert.match(Deno.readTextFileSync(`${b}/${STORE}/dropped.jsonl`), /"superseded".*from a/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("no remote, an unreachable one, a refused push: exit 1; a --remote not configured: exit 2; store as it was", async () => {
  const w = await world(1, { remote: false });
  const [a] = w.clones;
  try {
    await park(a, "Keep me");
    const before = storeBytes(a);
    for (const mode of ["push", "pull"]) {
      const r = await run(a, mode);
      assert.equal(r.code, 1);
      assert.match(r.err, /no remote to carry the store.*git remote add origin URL/);
    }
    // A --remote that is not configured is a usage error (exit 2) naming the fix, both modes.
    for (const mode of ["push", "pull"]) {
      const named = await run(a, mode, "--remote", "nope");
      assert.equal(named.code, 2, named.err);
      assert.match(
        named.err,
        /no git remote named "nope" \(remotes: none\).*git remote add nope URL/,
      );
      assert.equal(storeBytes(a), before);
    }

    await git(a, ["remote", "add", "origin", `${w.tmp}/does/not/exist`]);
    for (const mode of ["push", "pull"]) {
      const r = await run(a, mode);
      assert.equal(r.code, 1);
      assert.match(r.err, /could not reach the remote "origin".*nothing was changed/);
    }

    const refusing = `${w.tmp}/refusing.git`;
    await git(w.tmp, ["init", "-q", "--bare", refusing]);
    await Deno.writeTextFile(`${refusing}/hooks/pre-receive`, "#!/bin/sh\necho no >&2\nexit 1\n");
    await Deno.chmod(`${refusing}/hooks/pre-receive`, 0o755);
    await git(a, ["remote", "add", "strict", refusing]);
    const refused = await run(a, "push", "--remote", "strict");
    assert.equal(refused.code, 1);
    assert.match(refused.err, /refused the push.*pre-receive hook declined.*store is unchanged/);
    assert.equal(storeBytes(a), before);

    const plain = await Deno.realPath(await Deno.makeTempDir());
    await Deno.mkdir(`${plain}/${STORE}`, { recursive: true });
    const outside = await runCliInProcess(["push"], { cwd: plain });
    assert.equal(outside.code, 1);
    assert.match(outside.err, /not in a git repository/);
    await Deno.remove(plain, { recursive: true });
  } finally {
    await w.cleanup();
  }
});

Deno.test("a ref rewritten by hand: nothing lost, the next push goes on from it", async () => {
  const w = await world(2);
  const [a, b] = w.clones;
  try {
    await park(a, "First item");
    await run(a, "push");
    await run(b, "pull");
    await park(a, "Second item");
    // Someone points the ref at the project's own commit (a tree of code, not a store).
    const main = (await git(w.remote, ["rev-parse", "main"])).trim();
    await git(w.remote, ["update-ref", "refs/session/store", main]);
    const pulled = await run(a, "pull");
    assert.equal(pulled.code, 0, pulled.err);
    assert.equal(slugs(a).length, 2);
    const pushed = await run(a, "push");
    assert.equal(pushed.code, 0, pushed.err);
    assert.equal((await run(b, "pull")).code, 0);
    assert.deepEqual(slugs(b), slugs(a));
    // A ref that names no commit at all: refused, clearly.
    const blob = (await git(w.remote, ["hash-object", "-w", "--stdin"])).trim();
    await git(w.remote, ["update-ref", "refs/session/store", blob]);
    const bad = await run(a, "pull");
    assert.equal(bad.code, 1);
    assert.match(bad.err, /does not name a commit/);
    assert.equal(slugs(a).length, 2);
  } finally {
    await w.cleanup();
  }
});

Deno.test("a push the remote took whose store write fails: says so; the next pull finishes", async () => {
  const w = await world(2);
  const [a, b] = w.clones;
  try {
    await park(a, "From a");
    assert.equal((await run(a, "push")).code, 0);
    await park(b, "From b");
    const before = storeBytes(b);
    // The disk fills as b brings a's item in, after the remote took b's push.
    const r = await runCliInProcess(["push"], { cwd: b, env: { SESSION_FAULT: "short-write" } });
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /pushed to "origin" \([0-9a-f]{12}\), but bringing its items into this store failed \(.*No space left.*run "session\.ts pull"/,
    );
    assert.equal(storeBytes(b), before);
    const tree = await git(w.remote, ["show", "refs/session/store:PARKED.md"]);
    assert.match(tree, /from-a/);
    assert.match(tree, /from-b/);
    // The base stayed where the store is, so the next pull merges rather than skips.
    const pulled = await run(b, "pull");
    assert.equal(pulled.code, 0, pulled.err);
    assert.deepEqual(slugs(b), ["from-a", "from-b"]);
    const tip = (await git(w.remote, ["rev-parse", "refs/session/store"])).trim();
    assert.equal((await git(b, ["rev-parse", "refs/session/synced/origin"])).trim(), tip);
  } finally {
    await w.cleanup();
  }
});

Deno.test("a handover's parent: travels with it through push and pull", async () => {
  const w = await world(2);
  const [a, b] = w.clones;
  try {
    const env = { CLAUDE_CODE_SESSION_ID: "33333333-3333-4333-8333-333333333333" };
    await dump(a, "first", "Start the task.");
    assert.equal((await runCliInProcess(["recall", "first"], { cwd: a, env })).code, 0);
    const second = await runCliInProcess(["dump", "second"], {
      cwd: a,
      env,
      stdin: "## Goal\nGo on with the task.\n",
    });
    assert.equal(second.code, 0, second.err);
    const written = Deno.readTextFileSync(`${a}/${STORE}/second.md`);
    assert.equal(splitFrontMatter(written)!.fields.parent, "first");
    assert.equal((await run(a, "push")).code, 0);
    assert.equal((await run(b, "pull")).code, 0);
    const pulled = Deno.readTextFileSync(`${b}/${STORE}/second.md`);
    assert.equal(splitFrontMatter(pulled)!.fields.parent, "first");
    // Byte for byte but the `from:` line pull adds.
    assert.equal(pulled.replace(/^from: .*\n/m, ""), written);
  } finally {
    await w.cleanup();
  }
});
