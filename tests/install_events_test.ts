/**
 * install, uninstall and doctor for the continuity events as processes: SessionStart
 * `clear|compact`, SessionEnd with a settings timeout, PreCompact, for every scope and agent;
 * `--startup` and `--no-notice`; the transcript folder granted to SessionEnd and PreCompact only;
 * an older registration flagged and updated in place; uninstall byte for byte; the plugin.
 */

import assert from "node:assert/strict";
import { AGENTS, eventOf } from "../lib/agents/targets.ts";
import { findHooks } from "../lib/agents/settings.ts";
import { grantedPaths } from "../lib/agents/registered_command.ts";
import { join } from "../lib/fs/path.ts";
import { encodeProjectDir } from "../lib/transcript/paths.ts";
import { REPO, scratchDir, scratchProject } from "./support/scratch.ts";
import { clearPayload, runCliProcess } from "./support/run.ts";
import { installHook, registeredCommand, runRegistered } from "./support/registered.ts";

const EVENTS: Record<string, string[]> = {
  claude: ["SessionStart", "SessionEnd", "PreCompact", "UserPromptSubmit"],
  codex: ["SessionStart", "SessionEnd", "PreCompact", "UserPromptSubmit"],
  gemini: ["SessionStart", "BeforeAgent"],
  qwen: ["SessionStart"],
  opencode: ["SessionStart"],
  copilot: ["SessionStart", "PreCompact", "UserPromptSubmit"],
  kilo: ["SessionStart"],
  droid: ["SessionStart", "SessionEnd", "PreCompact"],
  cline: ["SessionStart"],
};

/** Every group of the agent's settings file, by event. */
type Groups = Record<string, Record<string, unknown>[]>;

async function groups(path: string): Promise<Groups> {
  return JSON.parse(await Deno.readTextFile(path)).hooks;
}

