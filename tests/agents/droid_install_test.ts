/**
 * `install`, `uninstall` and `doctor` with `--agent droid`: the settings file Factory Droid reads
 * (`.factory/settings.json`, `--user`: `~/.factory/settings.json`), the entries' shape
 * (SessionStart with `clear|compact|resume`, SessionEnd, PreCompact, seconds, no transcript
 * grant), idempotence, exact removal keeping what the user wrote (its custom models), and doctor's
 * finding on a matcher that leaves out Droid's `resume` (its `/clear`).
 */
import assert from "node:assert/strict";
import { commandFor } from "../../lib/agents/registration.ts";
import { scratchDir, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";

const FILE = ".factory/settings.json";

async function withRepo(fn: (root: string, home: string) => Promise<void>) {
  await using repo = await scratchProject({ git: "repo", store: false });
  await using homeDir = await scratchDir("droid-home-");
  await fn(repo.root, homeDir.path);
}

Deno.test("install --agent droid", async (t) => {
  await t.step(
    "writes .factory/settings.json: three events; uninstall removes them",
    () =>
      withRepo(async (root, home) => {
        const opts = { cwd: root, env: { HOME: home } };
        const run = await runCliInProcess(["install", "--agent", "droid"], opts);
        assert.equal(run.code, 0, run.err);
        const file = JSON.parse(await Deno.readTextFile(`${root}/${FILE}`));
        assert.deepEqual(Object.keys(file.hooks), ["SessionStart", "SessionEnd", "PreCompact"]);
        const group = file.hooks.SessionStart[0];
        assert.equal(group.matcher, "clear|compact|resume");
        assert.deepEqual(Object.keys(group.hooks[0]), ["type", "command", "timeout"]);
        assert.equal(group.hooks[0].timeout, 10);
        assert.equal(group.hooks[0].command, commandFor("project", root, "droid"));
        assert.match(group.hooks[0].command, /session_restore\.ts --agent droid$/);
        for (const event of ["SessionEnd", "PreCompact"]) {
          const text = JSON.stringify(file.hooks[event][0]);
          assert.doesNotMatch(text, /"matcher"|\.factory\/sessions/, event);
          assert.equal(file.hooks[event][0].hooks[0].timeout, 30, event);
        }
        const again = await runCliInProcess(["install", "--agent", "droid"], opts);
        assert.match(again.out, /Already installed/);
        const doctor = await runCliInProcess(["doctor", "--agent", "droid"], opts);
        assert.equal(doctor.code, 0, doctor.out);
        assert.equal((await runCliInProcess(["uninstall", "--agent", "droid"], opts)).code, 0);
        await assert.rejects(Deno.stat(`${root}/${FILE}`), Deno.errors.NotFound);
        const none = await runCliInProcess(["uninstall", "--agent", "droid"], opts);
        assert.equal(none.code, 1);
      }),
  );
  await t.step(
    "--user: ~/.factory/settings.json, the user's settings kept byte for byte",
    () =>
      withRepo(async (root, home) => {
        const opts = { cwd: root, env: { HOME: home } };
        await Deno.mkdir(`${home}/.factory`);
        const mine =
          `{\n  "customModels": [{ "model": "m", "provider": "generic-chat-completion-api" }],\n` +
          `  "trustedFolders": {}\n}\n`;
        await Deno.writeTextFile(`${home}/${FILE}`, mine);
        const run = await runCliInProcess(["install", "--agent", "droid", "--user"], opts);
        assert.equal(run.code, 0, run.err);
        const file = JSON.parse(await Deno.readTextFile(`${home}/${FILE}`));
        assert.equal(file.customModels[0].model, "m");
        assert.match(file.hooks.SessionStart[0].hooks[0].command, /--allow-read --allow-write /);
        await assert.rejects(Deno.stat(`${root}/${FILE}`), Deno.errors.NotFound);
        const removed = await runCliInProcess(["uninstall", "--agent", "droid", "--user"], opts);
        assert.equal(removed.code, 0, removed.err);
        assert.equal(await Deno.readTextFile(`${home}/${FILE}`), mine);
      }),
  );
  await t.step(
    "doctor: a SessionStart matcher without resume misses Droid's /clear",
    () =>
      withRepo(async (root, home) => {
        const opts = { cwd: root, env: { HOME: home } };
        assert.equal((await runCliInProcess(["install", "--agent", "droid"], opts)).code, 0);
        const path = `${root}/${FILE}`;
        const text = await Deno.readTextFile(path);
        await Deno.writeTextFile(path, text.replace('"clear|compact|resume"', '"clear|compact"'));
        const doctor = await runCliInProcess(["doctor", "--agent", "droid"], opts);
        assert.equal(doctor.code, 1, doctor.out);
        assert.match(doctor.out, /resume/, doctor.out);
      }),
  );
});
