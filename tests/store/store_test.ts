import assert from "node:assert/strict";
import { absolute, join, parentDir, readUtf8 } from "../../lib/fs/path.ts";
import {
  docPath,
  findGitTop,
  findRoot,
  findStore,
  isSafeSlug,
  readDoc,
  STORE_REL,
  storeAt,
} from "../../lib/store/store.ts";
import { readLatest } from "../../lib/store/latest.ts";
import { writeFileAtomic, writeFileAtomicSync } from "../../lib/fs/atomic.ts";
import { mkfifo, scratchDir, scratchProject, writeDoc } from "../support/scratch.ts";
import { addWorktree, scratchRepo } from "../support/worktree.ts";

Deno.test("paths", async (t) => {
  await t.step("parentDir walks to the root and stops", () => {
    assert.equal(parentDir("/a/b/c"), "/a/b");
    assert.equal(parentDir("/a"), "/");
    assert.equal(parentDir("/"), undefined);
    assert.equal(parentDir("C:\\x\\y"), "C:\\x");
    assert.equal(parentDir("C:\\x"), "C:\\");
  });
  await t.step("absolute resolves relative parts against a base", () => {
    assert.equal(absolute("sub/../x", "/p"), "/p/x");
    assert.equal(absolute("/abs/", "/p"), "/abs");
    assert.equal(absolute(".", "/p/q"), "/p/q");
  });
  await t.step("join collapses doubled separators", () => {
    assert.equal(join("/a/", "b"), "/a/b");
    assert.equal(join("//server/share", "x"), "//server/share/x", "a leading // is kept");
  });
});

Deno.test("isSafeSlug refuses what could escape the store or shadow its files", () => {
  for (const bad of ["", "a/b", "a\\b", "..", "a..b", ".hidden", "LATEST", "PARKED", "dropped"]) {
    assert.equal(isSafeSlug(bad), false, bad);
  }
  // `<slug>.md` must be a file name the file system takes: 255 bytes, counted in UTF-8.
  assert.equal(isSafeSlug("x".repeat(253)), false);
  assert.equal(isSafeSlug("x".repeat(252)), true);
  assert.equal(isSafeSlug("日".repeat(85)), false);
  assert.equal(isSafeSlug("日".repeat(84)), true);
  for (const good of ["main-2026-11-30T04-02-39Z", "fix-login", "ünïcode"]) {
    assert.equal(isSafeSlug(good), true, good);
  }
});

Deno.test("findRoot: the <root> rule", async (t) => {
  await using p = await scratchProject({ store: false });
  const sub = join(p.root, "a", "b");
  await Deno.mkdir(sub, { recursive: true });
  await t.step("--dir wins, then CLAUDE_PROJECT_DIR", async () => {
    assert.equal(findRoot({ dir: "/x", projectDir: "/y", cwd: sub }), "/x");
    assert.equal(findRoot({ dir: "rel", cwd: sub }), join(sub, "rel"));
    const y = join(p.root, "y");
    await Deno.mkdir(y);
    assert.equal(findRoot({ projectDir: y, cwd: sub }), p.root, "walks up from it");
  });
  await t.step("a CLAUDE_PROJECT_DIR gone outside any repository gives way to cwd", () => {
    // A removed sibling worktree at SessionEnd: the payload's cwd is the main checkout.
    assert.equal(findRoot({ projectDir: "/nonexistent-session-y", cwd: sub }), p.root);
  });
  await t.step("CLAUDE_PROJECT_DIR only starts the walk, as the cwd does", () => {
    // Claude Code started in a subdirectory sets it there; the CLI starts there without it.
    assert.equal(findRoot({ projectDir: sub, cwd: "/" }), p.root);
    assert.equal(findRoot({ projectDir: sub, cwd: "/" }), findRoot({ cwd: sub }));
  });
  await t.step("no store yet: the git top-level", () => {
    assert.equal(findRoot({ cwd: sub }), p.root);
    assert.equal(findGitTop(sub), p.root);
  });
  await t.step("the nearest existing store below the top-level wins", async () => {
    await Deno.mkdir(join(p.root, "a", ".claude/state/session"), { recursive: true });
    assert.equal(findRoot({ cwd: sub }), join(p.root, "a"));
    await Deno.mkdir(join(p.root, ".claude/state/session"), { recursive: true });
    assert.equal(findRoot({ cwd: sub }), join(p.root, "a"), "nearest, not topmost");
  });
  await t.step("a .git file (worktree, submodule) marks a top-level too", async () => {
    const wt = join(p.root, "wt");
    await Deno.mkdir(join(wt, "deep"), { recursive: true });
    await Deno.writeTextFile(join(wt, ".git"), "gitdir: elsewhere\n");
    assert.equal(findRoot({ cwd: join(wt, "deep") }), wt);
  });
  await t.step("outside git: the working directory", async () => {
    await using q = await scratchProject({ git: false, store: false });
    const deep = join(q.root, "x");
    await Deno.mkdir(deep);
    // A temp dir may itself sit inside a git checkout on a developer's machine.
    const top = findGitTop(q.root);
    assert.equal(findRoot({ cwd: deep }), top ?? deep);
  });
});

