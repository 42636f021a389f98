import assert from "node:assert/strict";
import {
  type Commit,
  commitsSince,
  type GitFacts,
  gitFacts,
  narrowFacts,
  numstatRecord,
  parseLog,
  parseNumstatZ,
} from "../../../lib/handover/evidence/git.ts";
import { prng } from "../../support/prng.ts";
import { git, NOW, put, scratchProject } from "../../support/scratch.ts";
import { filesFromGit } from "../../../lib/handover/evidence/merge.ts";

const SINCE = new Date(NOW.getTime() - 8 * 3_600_000);

Deno.test("git parsers", async (t) => {
  await t.step("numstat -z: counts, binary, odd names; garbage skipped", () => {
    const text = "3\t1\ta b.ts\0-\t-\timg.png\0" + "12\t0\tdir/ü.md\0junk\0";
    assert.deepEqual(parseNumstatZ(text), [
      { path: "a b.ts", added: 3, deleted: 1, binary: false },
      { path: "img.png", added: 0, deleted: 0, binary: true },
      { path: "dir/ü.md", added: 12, deleted: 0, binary: false },
    ]);
    assert.deepEqual(parseNumstatZ(""), []);
  });
  await t.step("log -z: commits with files; a subject may hold any text", () => {
    const text = "\x1eabc1234\x1f2026-11-30T10:00:00Z\x1ffix: a\x1fb\0\n2\t1\tx.ts\0-\t-\ty.bin\0" +
      "\x1edef5678\x1f2026-11-30T09:00:00Z\x1fempty\0";
    assert.deepEqual(parseLog(text), [
      {
        hash: "abc1234",
        date: "2026-11-30T10:00:00Z",
        subject: "fix: a\x1fb",
        files: [
          { path: "x.ts", added: 2, deleted: 1, binary: false },
          { path: "y.bin", added: 0, deleted: 0, binary: true },
        ],
      },
      { hash: "def5678", date: "2026-11-30T09:00:00Z", subject: "empty", files: [] },
    ]);
    assert.deepEqual(parseLog("garbage\n\x1e\n"), []);
  });
});

/** What gitFacts says outside a repository. */
const OUTSIDE: GitFacts = {
  branch: "none",
  hasHead: false,
  changes: [],
  untracked: [],
  commits: [],
};

