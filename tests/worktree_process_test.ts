/**
 * Worktrees as processes, in scratch repositories with real `git worktree add`: one store per
 * repository (written from any worktree, surviving the worktree's removal), the restore scoped to
 * the worktree it was written in, a stranded store adopted, a sandboxed dump, SessionEnd after
 * Claude Code removed the worktree, push from a worktree and pull into a clone.
 */
import assert from "node:assert/strict";
import { join } from "../lib/fs/path.ts";
import { splitFrontMatter } from "../lib/store/front_matter.ts";
import { readLatest } from "../lib/store/latest.ts";
import { STORE_REL, storeAt } from "../lib/store/store.ts";
import { isoStamp } from "../lib/store/time.ts";
import { clearPayload, contextOf, runCliProcess, runHookProcess } from "./support/run.ts";
import { git, NOW, scratchDir } from "./support/scratch.ts";
import { addWorktree, scratchRepo } from "./support/worktree.ts";
import * as fx from "./continuity/_fixture.ts";

const BODY = "## Goal\n\nShip the worktree fix.\n\n## Next step\n\nRun the tests.\n";

function docs(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name)
      .filter((n) => n.endsWith(".md") && !n.startsWith(".") && n !== "PARKED.md").sort();
  } catch {
    return [];
  }
}

/** A handover's text with the pinned `created`. */
function docText(slug: string, body: string, consumed = "false"): string {
  return `---\nslug: ${slug}\ncreated: ${
    isoStamp(NOW)
  }\nconsumed: ${consumed}\nbranch: x\n---\n\n${body}\n`;
}

/** A store older versions left inside the worktree at `top`, holding the handover `slug`. */
async function strandedIn(top: string, slug: string, consumed = "false") {
  const store = storeAt(top);
  await Deno.mkdir(store.dir, { recursive: true });
  await Deno.writeTextFile(join(store.dir, `${slug}.md`), docText(slug, `${slug}.`, consumed));
  return store;
}

async function ok(args: string[], cwd: string, stdin?: string, env?: Record<string, string>) {
  const r = await runCliProcess(args, { cwd, stdin, env });
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
  return r;
}

Deno.test("worktree: dump and park land in the repository's store and outlive the worktree", async (t) => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
  const side = await addWorktree(r.main, "../side", "side");
  const main = storeAt(r.main);
  await t.step("dump in .claude/worktrees/feat, park in a subdirectory of a sibling", async () => {
    await ok(["dump", "feat-h"], feat, BODY);
    await Deno.mkdir(join(side, "src"));
    await ok(["park", "remember the flaky test"], join(side, "src"));
    assert.deepEqual(docs(main.dir), ["feat-h.md"]);
    assert.match(await Deno.readTextFile(main.parked), /remember-flaky-test/);
    assert.equal(docs(join(feat, STORE_REL)).length, 0, "nothing inside the worktree");
    const fields = splitFrontMatter(await Deno.readTextFile(join(main.dir, "feat-h.md")))!.fields;
    assert.equal(fields.worktree, ".claude/worktrees/feat");
    assert.equal(fields.branch, "worktree-feat");
  });
  await t.step("removing both worktrees loses nothing; list and recall from main", async () => {
    await git(r.main, ["worktree", "remove", "--force", feat]);
    await git(r.main, ["worktree", "remove", "--force", side]);
    const list = await ok(["list"], r.main);
    assert.match(list.stdout, /feat-h/);
    assert.match(list.stdout, /remember-flaky-test/);
    assert.match(list.stdout, /Worktree/, "a handover from a worktree shows the column");
    assert.match((await ok(["recall", "feat-h"], r.main)).stdout, /Ship the worktree fix/);
  });
});

Deno.test("worktree: /clear restores a handover only in its own worktree, once", async () => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
  await ok(["dump", "in-feat"], feat, BODY);
  const fromMain = await runHookProcess(clearPayload(r.main), {
    env: { CLAUDE_PROJECT_DIR: r.main, SESSION_DEBUG: "1" },
  });
  assert.equal(contextOf(fromMain), undefined);
  assert.match(fromMain.stderr, /written in worktree \.claude\/worktrees\/feat/);
  const inFeat = await runHookProcess(clearPayload(feat), { env: { CLAUDE_PROJECT_DIR: feat } });
  assert.match(contextOf(inFeat) ?? "", /Ship the worktree fix/);
  const again = await runHookProcess(clearPayload(feat), { env: { CLAUDE_PROJECT_DIR: feat } });
  assert.equal(contextOf(again), undefined, "exactly once");
});