Deno.test("install registers every event, in every scope, for every agent", async (t) => {
  const cases = Object.values(AGENTS).flatMap((a) => a.scopes.map((s) => [a.name, s] as const));
  for (const [agent, scope] of cases) {
    await t.step(`${agent} ${scope}`, async () => {
      await using p = await scratchProject({ store: false });
      await using homeDir = await scratchDir("session-home-");
      const home = homeDir.path;
      const o = { agent: agent as "claude", scope, home };
      const start = await installHook(p.root, o);
      const spec = AGENTS[agent];
      const env = (name: string) => name === "HOME" ? home : undefined;
      const path = spec.targets[0].settingsPath(scope, { root: p.root, env });
      const text = await Deno.readTextFile(path);
      assert.deepEqual(
        spec.targets.filter((t) => findHooks(text, t).length > 0).map(eventOf),
        EVENTS[agent],
      );
      // opencode's and Kilo's registration is a plugin file, not a settings file.
      const hooks: Groups = spec.targets[0].file ? {} : await groups(path);
      if (!spec.targets[0].file) assert.deepEqual(Object.keys(hooks), EVENTS[agent]);
      const transcripts = agent === "claude"
        ? join(home, ".claude", "projects")
        : join(home, ".codex", "sessions");
      if (["qwen", "opencode", "kilo", "cline"].includes(agent)) {
        assert.equal(findHooks(text, spec.targets[0])[0].matcher, "clear|compact");
      } else if (agent === "copilot") {
        // Copilot's `new` stands for /clear and a launch alike: no matcher, the hook decides.
        assert.equal(findHooks(text, spec.targets[0])[0].matcher, "");
        assert.match(start, /with-deno'? --event SessionStart --flat run /);
      } else if (agent === "droid") {
        // Droid names its /clear's new session `resume`: the hook tells it from a real resume.
        assert.equal(hooks.SessionStart[0].matcher, "clear|compact|resume");
        assert.equal(hooks.SessionEnd[0].matcher, undefined, "every reason");
        assert.equal(hooks.PreCompact[0].matcher, undefined, "manual and auto");
        const end = hooks.SessionEnd[0].hooks as { timeout: number }[];
        assert.equal(end[0].timeout, 30);
      } else if (agent !== "gemini") {
        assert.equal(hooks.SessionStart[0].matcher, "clear|compact");
        assert.equal(hooks.SessionEnd[0].matcher, undefined, "every reason");
        assert.equal(hooks.PreCompact[0].matcher, undefined, "manual and auto");
        const end = hooks.SessionEnd[0].hooks as { timeout: number }[];
        assert.equal(end[0].timeout, agent === "claude" ? 30 : 3);
      }
      // Least privilege: only SessionEnd and PreCompact read the transcripts.
      const read = (cmd: string) => grantedPaths(cmd, "read");
      if (scope === "user") {
        assert.equal(read(start), undefined, "a user hook serves every project");
      } else {
        assert.deepEqual(read(start), [p.root, join(REPO, "lib")]);
        for (const event of EVENTS[agent].slice(1)) {
          const cmd = await registeredCommand(p.root, { ...o, event });
          assert.deepEqual(
            read(cmd),
            agent === "gemini" || agent === "copilot" || agent === "droid"
              ? [p.root, join(REPO, "lib")]
              : [p.root, join(REPO, "lib"), transcripts],
            event,
          );
          assert.deepEqual(grantedPaths(cmd, "write"), [join(p.root, ".claude/state/session")]);
        }
      }
      for (const event of EVENTS[agent].slice(1)) {
        const cmd = await registeredCommand(p.root, { ...o, event });
        assert.match(cmd, agent === "claude" ? /session_restore\.ts$/ : /--agent \w+$/);
        if (event === "BeforeAgent") continue;
        // The registered command runs under its permissions and never fails the session.
        const payload = clearPayload(p.root, { hook_event_name: event, source: undefined });
        const ran = await runRegistered(cmd, payload, { cwd: p.root, projectDir: p.root });
        assert.equal(ran.code, 0, ran.stderr);
        assert.doesNotMatch(ran.stderr, /NotCapable|Requires (read|write) access/);
      }
      const doctor = await runCliProcess(
        ["doctor", ...(agent === "claude" ? [] : ["--agent", agent])],
        { cwd: p.root, env: { HOME: home }, unset: ["CLAUDE_CONFIG_DIR", "CODEX_HOME"] },
      );
      assert.doesNotMatch(doctor.stdout, /✗ .*(hook|registration|matcher|transcripts)/);
      const again = await runCliProcess(
        ["install", ...(agent === "claude" ? [] : ["--agent", agent]), `--${scope}`].filter((a) =>
          a !== "--project"
        ),
        { cwd: p.root, env: { HOME: home }, unset: ["CLAUDE_CONFIG_DIR", "CODEX_HOME"] },
      );
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout.match(/Already installed/g)?.length, EVENTS[agent].length);
    });
  }
});

Deno.test("install --startup and --no-notice", async (t) => {
  await t.step(
    "claude: startup joins the matcher and the restore flags; reinstall drops them",
    async () => {
      await using p = await scratchProject();
      const settings = join(p.root, ".claude", "settings.json");
      const r = await runCliProcess(["install", "--startup", "--no-notice"], { cwd: p.root });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /SessionStart \(clear, compact, startup\) hook/);
      const hooks = await groups(settings);
      assert.equal(hooks.SessionStart[0].matcher, "clear|compact|startup");
      const [start] = findHooks(await Deno.readTextFile(settings), AGENTS.claude.targets[0]);
      assert.match(start.command, /session_restore\.ts --source startup --no-notice$/);
      for (const target of AGENTS.claude.targets.slice(1)) {
        const [h] = findHooks(await Deno.readTextFile(settings), target);
        assert.match(h.command, /session_restore\.ts$/, "only the restoring event takes them");
      }
      const d = await runCliProcess(["doctor"], { cwd: p.root });
      assert.equal(d.code, 0, d.stdout);
      assert.match(d.stdout, /also restores at startup/);
      // Installing again without them updates the entry in place.
      const plain = await runCliProcess(["install"], { cwd: p.root });
      assert.match(plain.stdout, /Installed \(updated\): SessionStart \(clear, compact\) hook/);
      const [after] = findHooks(await Deno.readTextFile(settings), AGENTS.claude.targets[0]);
      assert.equal(after.matcher, "clear|compact");
      assert.match(after.command, /session_restore\.ts$/);
    },
  );
  await t.step("codex and gemini", async () => {
    await using p = await scratchProject();
    for (const agent of ["codex", "gemini"]) {
      const r = await runCliProcess(["install", "--agent", agent, "--startup"], { cwd: p.root });
      assert.equal(r.code, 0, r.stderr);
    }
    const codex = await groups(join(p.root, ".codex", "hooks.json"));
    assert.equal(codex.SessionStart[0].matcher, "clear|compact|startup");
    const gemini = await groups(join(p.root, ".gemini", "settings.json"));
    // Gemini's lifecycle matchers are exact strings: none, and the hook's --source gate decides.
    assert.equal(gemini.SessionStart[0].matcher, undefined);
    const cmd = (gemini.SessionStart[0].hooks as { command: string }[])[0].command;
    assert.match(cmd, /--agent gemini --source startup$/);
    const d = await runCliProcess(["doctor", "--agent", "gemini"], { cwd: p.root });
    assert.match(d.stdout, /also runs on resume/);
  });
});

