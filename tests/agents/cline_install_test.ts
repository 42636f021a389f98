/**
 * `install`, `uninstall` and `doctor` with `--agent cline`: the plugin file Cline CLI 3.0.65 loads
 * (`.cline/plugins/`, `--user`: `$CLINE_DIR/plugins/`, else `~/.cline/plugins/`), importing
 * hooks/cline.ts and exporting `plugin`; idempotence, exact removal, and a file install did not
 * write (or opencode's) left alone.
 */
import assert from "node:assert/strict";
import { commandFor } from "../../lib/agents/registration.ts";
import { pluginCommand, pluginText } from "../../lib/agents/plugin_file.ts";
import { REPO, scratchDir, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";

const PLUGIN = ".cline/plugins/session-restore.ts";

async function withRepo(fn: (root: string, home: string) => Promise<void>) {
  await using repo = await scratchProject({ git: "repo", store: false });
  await using homeDir = await scratchDir("cline-home-");
  await fn(repo.root, homeDir.path);
}

Deno.test("install --agent cline", async (t) => {
  await t.step(
    "writes the plugin file with the project's command; uninstall deletes it",
    () =>
      withRepo(async (root, home) => {
        const opts = { cwd: root, env: { HOME: home } };
        const run = await runCliInProcess(["install", "--agent", "cline"], opts);
        assert.equal(run.code, 0, run.err);
        assert.match(
          run.out,
          /SessionStart \(clear, compact\) hook in .*\.cline\/plugins\/session-restore\.ts/,
        );
        const text = await Deno.readTextFile(`${root}/${PLUGIN}`);
        assert.ok(text.includes(`from ${JSON.stringify(`${REPO}/hooks/cline.ts`)}`), text);
        assert.match(text, /^export const plugin = sessionRestore\(/m, "the export Cline loads");
        assert.equal(pluginCommand("cline", text, "plugin"), commandFor("project", root, "cline"));
        assert.match(pluginCommand("cline", text, "plugin")!, /session_restore\.ts --agent cline$/);
        assert.match(
          (await runCliInProcess(["install", "--agent", "cline"], opts)).out,
          /Already installed/,
        );
        const doctor = await runCliInProcess(["doctor", "--agent", "cline"], opts);
        assert.match(
          doctor.out,
          /✓ SessionStart hook in .*session-restore\.ts \(project/,
          doctor.out,
        );
        assert.equal((await runCliInProcess(["uninstall", "--agent", "cline"], opts)).code, 0);
        await assert.rejects(Deno.stat(`${root}/${PLUGIN}`), Deno.errors.NotFound);
        assert.equal((await runCliInProcess(["uninstall", "--agent", "cline"], opts)).code, 1);
      }),
  );

  await t.step(
    "a plugin file of that name install did not write is left as it is",
    () =>
      withRepo(async (root, home) => {
        const mine = "export default { name: 'mine', manifest: { capabilities: [] } };\n";
        await Deno.mkdir(`${root}/.cline/plugins`, { recursive: true });
        await Deno.writeTextFile(`${root}/${PLUGIN}`, mine);
        const opts = { cwd: root, env: { HOME: home } };
        const run = await runCliInProcess(["install", "--agent", "cline"], opts);
        assert.equal(run.code, 1);
        assert.match(run.out + run.err, /not one install wrote/);
        assert.equal((await runCliInProcess(["uninstall", "--agent", "cline"], opts)).code, 1);
        assert.equal(await Deno.readTextFile(`${root}/${PLUGIN}`), mine);
      }),
  );

  await t.step(
    "--user: ~/.cline/plugins/, or $CLINE_DIR/plugins/; an unrestricted command",
    () =>
      withRepo(async (root, home) => {
        const run = await runCliInProcess(["install", "--agent", "cline", "--user"], {
          cwd: root,
          env: { HOME: home },
        });
        assert.equal(run.code, 0, run.err);
        const text = await Deno.readTextFile(`${home}/.cline/plugins/session-restore.ts`);
        assert.equal(pluginCommand("cline", text, "plugin"), commandFor("user", root, "cline"));
        const env = { HOME: home, CLINE_DIR: `${home}/elsewhere` };
        assert.equal(
          (await runCliInProcess(["install", "--agent", "cline", "--user"], { cwd: root, env }))
            .code,
          0,
        );
        assert.ok((await Deno.stat(`${home}/elsewhere/plugins/session-restore.ts`)).isFile);
        const removed = await runCliInProcess(["uninstall", "--agent", "cline", "--user"], {
          cwd: root,
          env,
        });
        assert.equal(removed.code, 0, removed.err);
        await assert.rejects(
          Deno.stat(`${home}/elsewhere/plugins/session-restore.ts`),
          Deno.errors.NotFound,
        );
        assert.ok(
          (await Deno.stat(`${home}/.cline/plugins/session-restore.ts`)).isFile,
          "the other kept",
        );
      }),
  );
});

Deno.test("plugin files: Cline's is not opencode's, nor the reverse", () => {
  const command = "sh /s/bin/with-deno --event SessionStart run /s/session_restore.ts";
  const cline = pluginText("cline", command, "/s/hooks/cline.ts", "plugin");
  assert.equal(pluginCommand("cline", cline, "plugin"), command);
  assert.equal(pluginCommand("cline", cline), undefined, "the opencode export is not Cline's");
  assert.equal(pluginCommand("opencode", cline, "plugin"), undefined, "another agent's header");
  const opencode = pluginText("opencode", command, "/s/hooks/opencode.ts");
  assert.equal(pluginCommand("opencode", opencode), command);
  assert.equal(pluginCommand("cline", opencode, "plugin"), undefined);
});