Deno.test("worktree: a stranded store is adopted — nothing lost or doubled, drops win", async (t) => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
  const main = storeAt(r.main);
  const old = storeAt(feat);
  await Deno.mkdir(main.dir, { recursive: true });
  await Deno.mkdir(old.dir, { recursive: true });
  await Deno.writeTextFile(join(main.dir, "same.md"), docText("same", "one text"));
  await Deno.writeTextFile(join(old.dir, "same.md"), docText("same", "one text"));
  await Deno.writeTextFile(join(main.dir, "clash.md"), docText("clash", "main's"));
  await Deno.writeTextFile(join(old.dir, "clash.md"), docText("clash", "the worktree's"));
  await Deno.writeTextFile(join(old.dir, "only-here.md"), docText("only-here", "only here"));
  await Deno.writeTextFile(old.latest, "only-here\n");
  const item = (slug: string) => `- **${slug}** — ${slug} text. Raised: 2026-11-29.`;
  await Deno.writeTextFile(
    main.parked,
    `# Parked items\n\n${item("kept")}\n${item("dropped-there")}\n`,
  );
  await Deno.writeTextFile(
    old.parked,
    `# Parked items\n\n${item("kept")}\n${item("new-there")}\n${item("dropped-here")}\n`,
  );
  const drop = (slug: string) =>
    JSON.stringify({ ts: "2026-11-29T00:00:00Z", item: slug, action: "dropped", text: item(slug) });
  await Deno.writeTextFile(main.dropped, drop("dropped-here") + "\n");
  await Deno.writeTextFile(old.dropped, drop("dropped-there") + "\n");

  await t.step("the next command in the worktree moves it, in one line", async () => {
    const run = await ok(["list"], feat);
    assert.match(run.stderr, /moved the store left in this worktree/);
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
  });
  await t.step("a union by slug: the same once, a clash renamed, LATEST followed", async () => {
    assert.deepEqual(docs(main.dir), [
      "clash-from-claude-worktrees-feat.md",
      "clash.md",
      "only-here.md",
      "same.md",
    ]);
    assert.match(await Deno.readTextFile(join(main.dir, "clash.md")), /main's/);
    assert.equal(readLatest(main), "only-here");
  });
  await t.step("parked items merged: a drop on either side wins; the logs' union", async () => {
    const parked = await Deno.readTextFile(main.parked);
    assert.equal(parked.match(/\*\*kept\*\*/g)?.length, 1);
    assert.match(parked, /new-there/);
    assert.doesNotMatch(parked, /dropped-there|dropped-here/);
    const log = await Deno.readTextFile(main.dropped);
    assert.match(log, /dropped-here/);
    assert.match(log, /dropped-there/);
  });
  await t.step("the worktree's store is gone; a second run does nothing", async () => {
    assert.equal(docs(old.dir).length, 0);
    assert.throws(() => Deno.statSync(old.dir));
    const again = await ok(["list"], feat);
    assert.doesNotMatch(again.stderr, /moved/);
  });
});

Deno.test("worktree: a sandboxed dump writes the worktree's store; the next hook moves it", async () => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
  const main = storeAt(r.main);
  await Deno.mkdir(main.dir, { recursive: true });
  // The sandbox: writes confined to the worktree (Deno's grant leaves the repository's store out).
  const sandbox = ["--allow-read", `--allow-write=${feat}`, "--allow-env", "--allow-run=git"];
  const dumped = await runCliProcess(["dump", "boxed"], { cwd: feat, stdin: BODY, flags: sandbox });
  assert.equal(dumped.code, 0, dumped.stderr);
  const said = dumped.stderr.split("\n").filter((l) => /cannot be written here/.test(l));
  assert.equal(said.length, 1, dumped.stderr);
  assert.deepEqual(docs(join(feat, STORE_REL)), ["boxed.md"]);
  assert.deepEqual(docs(main.dir), []);
  const parked = await runCliProcess(["park", "boxed item"], { cwd: feat, flags: sandbox });
  assert.equal(parked.code, 0, parked.stderr);
  assert.match(parked.stderr, /cannot be written here/);
  // The hook is not sandboxed: the /clear after it moves the store, then restores the handover.
  const hook = await runHookProcess(clearPayload(feat), { env: { CLAUDE_PROJECT_DIR: feat } });
  assert.match(contextOf(hook) ?? "", /Ship the worktree fix/);
  assert.deepEqual(docs(main.dir), ["boxed.md"]);
  assert.match(await Deno.readTextFile(main.parked), /boxed-item/);
  assert.throws(() => Deno.statSync(join(feat, STORE_REL)));
});

/**
 * A session that worked in the worktree `path` (branch `branch`, in its transcript), the worktree
 * removed, then its SessionEnd as Claude Code sends it: `cwd` the main checkout,
 * `CLAUDE_PROJECT_DIR` the removed path. Returns the draft's front matter.
 */
