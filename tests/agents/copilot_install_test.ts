/**
 * `install`, `uninstall` and `doctor` with `--agent copilot`: the hooks file GitHub Copilot CLI
 * reads (as verified in 1.0.102: `.github/hooks/*.json`, `~/.copilot/hooks/*.json`), the entries'
 * shape (PascalCase SessionStart, PreCompact and UserPromptSubmit, no matcher, seconds, the
 * launcher's `--flat`, no transcript grant), idempotence, exact
 * removal keeping what the user wrote, and the user scope under `COPILOT_HOME`.
 */
import assert from "node:assert/strict";
import { commandFor } from "../../lib/agents/registration.ts";
import { scratchDir, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";

const FILE = ".github/hooks/session-restore.json";

async function withRepo(fn: (root: string, home: string) => Promise<void>) {
  await using repo = await scratchProject({ git: "repo", store: false });
  await using homeDir = await scratchDir("copilot-home-");
  await fn(repo.root, homeDir.path);
}

Deno.test("install --agent copilot", async (t) => {
  await t.step(
    "writes .github/hooks/session-restore.json: SessionStart, no matcher",
    () =>
      withRepo(async (root, home) => {
        const opts = { cwd: root, env: { HOME: home } };
        const run = await runCliInProcess(["install", "--agent", "copilot"], opts);
        assert.equal(run.code, 0, run.err);
        const file = JSON.parse(await Deno.readTextFile(`${root}/${FILE}`));
        // PreCompact saves the card's material; the next prompt's UserPromptSubmit delivers it.
        assert.deepEqual(Object.keys(file.hooks), [
          "SessionStart",
          "PreCompact",
          "UserPromptSubmit",
        ]);
        for (const [event, groups] of Object.entries(file.hooks) as [string, unknown[]][]) {
          assert.equal(groups.length, 1, event);
          const text = JSON.stringify(groups[0]);
          assert.match(text, new RegExp(`--event ${event} --flat run `), event);
          assert.doesNotMatch(text, /"matcher"|session-state/, event);
        }
        const group = file.hooks.SessionStart[0];
        assert.equal(group.matcher, undefined, "Copilot's `new` is both a launch and /clear");
        assert.deepEqual(Object.keys(group.hooks[0]), ["type", "command", "timeout"]);
        assert.equal(group.hooks[0].timeout, 10);
        assert.equal(group.hooks[0].command, commandFor("project", root, "copilot"));
        assert.match(group.hooks[0].command, /with-deno'? --event SessionStart --flat run /);
        assert.match(group.hooks[0].command, /session_restore\.ts --agent copilot$/);
        const again = await runCliInProcess(["install", "--agent", "copilot"], opts);
        assert.match(again.out, /Already installed/);
        const doctor = await runCliInProcess(["doctor", "--agent", "copilot"], opts);
        assert.match(doctor.out, /ok .*session-restore\.json/, doctor.out);
        assert.doesNotMatch(doctor.out, /✗/, doctor.out);
        assert.equal((await runCliInProcess(["uninstall", "--agent", "copilot"], opts)).code, 0);
        await assert.rejects(Deno.stat(`${root}/${FILE}`), Deno.errors.NotFound);
        const none = await runCliInProcess(["uninstall", "--agent", "copilot"], opts);
        assert.equal(none.code, 1);
      }),
  );
  await t.step(
    "keeps the user's hooks in the file; uninstall restores the bytes",
    () =>
      withRepo(async (root, home) => {
        const before = '{\n  // mine\n  "version": 1,\n  "hooks": {\n    "sessionEnd": [\n' +
          '      { "type": "command", "bash": "echo bye" }\n    ]\n  }\n}\n';
        await Deno.mkdir(`${root}/.github/hooks`, { recursive: true });
        await Deno.writeTextFile(`${root}/${FILE}`, before);
        const opts = { cwd: root, env: { HOME: home } };
        assert.equal((await runCliInProcess(["install", "--agent", "copilot"], opts)).code, 0);
        const file = JSON.parse(
          (await Deno.readTextFile(`${root}/${FILE}`)).replace("// mine", ""),
        );
        assert.deepEqual(Object.keys(file.hooks), [
          "sessionEnd",
          "SessionStart",
          "PreCompact",
          "UserPromptSubmit",
        ]);
        assert.equal((await runCliInProcess(["uninstall", "--agent", "copilot"], opts)).code, 0);
        assert.equal(await Deno.readTextFile(`${root}/${FILE}`), before);
      }),
  );
  await t.step(
    "--user honours COPILOT_HOME, else ~/.copilot; --local does not apply",
    () =>
      withRepo(async (root, home) => {
        const plain = await runCliInProcess(["install", "--agent", "copilot", "--user"], {
          cwd: root,
          env: { HOME: home },
        });
        assert.equal(plain.code, 0, plain.err);
        const user = await Deno.readTextFile(`${home}/.copilot/hooks/session-restore.json`);
        assert.ok(user.includes(JSON.stringify(commandFor("user", root, "copilot")).slice(1, -1)));
        const env = { HOME: home, COPILOT_HOME: `${home}/ch` };
        const run = await runCliInProcess(["install", "--agent", "copilot", "--user"], {
          cwd: root,
          env,
        });
        assert.equal(run.code, 0, run.err);
        assert.match(await Deno.readTextFile(`${home}/ch/hooks/session-restore.json`), /copilot/);
        const local = await runCliInProcess(["install", "--agent", "copilot", "--local"], {
          cwd: root,
          env,
        });
        assert.equal(local.code, 2);
      }),
  );
});
