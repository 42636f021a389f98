import assert from "node:assert/strict";
import { join } from "../../lib/fs/path.ts";
import { checkoutAt, linkedWorktrees, worktreeLabel } from "../../lib/store/repository.ts";
import { findStore, STORE_REL } from "../../lib/store/store.ts";
import { git, mkfifo, put } from "../support/scratch.ts";
import { addWorktree, scratchRepo } from "../support/worktree.ts";

Deno.test("one store per repository: linked worktrees", async (t) => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
  const sibling = await addWorktree(r.main, "../main-side", "side");
  const mainStore = join(r.main, STORE_REL);

  await t.step(".claude/worktrees/<name>: the main worktree's store, the worktree's root", () => {
    const s = findStore({ cwd: feat });
    assert.equal(s.dir, mainStore);
    assert.equal(s.root, feat, "git facts and transcripts stay the worktree's");
    assert.equal(s.worktree, ".claude/worktrees/feat");
    assert.equal(s.stranded, undefined);
  });
  await t.step("a subdirectory of a worktree, by cwd or CLAUDE_PROJECT_DIR", async () => {
    const deep = join(feat, "src", "deep");
    await Deno.mkdir(deep, { recursive: true });
    assert.equal(findStore({ cwd: deep }).dir, mainStore);
    assert.equal(findStore({ projectDir: deep, cwd: "/" }).dir, mainStore);
  });
  await t.step("a sibling worktree: its label is absolute", () => {
    const s = findStore({ cwd: sibling });
    assert.equal(s.dir, mainStore);
    assert.equal(s.worktree, sibling);
  });
  await t.step("the main worktree: no label", () => {
    const s = findStore({ cwd: r.main });
    assert.equal(s.dir, mainStore);
    assert.equal(s.worktree, undefined);
  });
  await t.step("git's list of worktrees, read from the files", () => {
    const common = checkoutAt(r.main).common;
    assert.deepEqual(linkedWorktrees(common).map((w) => w.top).sort(), [feat, sibling].sort());
  });
  await t.step("a store inside a worktree is stranded, the repository's is used", async () => {
    await Deno.mkdir(join(feat, STORE_REL), { recursive: true });
    const s = findStore({ cwd: join(feat, "src") });
    assert.equal(s.dir, mainStore);
    assert.equal(s.stranded, join(feat, STORE_REL));
  });
  await t.step("a nested project keeps its place: the same path in the main worktree", async () => {
    await Deno.mkdir(join(r.main, "pkg", STORE_REL), { recursive: true });
    await Deno.mkdir(join(feat, "pkg", "x"), { recursive: true });
    const s = findStore({ cwd: join(feat, "pkg", "x") });
    assert.equal(s.dir, join(r.main, "pkg", STORE_REL));
    assert.equal(s.root, join(feat, "pkg"));
  });
  await t.step("a removed worktree as CLAUDE_PROJECT_DIR (SessionEnd after clean-up)", async () => {
    await git(r.main, ["worktree", "remove", "--force", sibling]);
    assert.equal(findStore({ projectDir: sibling, cwd: r.main }).dir, mainStore);
    const gone = join(r.main, ".claude/worktrees/gone");
    assert.equal(findStore({ projectDir: gone, cwd: r.main }).dir, mainStore);
  });
});

Deno.test("one store per repository: .git files as git writes them and by hand", async (t) => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, "../feat", "feat");
  const common = join(r.main, ".git");
  await t.step("a relative gitdir and CRLF line endings", async () => {
    await Deno.writeTextFile(join(feat, ".git"), "gitdir: ../main/.git/worktrees/feat\r\n");
    await Deno.writeTextFile(join(common, "worktrees/feat/commondir"), "../..\r\n");
    const s = findStore({ cwd: feat });
    assert.equal(s.dir, join(r.main, STORE_REL));
    assert.equal(worktreeLabel(checkoutAt(feat)), feat);
  });
});