async function endAfterRemoval(path: string, branch: string): Promise<Record<string, string>> {
  await using r = await scratchRepo();
  await using home = await scratchDir();
  const top = await addWorktree(r.main, path, branch);
  const t = join(home.path, "t.jsonl");
  await Deno.writeTextFile(
    t,
    fx.timedTranscript(top, [{ at: fx.minutesAgo(5), steps: fx.workSteps() }])
      .replaceAll('"sessionId"', `"gitBranch":"${branch}","sessionId"`),
  );
  await git(r.main, ["worktree", "remove", "--force", top]);
  const end = await runHookProcess(JSON.stringify(fx.endPayload(r.main, t, { reason: "exit" })), {
    env: { CLAUDE_PROJECT_DIR: top, SESSION_DEBUG: "1" },
  });
  assert.match(end.stderr, /drafted/, end.stderr);
  assert.throws(() => Deno.statSync(top), "nothing written at the removed path");
  const main = storeAt(r.main);
  const [name] = docs(main.dir);
  assert.ok(name.startsWith(`${branch}-`) && name.endsWith("-draft.md"), name);
  return splitFrontMatter(await Deno.readTextFile(join(main.dir, name)))!.fields;
}

Deno.test("worktree: SessionEnd after Claude Code removed the worktree drafts into the repository", async () => {
  const fields = await endAfterRemoval(".claude/worktrees/feat", "worktree-feat");
  assert.equal(fields.branch, "worktree-feat", "the worktree's branch, never main");
  assert.equal(fields.worktree, ".claude/worktrees/feat");
});

Deno.test("worktree: SessionEnd after a sibling worktree was removed drafts into the repository", async () => {
  const fields = await endAfterRemoval("../side", "side");
  assert.equal(fields.branch, "side");
  assert.match(fields.worktree, /^\/.*\/side$/, "absolute: outside the main worktree");
});

Deno.test("worktree: push from a worktree, pull into a clone", async () => {
  await using r = await scratchRepo();
  const remote = join(r.base, "remote.git");
  await git(r.base, ["init", "-q", "--bare", remote]);
  await git(r.main, ["remote", "add", "origin", remote]);
  const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
  await ok(["dump", "pushed"], feat, BODY);
  await ok(["park", "carried item"], feat);
  assert.deepEqual(docs(storeAt(r.main).dir), ["pushed.md"], "the repository's store");
  await ok(["push"], feat);
  const clone = join(r.base, "clone");
  await git(r.base, ["clone", "-q", remote, clone]);
  await ok(["pull"], clone);
  assert.deepEqual(docs(storeAt(clone).dir), ["pushed.md"]);
  assert.match(await Deno.readTextFile(storeAt(clone).parked), /carried-item/);
});

Deno.test("worktree: doctor in the main checkout moves the stores of every worktree", async () => {
  await using r = await scratchRepo();
  const side = await addWorktree(r.main, "../side", "side");
  const old = await strandedIn(side, "left", "true");
  await Deno.writeTextFile(old.latest, "left\n");
  const doctor = await runCliProcess(["doctor"], { cwd: r.main });
  assert.match(doctor.stdout, /moved the store left in this worktree \(.*side/, doctor.stdout);
  assert.deepEqual(docs(storeAt(r.main).dir), ["left.md"]);
  assert.throws(() => Deno.statSync(old.dir));
  assert.equal(readLatest(storeAt(r.main)), undefined, "a consumed handover is not pending again");
});

Deno.test("worktree: a stranded store holding a file of the user's is merged but kept", async () => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
  const old = await strandedIn(feat, "kept");
  await Deno.writeTextFile(join(old.dir, "notes.txt"), "mine\n");
  const run = await ok(["list"], feat);
  assert.match(run.stderr, /merged .* it stays, since it also holds notes\.txt/, run.stderr);
  assert.deepEqual(docs(storeAt(r.main).dir), ["kept.md"]);
  assert.equal(await Deno.readTextFile(join(old.dir, "notes.txt")), "mine\n");
});

Deno.test("worktree: a link in a stranded store is never followed into the repository's", async () => {
  await using r = await scratchRepo();
  await using outside = await scratchDir();
  const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
  const old = await strandedIn(feat, "fine");
  await Deno.writeTextFile(join(outside.path, "secret.md"), docText("secret", "SECRET-OUTSIDE"));
  await Deno.symlink(join(outside.path, "secret.md"), join(old.dir, "lure.md"));
  await Deno.writeTextFile(
    join(outside.path, "PARKED.md"),
    "# Parked items\n\n- **secret-item** — x.\n",
  );
  await Deno.symlink(join(outside.path, "PARKED.md"), old.parked);
  const run = await ok(["list"], feat);
  assert.match(
    run.stderr,
    /it stays, since it also holds (lure\.md, PARKED\.md|PARKED\.md, lure\.md)/,
    run.stderr,
  );
  assert.doesNotMatch(await Deno.readTextFile(storeAt(r.main).parked).catch(() => ""), /secret/);
  assert.deepEqual(docs(storeAt(r.main).dir), ["fine.md"]);
});
