import assert from "node:assert/strict";
import { CLI_FLAGS, hookCommand, PLUGIN_ROOT_VAR } from "../../lib/agents/command.ts";
import { findHooks } from "../../lib/agents/settings.ts";
import { AGENTS, CLAUDE } from "../../lib/agents/targets.ts";
import { join } from "../../lib/fs/path.ts";
import { REPO, scratchDir, scratchProject, writeDoc } from "../support/scratch.ts";
import { clearPayload, runCliProcess } from "../support/run.ts";
import { runRegistered as runHookCommand } from "../support/registered.ts";
import { installPoints } from "../../lib/cli/install.ts";
import { uninstallPoint } from "../../lib/cli/uninstall.ts";

async function readOr(path: string): Promise<string | undefined> {
  return await Deno.readTextFile(path).catch(() => undefined);
}

/** Runs a registered hook command as Claude Code does, launched in `projectDir`. */
function runRegistered(command: string, projectDir: string) {
  return runHookCommand(command, clearPayload(projectDir), { cwd: projectDir, projectDir });
}

Deno.test("install / uninstall: the hook in .claude/settings*.json", async (t) => {
  await using p = await scratchProject();
  const settings = join(p.root, ".claude", "settings.json");
  const original = `{
  // keep me
  "permissions": { "allow": ["Bash(ls:*)"] },
}
`;
  await Deno.writeTextFile(settings, original);

  await t.step(
    "install registers an absolute, least-privilege command with a timeout",
    async () => {
      const r = await runCliProcess(["install"], { cwd: p.root });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Installed: SessionStart \(clear, compact\) hook in .*settings\.json/);
      const text = await Deno.readTextFile(settings);
      assert.ok(text.includes("// keep me"));
      const [hook] = findHooks(text, CLAUDE);
      assert.equal(hook.matcher, "clear|compact");
      assert.equal(hook.timeout, 10);
      assert.equal(
        hook.command,
        hookCommand(join(REPO, "session_restore.ts"), { root: p.root, top: p.root }),
      );
      assert.match(hook.command, /--no-prompt/);
      assert.match(hook.command, new RegExp(`--allow-write=${p.root}/\\.claude/state/session `));
      assert.doesNotMatch(hook.command, /--allow-run|--allow-net|--allow-all|-A /);
      assert.equal(await readOr(join(p.root, ".gitignore")), ".claude/state/\n");
    },
  );

  await t.step("the registered command restores under exactly those permissions", async () => {
    await writeDoc(p.store, "fix-login", { body: "## Goal\n\nMARK-42\n" });
    const [hook] = findHooks(await Deno.readTextFile(settings), CLAUDE);
    const r = await runRegistered(hook.command, p.root);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /MARK-42/);
    const doc = await Deno.readTextFile(join(p.store.dir, "fix-login.md"));
    assert.match(doc, /consumed: true/);
  });

  await t.step("install again changes nothing", async () => {
    const before = await Deno.readTextFile(settings);
    const r = await runCliProcess(["install"], { cwd: p.root });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Already installed/);
    assert.equal(await Deno.readTextFile(settings), before);
    assert.equal(await readOr(join(p.root, ".gitignore")), ".claude/state/\n");
  });

  await t.step("doctor is happy", async () => {
    const r = await runCliProcess(["doctor"], { cwd: p.root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /✓ Deno 2\./);
    assert.match(r.stdout, /✓ hook in .*settings\.json \(project/);
    assert.match(r.stdout, /✓ store .*1 handover/);
    assert.match(r.stdout, /✓ \.claude\/state\/ is git-ignored/);
  });

  await t.step("uninstall leaves the file byte for byte as it was", async () => {
    const r = await runCliProcess(["uninstall"], { cwd: p.root });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await Deno.readTextFile(settings), original);
    const again = await runCliProcess(["uninstall"], { cwd: p.root });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /nothing to remove/);
  });

  await t.step("doctor names what to fix", async () => {
    const r = await runCliProcess(["doctor"], { cwd: p.root });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /✗ no SessionStart hook .* fix: session\.ts install/);
  });

  await t.step("doctor accepts the enabled plugin as the registration", async () => {
    await using homeDir = await scratchDir("session-home-");
    const home = homeDir.path;
    await Deno.mkdir(join(home, ".claude"));
    await Deno.writeTextFile(
      join(home, ".claude", "settings.json"),
      JSON.stringify({ enabledPlugins: { "session@session": true } }),
    );
    const r = await runCliProcess(["doctor"], { cwd: p.root, env: { HOME: home } });
    assert.match(r.stdout, /✓ hook from the plugin session@session/);
    assert.doesNotMatch(r.stdout, /no SessionStart hook/);
    await Deno.writeTextFile(
      join(home, ".claude", "settings.json"),
      JSON.stringify({ enabledPlugins: { "session@session": false } }),
    );
    const off = await runCliProcess(["doctor"], { cwd: p.root, env: { HOME: home } });
    assert.match(off.stdout, /✗ no SessionStart hook/);
  });

  await t.step("doctor spots a hook whose script moved away", async () => {
    await Deno.writeTextFile(
      settings,
      JSON.stringify(CLAUDE.entry("deno run /gone/session_restore.ts")).replace(
        /^/,
        '{"hooks":{"SessionStart":[',
      ) + "]}}",
    );
    const r = await runCliProcess(["doctor"], { cwd: p.root });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /✗ hook in .* runs \/gone\/session_restore\.ts, which does not exist/);
    await Deno.writeTextFile(settings, original);
  });

  await t.step(
    "--local writes settings.local.json; a file install created goes away",
    async () => {
      const local = join(p.root, ".claude", "settings.local.json");
      assert.equal((await runCliProcess(["install", "--local"], { cwd: p.root })).code, 0);
      assert.equal(findHooks(await Deno.readTextFile(local), CLAUDE).length, 1);
      assert.equal(await Deno.readTextFile(settings), original);
      assert.equal((await runCliProcess(["uninstall", "--local"], { cwd: p.root })).code, 0);
      assert.equal(await readOr(local), undefined);
    },
  );

  await t.step("bad JSON: refused with line and column, nothing changed", async () => {
    const bad = '{\n  "a": 1,\n  "b": [1 2]\n}\n';
    await Deno.writeTextFile(settings, bad);
    const r = await runCliProcess(["install"], { cwd: p.root });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /line 3, column 11/);
    assert.equal(await Deno.readTextFile(settings), bad);
    const d = await runCliProcess(["doctor"], { cwd: p.root });
    assert.match(d.stdout, /✗ .*settings\.json: invalid JSON at line 3/);
  });

  await t.step("usage mistakes exit 2 and name the options", async () => {
    for (
      const args of [
        ["install", "--nope"],
        ["uninstall", "x"],
        ["install", "--user", "--local"],
        ["doctor", "--user"],
      ]
    ) {
      const r = await runCliProcess(args, { cwd: p.root });
      assert.equal(r.code, 2, args.join(" "));
      assert.doesNotMatch(r.stderr, /at .*\.ts:\d+/, "no stack trace");
    }
    const h = await runCliProcess(["install", "--help"], { cwd: p.root });
    assert.equal(h.code, 0);
    assert.match(h.stdout, /--user/);
  });
});

