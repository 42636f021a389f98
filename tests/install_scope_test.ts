/**
 * install for every scope and agent, as the agent then runs the hook: the same store as the CLI
 * from every launch directory, no user settings without a home, symlinked files kept as links,
 * the gitignore fixed where doctor says it is not, and doctor's view of LATEST and the grants.
 */

import assert from "node:assert/strict";
import { AGENTS, type Scope } from "../lib/agents/targets.ts";
import { join } from "../lib/fs/path.ts";
import { PLUGIN_ROOT_VAR } from "../lib/agents/command.ts";
import { onDispose, REPO, scratchDir, scratchProject, writeDoc } from "./support/scratch.ts";
import { clearPayload, runCliProcess } from "./support/run.ts";
import { installHook, reasonOf, runRegistered } from "./support/registered.ts";

/** Where Deno keeps its cache, so a child run without HOME still finds it offline. */
function denoDir(): string {
  const dir = Deno.env.get("DENO_DIR");
  if (dir) return dir;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  return xdg ? join(xdg, "deno") : join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** The plugin's command as Claude Code runs it: `${CLAUDE_PLUGIN_ROOT}` replaced by the checkout. */
async function pluginCommand(): Promise<string> {
  const hooks = JSON.parse(await Deno.readTextFile(join(REPO, "hooks", "hooks.json")));
  return (hooks.hooks.SessionStart[0].hooks[0].command as string).replaceAll(PLUGIN_ROOT_VAR, REPO);
}

Deno.test("install: the hook finds the CLI's store from every launch directory", async (t) => {
  const cases: { agent: "claude" | "codex" | "gemini"; scope: Scope | "plugin" }[] = [
    { agent: "claude", scope: "project" },
    { agent: "claude", scope: "local" },
    { agent: "claude", scope: "user" },
    { agent: "claude", scope: "plugin" },
    { agent: "codex", scope: "project" },
    { agent: "codex", scope: "user" },
  ];
  for (const { agent, scope } of cases) {
    await t.step(`${agent} ${scope}: launched in a package two levels down`, async () => {
      await using p = await scratchProject({ store: false });
      await using homeDir = await scratchDir("session-home-");
      const home = homeDir.path;
      const sub = join(p.root, "packages", "web");
      await Deno.mkdir(sub, { recursive: true });
      const command = scope === "plugin"
        ? await pluginCommand()
        : await installHook(p.root, { agent, scope, home, cwd: sub });
      // The agent's Bash tool: no CLAUDE_PROJECT_DIR, started in the launch directory.
      const dump = await runCliProcess(["dump", "web-work"], {
        cwd: sub,
        stdin: "## Goal\n\nMARK-SUB\n",
      });
      assert.equal(dump.code, 0, dump.stderr);
      assert.ok(await exists(join(p.store.dir, "web-work.md")), "the CLI wrote the top store");
      const payload = clearPayload(sub);
      const r = await runRegistered(command, payload, {
        cwd: sub,
        projectDir: agent === "codex" ? undefined : sub,
      });
      assert.equal(r.code, 0);
      assert.match(r.stdout, /MARK-SUB/, r.stderr);
      assert.match(await Deno.readTextFile(join(p.store.dir, "web-work.md")), /consumed: true/);
      const again = await runRegistered(command, payload, { cwd: sub, projectDir: sub });
      assert.equal(again.stdout, "");
      assert.equal(reasonOf(again), "no LATEST pointer", again.stderr);
    });
  }

  await t.step("a nearer store wins for the CLI and the hook alike", async () => {
    await using p = await scratchProject();
    const pkg = join(p.root, "pkg");
    const sub = join(pkg, "src");
    await Deno.mkdir(join(pkg, ".claude", "state", "session"), { recursive: true });
    await Deno.mkdir(sub);
    const dump = await runCliProcess(["dump", "inner"], {
      cwd: sub,
      stdin: "## Goal\n\nMARK-IN\n",
    });
    assert.equal(dump.code, 0, dump.stderr);
    assert.ok(await exists(join(pkg, ".claude/state/session/inner.md")), dump.stdout);
    // A project install at the top may not write the nested store: it says so and names the fix.
    const command = await installHook(p.root);
    const r = await runRegistered(command, clearPayload(sub), { cwd: sub, projectDir: sub });
    assert.equal(r.stdout, "");
    assert.match(reasonOf(r) ?? "", /may not write the store .*pkg\/\.claude.*install --dir/);
    // A hook that serves every project (--user) restores it.
    await using homeDir = await scratchDir("session-home-");
    const home = homeDir.path;
    const user = await installHook(p.root, { scope: "user", home });
    const u = await runRegistered(user, clearPayload(sub), { cwd: sub, projectDir: sub });
    assert.match(u.stdout, /MARK-IN/, u.stderr);
  });
});

/** A home directory that does not exist (a sibling of the scratch folders, removed if made). */
const MISSING_HOME = join(
  await Deno.realPath(Deno.env.get("TMPDIR") ?? "/tmp"),
  `session-no-home-${crypto.randomUUID()}`,
);

Deno.test("install --user without a usable home refuses and writes nothing", async (t) => {
  const variants: [string, Record<string, string>, string[]][] = [
    ["HOME unset", {}, ["HOME"]],
    ["HOME empty", { HOME: "" }, []],
    ["CLAUDE_CONFIG_DIR empty", { CLAUDE_CONFIG_DIR: "" }, []],
    ["HOME missing", { HOME: MISSING_HOME }, []],
  ];
  for (const agent of Object.keys(AGENTS)) {
    for (const [name, env, unset] of variants) {
      if (name.startsWith("CLAUDE_CONFIG_DIR") && agent !== "claude") continue;
      await t.step(`${agent}: ${name}`, async () => {
        await using p = await scratchProject();
        await using _home = onDispose(() =>
          Deno.remove(MISSING_HOME, { recursive: true }).catch(() => {})
        );
        for (const mode of ["install", "uninstall"]) {
          const r = await runCliProcess([mode, "--user", "--agent", agent], {
            cwd: p.root,
            env: { DENO_DIR: denoDir(), ...env },
            unset: ["CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", ...unset],
          });
          assert.equal(r.code, 2, `${mode}: ${r.stdout}${r.stderr}`);
          assert.match(r.stderr, /fix: .*set HOME/);
          assert.doesNotMatch(r.stderr, /at .*\.ts:\d+/, "no stack trace");
        }
        const left = [...Deno.readDirSync(p.root)].map((e) => e.name).sort();
        assert.deepEqual(left, [".claude", ".git"], "nothing written in the project");
        assert.deepEqual([...Deno.readDirSync(join(p.root, ".claude"))].map((e) => e.name), [
          "state",
        ]);
        assert.equal(await exists(MISSING_HOME), false);
        const doctor = await runCliProcess(["doctor", "--agent", agent], {
          cwd: p.root,
          env: { DENO_DIR: denoDir(), ...env },
          unset: ["CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", ...unset],
        });
        assert.match(doctor.stdout, /· user settings not checked: .*fix: /);
      });
    }
  }
});

Deno.test("install / uninstall edit a symlinked settings file and keep the link", async (t) => {
  for (const scope of ["project", "user"] as const) {
    await t.step(scope, async () => {
      await using p = await scratchProject();
      await using homeDir = await scratchDir("session-home-");
      const home = homeDir.path;
      await using dotfilesDir = await scratchDir("session-dotfiles-");
      const dotfiles = dotfilesDir.path;
      const original = '{\n  // mine\n  "model": "opus"\n}\n';
      const target = join(dotfiles, "settings.json");
      await Deno.writeTextFile(target, original);
      const dir = scope === "user" ? join(home, ".claude") : join(p.root, ".claude");
      await Deno.mkdir(dir, { recursive: true });
      const link = join(dir, "settings.json");
      await Deno.symlink(target, link);
      const args = scope === "user" ? ["--user"] : [];
      const env = { HOME: home };
      assert.equal((await runCliProcess(["install", ...args], { cwd: p.root, env })).code, 0);
      assert.ok((await Deno.lstat(link)).isSymlink, "still a link after install");
      assert.match(await Deno.readTextFile(target), /session_restore\.ts/);
      assert.match(await Deno.readTextFile(target), /\/\/ mine/);
      assert.equal((await runCliProcess(["uninstall", ...args], { cwd: p.root, env })).code, 0);
      assert.ok((await Deno.lstat(link)).isSymlink, "still a link after uninstall");
      assert.equal(await Deno.readTextFile(target), original);
    });
  }

  await t.step("an emptied linked file stays, as {}", async () => {
    await using p = await scratchProject();
    await using dotfilesDir = await scratchDir("session-dotfiles-");
    const dotfiles = dotfilesDir.path;
    const target = join(dotfiles, "settings.local.json");
    await Deno.mkdir(join(p.root, ".claude"), { recursive: true });
    const link = join(p.root, ".claude", "settings.local.json");
    await Deno.symlink(target, link);
    assert.equal((await runCliProcess(["install", "--local"], { cwd: p.root })).code, 0);
    assert.ok((await Deno.lstat(link)).isSymlink);
    assert.equal((await runCliProcess(["uninstall", "--local"], { cwd: p.root })).code, 0);
    assert.ok((await Deno.lstat(link)).isSymlink);
    assert.equal(await Deno.readTextFile(target), "{}\n");
  });

  await t.step("a symlinked .gitignore is edited through the link", async () => {
    await using p = await scratchProject();
    await Deno.writeTextFile(join(p.root, "shared.gitignore"), "node_modules/\n");
    await Deno.symlink("shared.gitignore", join(p.root, ".gitignore"));
    assert.equal((await runCliProcess(["install"], { cwd: p.root })).code, 0);
    assert.ok((await Deno.lstat(join(p.root, ".gitignore"))).isSymlink);
    assert.equal(
      await Deno.readTextFile(join(p.root, "shared.gitignore")),
      "node_modules/\n.claude/state/\n",
    );
  });
});

Deno.test("install fixes every .gitignore doctor flags, keeping its bytes", async (t) => {
  const texts = [
    ".claude/state/\n!.claude/state/\n",
    " .claude/state/\n",
    "  .claude  \r\n",
    "# mine\n.claude/\n!.claude/state/",
  ];
  for (const text of texts) {
    await t.step(JSON.stringify(text), async () => {
      await using p = await scratchProject();
      await Deno.writeTextFile(join(p.root, ".gitignore"), text);
      const before = await runCliProcess(["doctor"], { cwd: p.root });
      assert.match(before.stdout, /✗ \.claude\/state\/ is not git-ignored/);
      const r = await runCliProcess(["install"], { cwd: p.root });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Added \.claude\/state\//);
      const after = await Deno.readTextFile(join(p.root, ".gitignore"));
      assert.ok(after.startsWith(text), "every byte before is kept");
      const doctor = await runCliProcess(["doctor"], { cwd: p.root });
      assert.match(doctor.stdout, /✓ \.claude\/state\/ is git-ignored/);
      assert.equal(doctor.code, 0, doctor.stdout);
    });
  }
});

Deno.test("doctor flags a LATEST that names no handover", async () => {
  await using p = await scratchProject();
  assert.equal((await runCliProcess(["install"], { cwd: p.root })).code, 0);
  await writeDoc(p.store, "present");
  assert.equal((await runCliProcess(["doctor"], { cwd: p.root })).code, 0);
  for (const latest of ["gone", "../x"]) {
    await Deno.writeTextFile(p.store.latest, `${latest}\n`);
    const r = await runCliProcess(["doctor"], { cwd: p.root });
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /✗ store .*LATEST names ".*", which is not a handover there/);
    assert.doesNotMatch(r.stdout, /All good/);
  }
});