Deno.test("git facts", async (t) => {
  await t.step("outside git: none, nothing else, no throw", async () => {
    await using p = await scratchProject({ git: false, store: false });
    assert.deepEqual(await gitFacts(p.root, SINCE), OUTSIDE);
  });
  await t.step("a repo with no commits: branch, staged files against the empty tree", async () => {
    await using p = await scratchProject({ git: "repo", branch: "feat/x", store: false });
    await put(p.root, "a.ts", "1\n2\n");
    await put(p.root, "b.ts", "x\n");
    await git(p.root, ["add", "a.ts"]);
    const f = await gitFacts(p.root, SINCE);
    assert.equal(f.branch, "feat/x");
    assert.equal(f.hasHead, false);
    assert.deepEqual(f.changes, [{ path: "a.ts", added: 2, deleted: 0, binary: false }]);
    assert.deepEqual(f.untracked, ["b.ts"]);
    assert.deepEqual(f.commits, []);
  });
  await t.step("commits since --since only, newest first, with files; diff vs HEAD", async () => {
    await using p = await scratchProject({ git: "repo", store: false });
    await put(p.root, "old.ts", "old\n");
    await git(p.root, ["add", "."]);
    await git(p.root, ["commit", "-qm", "before the session"], new Date(SINCE.getTime() - 1e6));
    await put(p.root, "new.ts", "a\nb\n");
    await git(p.root, ["add", "."]);
    await git(p.root, ["commit", "-qm", "in the session"], new Date(NOW.getTime() - 7_200_000));
    await put(p.root, "old.ts", "changed\nmore\n");
    await put(p.root, "sub/untracked.md", "u\n");
    const f = await gitFacts(p.root, SINCE);
    assert.equal(f.branch, "main");
    assert.deepEqual(f.changes, [{ path: "old.ts", added: 2, deleted: 1, binary: false }]);
    assert.deepEqual(f.untracked, ["sub/untracked.md"]);
    assert.equal(f.commits.length, 1);
    assert.equal(f.commits[0].subject, "in the session");
    assert.deepEqual(f.commits[0].files, [
      { path: "new.ts", added: 2, deleted: 0, binary: false },
    ]);
  });
  await t.step("detached HEAD reads as detached", async () => {
    await using p = await scratchProject({ git: "repo", store: false });
    await put(p.root, "a", "a\n");
    await git(p.root, ["add", "."]);
    await git(p.root, ["commit", "-qm", "a"]);
    await git(p.root, ["checkout", "-q", "--detach"]);
    assert.equal((await gitFacts(p.root, SINCE)).branch, "detached");
  });
  // gitFacts asks its questions at the `.git` walk's top-level while git names its own: these
  // are the cases where the two differ, or differ only in spelling.
  const changed = async (root: string) => {
    await put(root, "a.ts", "a\n");
    await git(root, ["add", "."]);
    await git(root, ["commit", "-qm", "a"]);
    await put(root, "a.ts", "a\nb\n");
    await put(root, "top.md", "t\n");
    await put(root, "sub/inner.md", "i\n");
  };
  const expected = {
    branch: "main",
    hasHead: true,
    changes: [{ path: "a.ts", added: 1, deleted: 0, binary: false }],
    untracked: ["sub/inner.md", "top.md"],
  };
  await t.step(
    "from a subdirectory reached through a symlink: git's top-level, same facts",
    async () => {
      await using p = await scratchProject({ git: "repo", store: false });
      await changed(p.root);
      const link = `${p.root}-link`;
      await Deno.symlink(p.root, link);
      try {
        const f = await gitFacts(`${link}/sub`, SINCE);
        assert.equal(f.top, Deno.realPathSync(p.root));
        const { branch, hasHead, changes, untracked } = f;
        assert.deepEqual({ branch, hasHead, changes, untracked }, expected);
      } finally {
        await Deno.remove(link);
      }
    },
  );
  await t.step("a `.git` git does not take, below the top-level: git's answer rules", async () => {
    await using p = await scratchProject({ git: "repo", store: false });
    await changed(p.root);
    await Deno.mkdir(`${p.root}/sub/.git`); // empty: not a repository to git
    const f = await gitFacts(`${p.root}/sub`, SINCE);
    assert.equal(f.top, Deno.realPathSync(p.root));
    assert.deepEqual(f.changes, expected.changes);
    // Asked in sub/, `ls-files --others` would list sub/'s files only.
    assert.deepEqual(f.untracked, expected.untracked);
  });
  await t.step("a stray `.git` outside any repository: none", async () => {
    await using p = await scratchProject({ git: false, store: false });
    await Deno.mkdir(`${p.root}/.git`);
    assert.deepEqual(await gitFacts(p.root, SINCE), OUTSIDE);
  });
});

Deno.test("paths git would quote are read once, as they are (-z everywhere)", async () => {
  await using p = await scratchProject({ git: "repo", store: false });
  const odd = ['q"x.ts', "back\\slash.ts", "tab\there.ts", "new\nline.ts", "ü é.ts", "plain.ts"];
  for (const name of odd) await put(p.root, name, "a\n");
  await git(p.root, ["add", "."]);
  await git(p.root, ["commit", "-qm", "in the session"], new Date(NOW.getTime() - 7_200_000));
  for (const name of odd.slice(0, 3)) await put(p.root, name, "a\nb\n");
  await put(p.root, 'untracked "u".ts', "u\n");
  const facts = await gitFacts(p.root, SINCE);
  assert.deepEqual(facts.commits[0].files.map((f) => f.path).sort(), [...odd].sort());
  assert.deepEqual(facts.changes.map((f) => f.path).sort(), odd.slice(0, 3).sort());
  assert.deepEqual(facts.untracked, ['untracked "u".ts']);
  const files = filesFromGit(facts).map((f) => f.path).sort();
  assert.deepEqual(files, [...odd, 'untracked "u".ts'].sort());
});