/** SessionStart `clear` only, as older installs wrote it (two spaces, LF). */
function olderSettings(command: string): string {
  return JSON.stringify(
    {
      model: "opus",
      hooks: {
        SessionStart: [
          { matcher: "startup", hooks: [{ type: "command", command: "echo mine" }] },
          { matcher: "clear", hooks: [{ type: "command", command, timeout: 10 }] },
        ],
        Stop: [{ hooks: [{ type: "command", command: "echo bye" }] }],
      },
    },
    null,
    2,
  ) + "\n";
}

Deno.test("an older registration: doctor says run install; install updates it in place", async () => {
  await using p = await scratchProject();
  const settings = join(p.root, ".claude", "settings.json");
  await Deno.mkdir(join(p.root, ".claude"), { recursive: true });
  const command = await (async () => {
    const first = await installHook(p.root);
    await Deno.remove(settings);
    return first;
  })();
  const older = olderSettings(command);
  await Deno.writeTextFile(settings, older);
  // The older registration keeps restoring after /clear.
  const d = await runCliProcess(["doctor"], { cwd: p.root });
  assert.equal(d.code, 1, d.stdout);
  assert.match(d.stdout, /✗ hook in .*matcher "clear"\) does not run on compact/);
  assert.match(
    d.stdout,
    /✗ .*settings\.json has an older registration \(no SessionEnd, no PreCompact; without SessionEnd .*\) — run install to update/,
  );
  assert.doesNotMatch(d.stdout, /no SessionEnd hook runs/, "said once, as the older registration");
  const r = await runCliProcess(["install"], { cwd: p.root });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Installed \(updated\): SessionStart/);
  assert.match(r.stdout, /Installed: SessionEnd hook/);
  const hooks = await groups(settings);
  assert.deepEqual(
    hooks.SessionStart.map((g) => g.matcher),
    ["startup", "clear|compact"],
    "in place",
  );
  assert.deepEqual(Object.keys(hooks), [
    "SessionStart",
    "Stop",
    "SessionEnd",
    "PreCompact",
    "UserPromptSubmit",
  ]);
  const ok = await runCliProcess(["doctor"], { cwd: p.root });
  assert.equal(ok.code, 0, ok.stdout);
  // uninstall removes all three, and nothing else.
  const u = await runCliProcess(["uninstall"], { cwd: p.root });
  assert.equal(u.code, 0, u.stderr);
  assert.match(
    u.stdout,
    /SessionStart hook removed[\s\S]*SessionEnd hook removed[\s\S]*PreCompact/,
  );
  const left = await groups(settings);
  assert.deepEqual(left.SessionStart.map((g) => g.matcher), ["startup"]);
  assert.deepEqual(Object.keys(left), ["SessionStart", "Stop"]);
});