Deno.test("install --user: ~/.claude/settings.json, root from the launch directory", async (t) => {
  await using p = await scratchProject();
  await using homeDir = await scratchDir("session-home-");
  const home = homeDir.path;
  const userSettings = join(home, ".claude", "settings.json");
  await t.step(
    "registers in the user's file with the project dir left to the shell",
    async () => {
      const r = await runCliProcess(["install", "--user"], { cwd: p.root, env: { HOME: home } });
      assert.equal(r.code, 0, r.stderr);
      const [hook] = findHooks(await Deno.readTextFile(userSettings), CLAUDE);
      assert.equal(hook.command, hookCommand(join(REPO, "session_restore.ts"), undefined));
      assert.equal(await readOr(join(p.root, ".claude", "settings.json")), undefined);
    },
  );
  await t.step("the command restores in any project", async () => {
    await writeDoc(p.store, "any", { body: "## Goal\n\nMARK-USER\n" });
    const [hook] = findHooks(await Deno.readTextFile(userSettings), CLAUDE);
    const r = await runRegistered(hook.command, p.root);
    assert.match(r.stdout, /MARK-USER/, r.stderr);
  });
  await t.step(
    "CLAUDE_CONFIG_DIR moves the user file; uninstall removes what install made",
    async () => {
      const config = join(home, "config");
      const env = { HOME: home, CLAUDE_CONFIG_DIR: config };
      assert.equal((await runCliProcess(["install", "--user"], { cwd: p.root, env })).code, 0);
      assert.ok(await readOr(join(config, "settings.json")));
      assert.equal((await runCliProcess(["uninstall", "--user"], { cwd: p.root, env })).code, 0);
      assert.equal(await readOr(join(config, "settings.json")), undefined);
      assert.equal(
        (await runCliProcess(["uninstall", "--user"], { cwd: p.root, env: { HOME: home } })).code,
        0,
      );
      assert.equal(await readOr(userSettings), undefined);
    },
  );
});

