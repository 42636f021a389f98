/**
 * `install`, `uninstall` and `doctor` with `--agent qwen`, `--agent opencode` and `--agent kilo`:
 * the files each agent reads (as verified in Qwen Code 0.24.4, opencode 1.18.33 and Kilo Code CLI
 * 7.7.7), idempotence, exact removal, the user scopes, and a file install did not write left alone.
 */
import assert from "node:assert/strict";
import { commandFor } from "../../lib/agents/registration.ts";
import { pluginCommand } from "../../lib/agents/plugin_file.ts";
import type { Agent } from "../../lib/frame/budget.ts";
import { qwenFindings } from "../../lib/agents/trust.ts";
import { REPO, scratchDir, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";

async function withRepo(fn: (root: string, home: string) => Promise<void>) {
  await using repo = await scratchProject({ git: "repo", store: false });
  await using homeDir = await scratchDir("agents-home-");
  await fn(repo.root, homeDir.path);
}

const PLUGIN = ".opencode/plugins/session-restore.ts";
const KILO_PLUGIN = ".kilo/plugins/session-restore.ts";

Deno.test("install --agent qwen", async (t) => {
  await t.step(
    "writes .qwen/settings.json: SessionStart clear|compact, seconds",
    () =>
      withRepo(async (root, home) => {
        const run = await runCliInProcess(["install", "--agent", "qwen"], {
          cwd: root,
          env: { HOME: home },
        });
        assert.equal(run.code, 0, run.err);
        const settings = JSON.parse(await Deno.readTextFile(`${root}/.qwen/settings.json`));
        assert.deepEqual(Object.keys(settings.hooks), ["SessionStart"]);
        const group = settings.hooks.SessionStart[0];
        assert.equal(group.matcher, "clear|compact");
        assert.equal(group.hooks[0].timeout, 10);
        assert.equal(group.hooks[0].command, commandFor("project", root, "qwen"));
        assert.match(group.hooks[0].command, /session_restore\.ts --agent qwen$/);
      }),
  );
  await t.step(
    "keeps the user's settings; uninstall restores the bytes",
    () =>
      withRepo(async (root, home) => {
        const before = '{\n  // mine\n  "model": { "name": "qwen3-coder" }\n}\n';
        await Deno.mkdir(`${root}/.qwen`);
        await Deno.writeTextFile(`${root}/.qwen/settings.json`, before);
        const opts = { cwd: root, env: { HOME: home } };
        assert.equal((await runCliInProcess(["install", "--agent", "qwen"], opts)).code, 0);
        const again = await runCliInProcess(["install", "--agent", "qwen"], opts);
        assert.match(again.out, /Already installed/);
        assert.equal((await runCliInProcess(["uninstall", "--agent", "qwen"], opts)).code, 0);
        assert.equal(await Deno.readTextFile(`${root}/.qwen/settings.json`), before);
      }),
  );
  await t.step(
    "--user honours QWEN_HOME; --local does not apply",
    () =>
      withRepo(async (root, home) => {
        const qwenHome = `${home}/qh`;
        const env = { HOME: home, QWEN_HOME: qwenHome };
        const run = await runCliInProcess(["install", "--agent", "qwen", "--user"], {
          cwd: root,
          env,
        });
        assert.equal(run.code, 0, run.err);
        assert.match(await Deno.readTextFile(`${qwenHome}/settings.json`), /--agent qwen/);
        const local = await runCliInProcess(["install", "--agent", "qwen", "--local"], {
          cwd: root,
          env,
        });
        assert.equal(local.code, 2);
      }),
  );
});

Deno.test("doctor --agent qwen: folder trust", async (t) => {
  await using homeDir = await scratchDir("qwen-home-");
  const home = homeDir.path;
  const env = (name: string) => (name === "HOME" ? home : undefined);
  await Deno.mkdir(`${home}/.qwen`);
  await t.step("trust off (Qwen's default): nothing to say", async () => {
    assert.deepEqual(await qwenFindings("/p/app", env, true), []);
    await Deno.writeTextFile(`${home}/.qwen/settings.json`, '{"security":{}}');
    assert.deepEqual(await qwenFindings("/p/app", env, true), []);
  });
  await t.step("trust on: an untrusted project is a fix, a trusted one ok", async () => {
    await Deno.writeTextFile(
      `${home}/.qwen/settings.json`,
      JSON.stringify({ security: { folderTrust: { enabled: true } } }),
    );
    const [untrusted] = await qwenFindings("/p/app", env, true);
    assert.equal(untrusted.status, "fix");
    assert.match(untrusted.text, /\/trust/);
    await Deno.writeTextFile(
      `${home}/.qwen/trustedFolders.json`,
      JSON.stringify({ "/p/app/sub": "TRUST_PARENT" }),
    );
    const [trusted] = await qwenFindings("/p/app", env, true);
    assert.equal(trusted.status, "ok");
    assert.deepEqual(await qwenFindings("/p/app", env, false), [], "no project install");
  });
});

/** The agents whose registration is a plugin file: its project path and its `--user` folder. */
const PLUGIN_AGENTS = [
  { agent: "opencode", project: PLUGIN, user: "xdg/opencode/plugins" },
  { agent: "kilo", project: KILO_PLUGIN, user: "xdg/kilo/plugins" },
];

for (const { agent, project, user } of PLUGIN_AGENTS) {
  Deno.test(`install --agent ${agent}`, async (t) => {
    await t.step(
      "writes the plugin file with the project's command; uninstall deletes it",
      () =>
        withRepo(async (root, home) => {
          const opts = { cwd: root, env: { HOME: home } };
          const run = await runCliInProcess(["install", "--agent", agent], opts);
          assert.equal(run.code, 0, run.err);
          assert.match(run.out, /SessionStart \(clear, compact\) hook in .*session-restore\.ts/);
          const text = await Deno.readTextFile(`${root}/${project}`);
          assert.ok(text.includes(JSON.stringify(`${REPO}/hooks/opencode.ts`)), text);
          assert.equal(pluginCommand(agent, text), commandFor("project", root, agent as Agent));
          assert.match(
            pluginCommand(agent, text)!,
            new RegExp(`session_restore\\.ts --agent ${agent}$`),
          );
          const again = await runCliInProcess(["install", "--agent", agent], opts);
          assert.match(again.out, /Already installed/);
          const doctor = await runCliInProcess(["doctor", "--agent", agent], opts);
          assert.match(doctor.out, /ok .*session-restore\.ts/, doctor.out);
          assert.equal((await runCliInProcess(["uninstall", "--agent", agent], opts)).code, 0);
          await assert.rejects(Deno.stat(`${root}/${project}`), Deno.errors.NotFound);
          const none = await runCliInProcess(["uninstall", "--agent", agent], opts);
          assert.equal(none.code, 1);
        }),
    );
    await t.step(
      "a plugin file of the same name install did not write is left as it is",
      () =>
        withRepo(async (root, home) => {
          const mine = "export const Mine = async () => ({});\n";
          await Deno.mkdir(`${root}/${project.slice(0, project.lastIndexOf("/"))}`, {
            recursive: true,
          });
          await Deno.writeTextFile(`${root}/${project}`, mine);
          const opts = { cwd: root, env: { HOME: home } };
          const run = await runCliInProcess(["install", "--agent", agent], opts);
          assert.equal(run.code, 1);
          assert.match(run.out + run.err, /not one install wrote/);
          assert.equal((await runCliInProcess(["uninstall", "--agent", agent], opts)).code, 1);
          assert.equal(await Deno.readTextFile(`${root}/${project}`), mine);
        }),
    );
    await t.step(
      `--user: $XDG_CONFIG_HOME/${user.slice("xdg/".length)}, an unrestricted command`,
      () =>
        withRepo(async (root, home) => {
          const env = { HOME: home, XDG_CONFIG_HOME: `${home}/xdg` };
          const run = await runCliInProcess(["install", "--agent", agent, "--user"], {
            cwd: root,
            env,
          });
          assert.equal(run.code, 0, run.err);
          const text = await Deno.readTextFile(`${home}/${user}/session-restore.ts`);
          assert.equal(pluginCommand(agent, text), commandFor("user", root, agent as Agent));
        }),
    );
  });
}

Deno.test("install --agent kilo: beside opencode's plugin, each removes only its own", async () => {
  await withRepo(async (root, home) => {
    const opts = { cwd: root, env: { HOME: home } };
    for (const agent of ["opencode", "kilo"]) {
      assert.equal((await runCliInProcess(["install", "--agent", agent], opts)).code, 0);
    }
    const opencode = await Deno.readTextFile(`${root}/${PLUGIN}`);
    assert.equal(pluginCommand("kilo", opencode), undefined, "opencode's file is not kilo's");
    assert.equal((await runCliInProcess(["uninstall", "--agent", "kilo"], opts)).code, 0);
    await assert.rejects(Deno.stat(`${root}/${KILO_PLUGIN}`), Deno.errors.NotFound);
    assert.equal(await Deno.readTextFile(`${root}/${PLUGIN}`), opencode);
  });
});

/** The file `install --agent <agent>` writes its registration to, in the project. */
const REGISTERED: Record<string, string> = {
  codex: ".codex/hooks.json",
  qwen: ".qwen/settings.json",
  opencode: PLUGIN,
  copilot: ".github/hooks/session-restore.json",
  kilo: KILO_PLUGIN,
};

Deno.test("doctor --agent: a registration carrying another agent's --agent is a fix", async (t) => {
  for (const agent of Object.keys(REGISTERED)) {
    for (const [what, other] of [["another agent's", "--agent gemini"], ["no", ""]]) {
      await t.step(`${agent}: ${what} --agent`, () =>
        withRepo(async (root, home) => {
          const opts = { cwd: root, env: { HOME: home } };
          assert.equal((await runCliInProcess(["install", "--agent", agent], opts)).code, 0);
          const file = `${root}/${REGISTERED[agent]}`;
          const text = await Deno.readTextFile(file);
          assert.ok(text.includes(`--agent ${agent}`), text);
          const ok = await runCliInProcess(["doctor", "--agent", agent], opts);
          assert.doesNotMatch(ok.out, /lacks --agent/);
          // Only the registered command changes (a plugin file names its agent in a comment too).
          const edited = text.replace(
            /^.*session_restore\.ts.*$/m,
            (line) => line.replaceAll(` --agent ${agent}`, other && ` ${other}`),
          );
          await Deno.writeTextFile(file, edited);
          const run = await runCliInProcess(["doctor", "--agent", agent], opts);
          assert.equal(run.code, 1, run.out);
          assert.match(run.out, new RegExp(`lacks --agent ${agent}\\b.*fix: session\\.ts install`));
        }));
    }
  }
});