Deno.test("a hook registered with V8 flags: doctor says run install; install rewrites it", async () => {
  await using p = await scratchProject();
  const settings = join(p.root, ".claude", "settings.json");
  const command = await installHook(p.root);
  const text = await Deno.readTextFile(settings);
  assert.ok(!text.includes("--v8-flags"), "installed without V8 flags");
  const older = "--no-prompt --v8-flags=--no-lazy,--baseline-batch-compilation-threshold=16384";
  await Deno.writeTextFile(settings, text.replaceAll("--no-prompt", older));
  const d = await runCliProcess(["doctor"], { cwd: p.root });
  assert.equal(d.code, 1, d.stdout);
  for (const event of ["", "SessionEnd ", "PreCompact "]) {
    assert.match(
      d.stdout,
      new RegExp(
        `✗ ${event}hook in .*settings\\.json .* runs with --v8-flags=--no-lazy,\\S+, an internal V8`,
      ),
      event || "SessionStart",
    );
  }
  const r = await runCliProcess(["install"], { cwd: p.root });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Installed \(updated\): SessionStart/);
  const after = await Deno.readTextFile(settings);
  assert.ok(!after.includes("--v8-flags"), "no V8 flags left");
  assert.equal(await registeredCommand(p.root), command);
  const ok = await runCliProcess(["doctor"], { cwd: p.root });
  assert.equal(ok.code, 0, ok.stdout);
});

Deno.test("a hook that runs Deno by name (before the launcher): doctor flags it; install rewrites it; uninstall removes it", async (t) => {
  for (const agent of ["claude", "codex", "gemini", "qwen", "opencode", "kilo"] as const) {
    await t.step(agent, async () => {
      await using p = await scratchProject();
      const flag = agent === "claude" ? [] : ["--agent", agent];
      const files = AGENTS[agent].targets.map((target) =>
        target.settingsPath("project", { root: p.root, env: () => undefined })
      );
      const commands = [];
      for (const target of AGENTS[agent].targets) {
        commands.push(await installHook(p.root, { agent, event: eventOf(target) }));
      }
      // The registration an install before the launcher wrote: `deno run …` in its place.
      const older = async () => {
        for (const file of new Set(files)) {
          const text = await Deno.readTextFile(file);
          const old = text.replaceAll(/sh \S*bin\/with-deno --event \w+ run /g, "deno run ");
          assert.notEqual(old, text, file);
          await Deno.writeTextFile(file, old);
        }
      };
      await older();
      const d = await runCliProcess(["doctor", ...flag], { cwd: p.root });
      assert.equal(d.code, 1, d.stdout);
      const flagged = d.stdout.split("\n").filter((l) => l.includes("runs Deno by name"));
      assert.equal(flagged.length, AGENTS[agent].targets.length, d.stdout);
      for (const line of flagged) assert.match(line, /^✗ .*fix: session\.ts install.*in place\)$/);
      const r = await runCliProcess(["install", ...flag], { cwd: p.root });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Installed \(updated\): SessionStart/);
      for (const [i, target] of AGENTS[agent].targets.entries()) {
        assert.equal(
          await registeredCommand(p.root, { agent, event: eventOf(target) }),
          commands[i],
        );
      }
      const fixed = await runCliProcess(["doctor", ...flag], { cwd: p.root });
      assert.doesNotMatch(fixed.stdout, /runs Deno by name/);
      await older();
      const u = await runCliProcess(["uninstall", ...flag], { cwd: p.root });
      assert.equal(u.code, 0, u.stderr);
      assert.match(u.stdout, /✓ removed: .*none of ours left/);
    });
  }
});

Deno.test("uninstall restores a commented file byte for byte after the multi-event install", async () => {
  await using p = await scratchProject();
  await using homeDir = await scratchDir("session-home-");
  for (
    const [args, path] of [
      [[], join(p.root, ".claude", "settings.json")],
      [["--local"], join(p.root, ".claude", "settings.local.json")],
      [["--user"], join(homeDir.path, ".claude", "settings.json")],
    ] as const
  ) {
    const original = '{\n  // mine\n  "hooks": {\n    "Stop": [],\n  },\n  "model": "opus"\n}\n';
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, original);
    const env = { HOME: homeDir.path };
    const unset = ["CLAUDE_CONFIG_DIR"];
    assert.equal((await runCliProcess(["install", ...args], { cwd: p.root, env, unset })).code, 0);
    assert.equal(
      (await runCliProcess(["install", "--startup", ...args], { cwd: p.root, env, unset })).code,
      0,
    );
    assert.equal(
      (await runCliProcess(["uninstall", ...args], { cwd: p.root, env, unset })).code,
      0,
    );
    assert.equal(await Deno.readTextFile(path), original, args.join(" ") || "project");
  }
});