Deno.test("one store per repository: .git files git never wrote", async (t) => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, "../crlf", "crlf");
  const linked = join(r.main, ".git/worktrees/crlf");
  await t.step("a .git file with no gitdir: line is its own repository", async () => {
    // Git refuses such a file ("invalid gitfile format"), even when it names a real git dir.
    const odd = join(r.base, "odd");
    await put(odd, "src/x.txt", "");
    for (const text of ["not a pointer\n", `${linked}\n`, `# gitdir: ${linked}\n`]) {
      await Deno.writeTextFile(join(odd, ".git"), text);
      const s = findStore({ cwd: join(odd, "src") });
      assert.equal(s.dir, join(odd, STORE_REL), text);
      assert.equal(s.worktree, undefined, text);
    }
  });
  await t.step("worktrees/<id>/gitdir written with CRLF", async () => {
    const gitdir = join(linked, "gitdir");
    await Deno.writeTextFile(gitdir, (await Deno.readTextFile(gitdir)).trim() + "\r\n");
    assert.deepEqual(linkedWorktrees(join(r.main, ".git")).map((w) => w.top), [feat]);
  });
  await t.step("a quoted core.worktree names the main worktree", async () => {
    // A submodule's common dir (not a `.git` directory), its worktree path quoted in config.
    const home = join(r.base, "sub home");
    const common = join(r.base, "gitdirs/modules/lib");
    await Deno.mkdir(join(common, "worktrees/feat"), { recursive: true });
    await Deno.mkdir(home);
    await Deno.writeTextFile(
      join(common, "config"),
      '[core]\n\tbare = false\n\tworktree = "../../../sub home"\n',
    );
    await Deno.writeTextFile(join(common, "worktrees/feat/commondir"), "../..\n");
    const feat = join(r.base, "lib-feat");
    await Deno.mkdir(feat);
    await Deno.writeTextFile(join(feat, ".git"), `gitdir: ${join(common, "worktrees/feat")}\n`);
    const s = findStore({ cwd: feat });
    assert.equal(s.dir, join(home, STORE_REL));
    assert.equal(s.worktree, feat);
  });
});

Deno.test("one store per repository: a bare repository keeps it in its common dir", async (t) => {
  await using r = await scratchRepo();
  const bare = join(r.base, "repo.git");
  await git(r.base, ["clone", "-q", "--bare", r.main, bare]);
  const a = await addWorktree(bare, join(r.base, "wa"), "wa");
  const b = await addWorktree(bare, join(r.base, "wb"), "wb");
  const sa = findStore({ cwd: a });
  assert.equal(sa.dir, join(bare, STORE_REL));
  assert.equal(findStore({ cwd: join(b) }).dir, sa.dir);
  assert.equal(sa.root, a);
  assert.equal(sa.worktree, a);
  await t.step("a project in a subdirectory of a worktree: still the one store", async () => {
    await Deno.mkdir(join(a, "pkg"));
    assert.equal(findStore({ dir: join(a, "pkg"), cwd: a }).dir, sa.dir, "by --dir");
    await Deno.mkdir(join(b, "pkg", STORE_REL), { recursive: true });
    const s = findStore({ cwd: join(b, "pkg") });
    assert.equal(s.dir, sa.dir, "by the walk, to a store left there");
    assert.equal(s.stranded, join(b, "pkg", STORE_REL));
  });
});

Deno.test("one store per repository: a submodule is its own repository", async () => {
  await using r = await scratchRepo();
  await using lib = await scratchRepo();
  await git(r.main, [
    "-c",
    "protocol.file.allow=always",
    "submodule",
    "add",
    "-q",
    lib.main,
    "lib",
  ]);
  const sub = join(r.main, "lib");
  const s = findStore({ cwd: sub });
  assert.equal(s.dir, join(sub, STORE_REL));
  assert.equal(s.worktree, undefined);
  assert.equal(s.stranded, undefined);
  await put(sub, "x/y.txt", "");
  assert.equal(findStore({ cwd: join(sub, "x") }).dir, join(sub, STORE_REL));
});

Deno.test("one store per repository: a FIFO planted as .git or commondir never blocks", async () => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, "../feat", "feat");
  await Deno.remove(join(r.main, ".git/worktrees/feat/commondir"));
  await mkfifo(join(r.main, ".git/worktrees/feat/commondir"));
  const s = findStore({ cwd: feat });
  assert.equal(s.dir, join(feat, STORE_REL), "read as its own repository");
  const odd = join(r.base, "odd");
  await Deno.mkdir(odd);
  await mkfifo(join(odd, ".git"));
  assert.equal(findStore({ cwd: odd }).dir, join(odd, STORE_REL));
});
