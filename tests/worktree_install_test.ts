/**
 * `install` in a repository with worktrees, through the registered command as the agent runs it
 * (tests/support/registered.ts): the same hook serves every worktree, existing and future, with
 * the grants it needs; `--local` writes the main checkout's and each worktree's local settings and
 * keeps them out of git; `doctor` in a worktree the grant cannot reach says what to do.
 */
import assert from "node:assert/strict";
import { join } from "../lib/fs/path.ts";
import { STORE_REL, storeAt } from "../lib/store/store.ts";
import { clearPayload, runCliProcess } from "./support/run.ts";
import { installHook, reasonOf, registeredCommand, runRegistered } from "./support/registered.ts";
import { git } from "./support/scratch.ts";
import { addWorktree, scratchRepo } from "./support/worktree.ts";

const BODY = "## Goal\n\nShip it.\n\n## Next step\n\nTest it.\n";

async function dump(cwd: string, slug: string) {
  const r = await runCliProcess(["dump", slug], { cwd, stdin: BODY });
  assert.equal(r.code, 0, r.stderr);
}

Deno.test("worktree install: --local in a worktree serves every worktree of the repository", async (t) => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
  const side = await addWorktree(r.main, "../side", "side");
  await installHook(feat, { scope: "local", cwd: feat });

  await t.step(
    "one command in the main checkout's and each worktree's local settings",
    async () => {
      const cmd = await registeredCommand(r.main, { scope: "local" });
      assert.equal(await registeredCommand(feat, { scope: "local" }), cmd);
      assert.equal(await registeredCommand(side, { scope: "local" }), cmd);
    },
  );
  await t.step("the local settings are git-ignored: every worktree stays clean", async () => {
    for (const dir of [r.main, feat, side]) {
      assert.equal((await git(dir, ["status", "--porcelain"])).trim(), "", dir);
    }
  });
  await t.step("the hook restores in an existing worktree, from a subdirectory", async () => {
    await dump(side, "side-h");
    await Deno.mkdir(join(side, "sub"));
    const cmd = await registeredCommand(side, { scope: "local" });
    const ran = await runRegistered(cmd, clearPayload(join(side, "sub")), {
      cwd: join(side, "sub"),
      projectDir: join(side, "sub"),
    });
    assert.match(reasonOf(ran) ?? "", /injected|restored/, ran.stderr);
  });
  await t.step("and in a worktree made later under .claude/worktrees", async () => {
    const later = await addWorktree(r.main, ".claude/worktrees/later", "worktree-later");
    await dump(later, "later-h");
    const cmd = await registeredCommand(r.main, { scope: "local" });
    const ran = await runRegistered(cmd, clearPayload(later), { cwd: later, projectDir: later });
    assert.match(reasonOf(ran) ?? "", /injected|restored/, ran.stderr);
    assert.deepEqual(
      [...Deno.readDirSync(storeAt(r.main).dir)].map((e) => e.name).filter((n) =>
        n.endsWith("-h.md")
      ).sort(),
      ["later-h.md", "side-h.md"],
    );
    assert.throws(() => Deno.statSync(join(later, STORE_REL)));
  });
  await t.step("uninstall --local from the main checkout removes every copy", async () => {
    const gone = await runCliProcess(["uninstall", "--local"], { cwd: r.main });
    assert.equal(gone.code, 0, gone.stderr);
    for (const dir of [r.main, feat, side]) {
      await assert.rejects(registeredCommand(dir, { scope: "local" }), Error, dir);
    }
    await installHook(r.main, { scope: "local" });
  });
  await t.step("doctor in a sibling worktree made later says what to do", async () => {
    const late = await addWorktree(r.main, "../late-side", "late-side");
    await git(late, ["status"]);
    await Deno.mkdir(join(late, ".claude"), { recursive: true });
    await Deno.copyFile(
      join(r.main, ".claude/settings.local.json"),
      join(late, ".claude/settings.local.json"),
    );
    const doc = await runCliProcess(["doctor"], { cwd: late });
    assert.match(doc.stdout, /may not read this worktree.*install --dir .*late-side/, doc.stdout);
  });
});

Deno.test("worktree install: in a bare repository's worktree the store needs no ignore line", async () => {
  await using r = await scratchRepo();
  const bare = join(r.base, "repo.git");
  await git(r.base, ["clone", "-q", "--bare", r.main, bare]);
  const wa = await addWorktree(bare, join(r.base, "wa"), "wa");
  const ran = await runCliProcess(["install", "--local"], { cwd: wa });
  assert.equal(ran.code, 0, ran.stderr);
  assert.doesNotMatch(ran.stdout, /⚠/, ran.stdout);
  await dump(wa, "bare-h");
  assert.ok(Deno.statSync(join(bare, STORE_REL, "bare-h.md")).isFile);
  const cmd = await registeredCommand(wa, { scope: "local" });
  const hook = await runRegistered(cmd, clearPayload(wa), { cwd: wa, projectDir: wa });
  assert.match(reasonOf(hook) ?? "", /injected|restored/, hook.stderr);
});