Deno.test("doctor and the plugin", async (t) => {
  await using p = await scratchProject();
  await using homeDir = await scratchDir("session-home-");
  const home = homeDir.path;
  // The plugin enabled in the user's settings; the store already ignored.
  const files = {
    [join(home, ".claude", "settings.json")]: { enabledPlugins: { "session@session": true } },
    [join(p.root, ".gitignore")]: ".claude/state/\n",
  };
  for (const [path, content] of Object.entries(files)) {
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, typeof content === "string" ? content : JSON.stringify(content));
  }
  const env = { HOME: home };
  const unset = ["CLAUDE_CONFIG_DIR"];
  await t.step("plugin only: SessionEnd fits 1.5 s for small transcripts, said so", async () => {
    const r = await runCliProcess(["doctor"], { cwd: p.root, env, unset });
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /✓ hook from the plugin session@session/);
    assert.match(r.stdout, /✓ SessionEnd hook from the plugin .*cannot raise Claude Code's 1\.5 s/);
    assert.match(r.stdout, /✓ PreCompact hook from the plugin/);
  });
  await t.step("plugin only, big transcripts: a fix", async () => {
    const folder = join(home, ".claude", "projects", encodeProjectDir(p.root));
    await Deno.mkdir(folder, { recursive: true });
    using file = await Deno.create(join(folder, "big.jsonl"));
    await file.truncate(6 * 1024 * 1024);
    const r = await runCliProcess(["doctor"], { cwd: p.root, env, unset });
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stdout,
      /✗ SessionEnd runs only from the plugin .*reach 6\.0 MB.*may not finish in 1\.5 s/,
    );
  });
  await t.step("settings plus plugin: Claude Code runs both", async () => {
    assert.equal((await runCliProcess(["install"], { cwd: p.root, env, unset })).code, 0);
    const r = await runCliProcess(["doctor"], { cwd: p.root, env, unset });
    assert.equal(r.code, 1, r.stdout);
    for (const event of ["SessionStart", "SessionEnd", "PreCompact"]) {
      assert.match(
        r.stdout,
        new RegExp(`✗ ${event} is registered in .* and by the plugin .*runs both`),
      );
    }
  });
});

Deno.test("install --no-nudge leaves UserPromptSubmit out (and removes it); --nudge A,B", async (t) => {
  await using p = await scratchProject();
  const settings = join(p.root, ".claude", "settings.json");
  await t.step(
    "--no-nudge after an install removes only the nudge; doctor is content",
    async () => {
      await installHook(p.root);
      const r = await runCliProcess(["install", "--no-nudge"], { cwd: p.root });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Removed: UserPromptSubmit hook from /);
      assert.match(r.stdout, /re-read: 3 hooks, each in its file/);
      assert.deepEqual(Object.keys(await groups(settings)), [
        "SessionStart",
        "SessionEnd",
        "PreCompact",
      ]);
      const d = await runCliProcess(["doctor"], { cwd: p.root });
      assert.equal(d.code, 0, d.stdout);
      assert.match(d.stdout, /no UserPromptSubmit hook: no context-pressure nudge/);
      assert.doesNotMatch(d.stdout, /older registration/);
    },
  );
  await t.step("--nudge 60,80 registers it again with its thresholds", async () => {
    const command = await installHook(p.root, {
      flags: ["--nudge", "60,80"],
      event: "UserPromptSubmit",
    });
    assert.match(command, / --nudge 60,80$/);
  });
  await t.step("a bad --nudge, or both flags, is a usage error naming the fix", async () => {
    for (const args of [["--nudge", "0,80"], ["--nudge", "70", "--no-nudge"], ["--nudge", "x"]]) {
      const r = await runCliProcess(["install", ...args], { cwd: p.root });
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, /--nudge/);
    }
  });
});