Deno.test("findRoot: in a linked worktree, a store left in a subdirectory roots the project there", async () => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
  // Only the worktree's own subdirectory has a store (an older version's): the main worktree has none.
  await Deno.mkdir(join(feat, "pkg", STORE_REL), { recursive: true });
  await Deno.mkdir(join(feat, "pkg", "src"), { recursive: true });
  const s = findStore({ cwd: join(feat, "pkg", "src") });
  assert.equal(s.root, join(feat, "pkg"), "the project the CLI and the hook agree on");
  assert.equal(s.dir, join(r.main, "pkg", STORE_REL), "its place in the repository's home");
  assert.equal(s.stranded, join(feat, "pkg", STORE_REL), "and the old store is moved there");
});

Deno.test("LATEST pointer", async (t) => {
  await using p = await scratchProject();
  await t.step("missing, blank and whitespace read as none", async () => {
    assert.equal(readLatest(p.store), undefined);
    await Deno.writeTextFile(p.store.latest, "");
    assert.equal(readLatest(p.store), undefined);
    await Deno.writeTextFile(p.store.latest, "  \n");
    assert.equal(readLatest(p.store), undefined);
  });
  await t.step("first line, trimmed (CRLF too)", async () => {
    await Deno.writeTextFile(p.store.latest, "abc\r\nignored\n");
    assert.equal(readLatest(p.store), "abc");
  });
});

Deno.test("readDoc is confined to the store", async (t) => {
  await using p = await scratchProject();
  await using outside = await scratchProject();
  await writeDoc(p.store, "ok");
  await t.step("a document inside the store reads", () => {
    assert.ok(readDoc(p.store, "ok")?.includes("slug: ok"));
  });
  await t.step("unsafe slugs never reach the filesystem", () => {
    assert.equal(readDoc(p.store, "../x"), undefined);
    assert.equal(readDoc(p.store, "LATEST"), undefined);
  });
  await t.step("a symlink out of the store is refused", async () => {
    await writeDoc(outside.store, "secret");
    await Deno.symlink(docPath(outside.store, "secret"), docPath(p.store, "link"));
    assert.equal(readDoc(p.store, "link"), undefined);
  });
  await t.step("a symlink to another document in the store is followed", async () => {
    await Deno.symlink(docPath(p.store, "ok"), docPath(p.store, "alias"));
    assert.ok(readDoc(p.store, "alias")?.includes("slug: ok"));
  });
  await t.step("invalid UTF-8 and directories read as missing", async () => {
    await Deno.writeFile(docPath(p.store, "bin"), new Uint8Array([0xff, 0xfe, 0x00, 0x80]));
    assert.equal(readDoc(p.store, "bin"), undefined);
    await Deno.mkdir(docPath(p.store, "dir"));
    assert.equal(readDoc(p.store, "dir"), undefined);
    assert.equal(readDoc(p.store, "nope"), undefined);
  });
});

Deno.test("atomic writes", async (t) => {
  await using p = await scratchProject();
  const target = join(p.store.dir, "f.txt");
  await t.step("sync and async replace the file and leave no temp file", async () => {
    writeFileAtomicSync(target, "one");
    assert.equal(await Deno.readTextFile(target), "one");
    await writeFileAtomic(target, new TextEncoder().encode("two"));
    assert.equal(await Deno.readTextFile(target), "two");
    assert.deepEqual([...Deno.readDirSync(p.store.dir)].map((e) => e.name), ["f.txt"]);
  });
  await t.step("a failed write leaves the old file and no temp file", async () => {
    await Deno.mkdir(join(p.store.dir, "d"));
    assert.throws(() => writeFileAtomicSync(join(p.store.dir, "d"), "x"));
    await assert.rejects(() => writeFileAtomic(join(p.store.dir, "d"), "x"));
    assert.deepEqual([...Deno.readDirSync(p.store.dir)].map((e) => e.name).sort(), [
      "d",
      "f.txt",
    ]);
    assert.equal(storeAt(p.root).dir, p.store.dir);
  });
});

Deno.test("readDoc never opens a named pipe or a directory", async () => {
  await using p = await scratchProject();
  await mkfifo(docPath(p.store, "pipe"));
  await Deno.mkdir(docPath(p.store, "dir"));
  assert.equal(readDoc(p.store, "pipe"), undefined);
  assert.equal(readDoc(p.store, "dir"), undefined);
});

Deno.test("readUtf8: byte for byte, or nothing", async (t) => {
  await using scratch = await scratchDir();
  const dir = scratch.path;
  const file = (name: string, bytes: number[]) => {
    const path = join(dir, name);
    Deno.writeFileSync(path, new Uint8Array(bytes));
    return path;
  };
  await t.step("a BOM is kept (the consumed rewrite must not drop it)", () => {
    const text = readUtf8(file("bom", [0xef, 0xbb, 0xbf, 0x61, 0x0a]));
    assert.equal(text, "\ufeffa\n");
  });
  await t.step("a real U+FFFD in the file is text, not an error", () => {
    assert.equal(readUtf8(file("fffd", [0x61, 0xef, 0xbf, 0xbd, 0x62])), "a\ufffdb");
  });
  await t.step("bytes that are not UTF-8 read as nothing", () => {
    assert.equal(readUtf8(file("bad", [0x61, 0xff, 0x62])), undefined);
    assert.equal(readUtf8(file("cut", [0x61, 0xe2, 0x82])), undefined, "a truncated sequence");
  });
});
