/**
 * Adoption in-process (lib/sync/adopt.ts), in scratch repositories with real linked worktrees:
 * a stranded store that leads out of the project is never read nor removed, and a store is
 * removed only when every handover in it was carried over. The adoption's merge as the user
 * meets it (a command in the worktree) is in tests/worktree_process_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/fs/path.ts";
import { findStore, STORE_REL, storeAt } from "../../lib/store/store.ts";
import { adopt } from "../../lib/sync/adopt.ts";
import { addWorktree, scratchRepo } from "../support/worktree.ts";

const doc = (slug: string) =>
  `---\nslug: ${slug}\ncreated: 2026-11-30T12:00:00Z\nconsumed: false\n---\n\n${slug}.\n`;

function names(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  } catch {
    return [];
  }
}

Deno.test("adopt: a stranded store that leads out of the project is left alone", async (t) => {
  for (
    const [label, link] of [
      ["the store a link to an absolute path", "session"],
      ["`.claude` a relative link through `..`", ".claude"],
    ] as const
  ) {
    await t.step(label, async () => {
      await using r = await scratchRepo();
      const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
      // Someone else's store, beside the project: the link in the worktree leads there.
      const theirs = join(r.base, "elsewhere/.claude/state/session");
      await Deno.mkdir(theirs, { recursive: true });
      await Deno.writeTextFile(join(theirs, "secret.md"), doc("secret"));
      if (link === "session") {
        await Deno.mkdir(join(feat, ".claude/state"), { recursive: true });
        await Deno.symlink(theirs, join(feat, STORE_REL));
      } else {
        await Deno.symlink("../../../../elsewhere/.claude", join(feat, ".claude"));
        assert.deepEqual(names(join(feat, STORE_REL)), ["secret.md"], "the link resolves");
      }
      const store = findStore({ cwd: feat });
      assert.equal(store.stranded, join(feat, STORE_REL));
      assert.equal(await adopt(store), undefined, "nothing adopted");
      assert.deepEqual(names(theirs), ["secret.md"], "the outside store is untouched");
      assert.deepEqual(names(storeAt(r.main).dir), [], "nothing of it carried in");
    });
  }
});

Deno.test("adopt: a store is removed only when every handover in it was carried over", async () => {
  await using r = await scratchRepo();
  const feat = await addWorktree(r.main, ".claude/worktrees/feat", "worktree-feat");
  const old = storeAt(feat);
  await Deno.mkdir(old.dir, { recursive: true });
  await Deno.writeTextFile(join(old.dir, "fine.md"), doc("fine"));
  await Deno.writeTextFile(join(old.dir, "blocked.md"), doc("blocked"));
  // The repository's store has a folder where `blocked` would go: that one cannot be carried.
  await Deno.mkdir(join(storeAt(r.main).dir, "blocked.md"), { recursive: true });
  const done = await adopt(findStore({ cwd: feat }));
  assert.deepEqual(done?.docs, ["fine"]);
  assert.equal(done?.removed, false, "the worktree's store stays");
  assert.equal(
    await Deno.readTextFile(join(old.dir, "blocked.md")),
    doc("blocked"),
    "the handover that could not move is still there",
  );
});
