import assert from "node:assert/strict";
import { installedIn } from "../../lib/agents/installed.ts";
import { storeAt } from "../../lib/store/store.ts";
import { put, scratchDir } from "../support/scratch.ts";
import { installHook } from "../support/registered.ts";

const noEnv = () => undefined;

/** A SessionStart group running `command`, as a settings file holds it. */
function settings(command: string): string {
  return JSON.stringify({
    hooks: {
      SessionStart: [{ matcher: "clear|compact", hooks: [{ type: "command", command }] }],
    },
  });
}

Deno.test("installedIn: a project or local settings file of this project registers our hook", async (t) => {
  await t.step("install (project, local) names the project", async () => {
    for (const scope of ["project", "local"] as const) {
      await using d = await scratchDir();
      assert.equal(installedIn(storeAt(d.path), noEnv), false, "before");
      await installHook(d.path, { scope });
      assert.equal(installedIn(storeAt(d.path), noEnv), true, scope);
    }
  });
  await t.step("a user-wide install names no project", async () => {
    await using d = await scratchDir();
    await using home = await scratchDir();
    await installHook(d.path, { scope: "user", home: home.path });
    const env = (name: string) => name === "HOME" ? home.path : undefined;
    assert.equal(installedIn(storeAt(d.path), env), false);
  });
  await t.step("another hook, a mere mention, a broken file: nothing registered", async () => {
    await using d = await scratchDir();
    await put(d.path, ".claude/settings.json", settings("sh ./lint.sh"));
    await put(d.path, ".claude/settings.local.json", '{"note": "session_restore.ts", ');
    assert.equal(installedIn(storeAt(d.path), noEnv), false);
    await put(d.path, ".claude/settings.local.json", '{"env": {"X": "session_restore.ts"}}');
    assert.equal(installedIn(storeAt(d.path), noEnv), false);
  });
  await t.step("a linked worktree: the main checkout's settings count too", async () => {
    await using main = await scratchDir();
    await using tree = await scratchDir();
    await put(main.path, ".claude/settings.local.json", settings("sh /x/session_restore.ts"));
    assert.equal(installedIn(storeAt(tree.path, main.path), noEnv), true);
    assert.equal(installedIn(storeAt(tree.path), noEnv), false);
  });
});