Deno.test("plugin and skill files agree with the code", async (t) => {
  await t.step("hooks/hooks.json runs the same command, from ${CLAUDE_PLUGIN_ROOT}", async () => {
    const hooks = JSON.parse(await Deno.readTextFile(join(REPO, "hooks", "hooks.json")));
    assert.deepEqual(
      hooks.hooks.SessionStart,
      [CLAUDE.entry(hookCommand(`${PLUGIN_ROOT_VAR}/session_restore.ts`, undefined))],
    );
    // Every event install registers, with the same entries (a plugin serves every project).
    assert.deepEqual(Object.keys(hooks.hooks), AGENTS.claude.targets.map((t) => t.hookPath[1]));
    for (const target of AGENTS.claude.targets) {
      assert.deepEqual(hooks.hooks[target.hookPath[1]], [
        target.entry(hookCommand(`${PLUGIN_ROOT_VAR}/session_restore.ts`, undefined)),
      ]);
    }
  });
  await t.step(
    ".claude-plugin/plugin.json names the plugin and points skills at the root",
    async () => {
      const plugin = JSON.parse(
        await Deno.readTextFile(join(REPO, ".claude-plugin", "plugin.json")),
      );
      assert.equal(plugin.name, "session");
      assert.deepEqual(plugin.skills, ["./"]);
    },
  );
  await t.step("SKILL.md: front matter, and the CLI run with its exact flags", async () => {
    const skill = await Deno.readTextFile(join(REPO, "SKILL.md"));
    assert.match(skill, /^---\nname: session\ndescription: .*\bdump\b.*\/clear.*\nargument-hint: /);
    assert.ok(
      skill.includes(`deno run ${CLI_FLAGS.join(" ")} \${CLAUDE_SKILL_DIR}/session.ts`),
      "SKILL.md runs session.ts with CLI_FLAGS from its own folder",
    );
    assert.ok(skill.split("\n").length < 80, "short: every line costs context");
  });
});

Deno.test("install's and uninstall's points flip between ✓ and ⚠ with the facts", async (t) => {
  await t.step("registered: every hook found on a re-read, or one missing", () => {
    const good = { hooks: 3, missing: [], git: true, ignored: true };
    assert.deepEqual(installPoints(good).map((p) => p.ok), [true, true]);
    const p = installPoints({ ...good, missing: ["SessionEnd in /p/.claude/settings.json"] })[0];
    assert.deepEqual([p.ok, p.fact], [
      false,
      "re-read: 1 of 3 not found: SessionEnd in /p/.claude/settings.json",
    ]);
  });
  await t.step("gitignore: not ignored in git is ⚠; outside git nothing to ignore", () => {
    const p = (git: boolean, ignored: boolean) =>
      installPoints({ hooks: 1, missing: [], git, ignored })[1].ok;
    assert.deepEqual([p(true, true), p(true, false), p(false, false)], [true, false, true]);
  });
  await t.step("removed: none left on a re-read, or one still there", () => {
    assert.equal(uninstallPoint(3, []).ok, true);
    assert.equal(uninstallPoint(3, ["SessionEnd in /p/s.json"]).ok, false);
  });
  await t.step("through the CLI: install and uninstall end with their block", async () => {
    await using p = await scratchProject({ store: false });
    const on = await runCliProcess(["install"], { cwd: p.root });
    assert.equal(on.code, 0, on.stderr);
    assert.match(on.stdout, /\n## Confidence\n✓ registered: re-read: 4 hooks, each in its file\n/);
    const off = await runCliProcess(["uninstall"], { cwd: p.root });
    assert.match(off.stdout, /\n✓ removed: 4 hooks removed; re-read: none of ours left\n$/);
  });
});