Deno.test("numstatRecord: counts, binary, a path with tabs and newlines; anything else is none", () => {
  const stat = (path: string, added: number, deleted: number, binary = false) => ({
    path,
    added,
    deleted,
    binary,
  });
  assert.deepEqual(numstatRecord("12\t3\tsrc/a.ts"), stat("src/a.ts", 12, 3));
  assert.deepEqual(numstatRecord("\n0\t7\tb.ts"), stat("b.ts", 0, 7));
  assert.deepEqual(numstatRecord("-\t-\timg.png"), stat("img.png", 0, 0, true));
  assert.deepEqual(numstatRecord("1\t-\tx"), stat("x", 0, 0, true));
  assert.deepEqual(numstatRecord("1\t2\ta\tb\nc ü"), stat("a\tb\nc ü", 1, 2));
  for (
    const bad of [
      "",
      "\n",
      "1\t2\t",
      "1\t2",
      "1a\t2\tx",
      "-1\t2\tx",
      "--\t2\tx",
      "\t2\tx",
      " 1\t2\tx",
      "\n\n1\t2\tx",
    ]
  ) {
    assert.equal(numstatRecord(bad), undefined, JSON.stringify(bad));
  }
});

Deno.test("narrowing git's commits to a later moment, as git's own --since would", async (t) => {
  const c = (hash: string, date: string): Commit => ({ hash, date, subject: hash, files: [] });
  const hashes = (commits: Commit[] | undefined) => commits?.map((x) => x.hash);
  await t.step("commitsSince: the moment read to the second, as git reads it", () => {
    const log = [
      c("b", "2026-11-30T10:00:01Z"),
      c("a", "2026-11-30T10:00:00+00:00"),
      c("z", "2026-11-30T09:59:59Z"),
    ];
    assert.deepEqual(hashes(commitsSince(log, new Date("2026-11-30T10:00:00.999Z"))), ["b", "a"]);
    assert.deepEqual(hashes(commitsSince(log, new Date("2026-11-30T10:00:01Z"))), ["b"]);
    assert.deepEqual(hashes(commitsSince(log, new Date("2026-11-30T12:00:00Z"))), []);
    assert.deepEqual(commitsSince([], new Date("2026-11-30T10:00:00Z")), []);
  });
  await t.step("commitsSince: dates out of order, or one unreadable, leave it to git", () => {
    const skewed = [
      c("c", "2026-11-30T11:00:00Z"),
      c("b", "2026-11-30T09:00:00Z"),
      c("a", "2026-11-30T10:00:00Z"),
    ];
    assert.equal(commitsSince(skewed, new Date("2026-11-30T09:30:00Z")), undefined);
    // Out of order on one side of the moment only: still told.
    assert.deepEqual(hashes(commitsSince(skewed, new Date("2026-11-30T08:00:00Z"))), [
      "c",
      "b",
      "a",
    ]);
    assert.equal(commitsSince([c("x", "not a date")], new Date(0)), undefined);
  });
  await t.step("narrowFacts: the commits git lists, on generated histories", async () => {
    // Linear histories whose committer dates are drawn from a few hours apart and a second
    // apart (ties, rebases, skewed clocks), narrowed to a drawn moment with or without a
    // fraction of a second; both ways of telling (from the log, from git again) must be met.
    const base = new Date("2026-11-30T06:00:00Z").getTime();
    const moment = (next: () => number, fraction: number) =>
      new Date(
        base + Math.floor(next() * 4) * 3_600_000 + Math.floor(next() * 2) * 1_000 + fraction,
      );
    let told = 0;
    let asked = 0;
    for (let seed = 1; seed <= 14; seed++) {
      const next = prng(seed);
      await using p = await scratchProject({ git: "repo", store: false });
      for (let i = 0; i < 5; i++) {
        await put(p.root, `f${i}.ts`, `${i}\n`);
        await git(p.root, ["add", "."]);
        await git(p.root, ["commit", "-qm", `c${i}`], moment(next, 0));
      }
      const since = moment(next, next() < 0.5 ? 0 : 500);
      const wide = await gitFacts(p.root, new Date(base - 3_600_000));
      assert.equal(wide.commits.length, 5);
      if (commitsSince(wide.commits, since) === undefined) asked++;
      else told++;
      const direct = await gitFacts(p.root, since);
      assert.deepEqual(
        hashes((await narrowFacts(wide, since)).commits),
        hashes(direct.commits),
        `seed ${seed}: ${wide.commits.map((x) => x.date).join(", ")} since ${since.toISOString()}`,
      );
    }
    assert.ok(told > 0 && asked > 0, `told ${told}, asked git ${asked}`);
  });
});
