/**
 * `install`, `uninstall` and `doctor` with `--agent codex` and `--agent gemini`: the files and
 * entries each agent reads (as verified in Codex CLI 0.171.0 and Gemini CLI 0.61.0), kept comments
 * and keys, idempotence, exact removal, and doctor's agent checks.
 */
import assert from "node:assert/strict";
import {} from "../../lib/agents/targets.ts";
import { codexHome, geminiHome } from "../../lib/agents/homes.ts";
import { commandFor } from "../../lib/agents/registration.ts";
import {
  codexHooksDisabled,
  codexProjectTrusted,
  codexTrustRecorded,
  tomlTable,
} from "../../lib/agents/trust.ts";
import { REPO, scratchDir, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";

async function withRepo(fn: (root: string, home: string) => Promise<void>) {
  await using repo = await scratchProject({ git: "repo", store: false });
  await using homeDir = await scratchDir("agents-home-");
  const home = homeDir.path;
  await fn(repo.root, home);
}

const envOf = (home: string, extra: Record<string, string> = {}) => ({ HOME: home, ...extra });

Deno.test("install --agent codex", async (t) => {
  await t.step(
    "writes .codex/hooks.json: SessionStart, matcher clear|compact, seconds, --agent codex",
    () =>
      withRepo(async (root, home) => {
        const run = await runCliInProcess(["install", "--agent", "codex"], {
          cwd: root,
          env: envOf(home),
        });
        assert.equal(run.code, 0, run.err);
        const hooks = JSON.parse(await Deno.readTextFile(`${root}/.codex/hooks.json`));
        const group = hooks.hooks.SessionStart[0];
        assert.equal(group.matcher, "clear|compact");
        assert.equal(group.hooks[0].type, "command");
        assert.equal(group.hooks[0].timeout, 10);
        assert.equal(group.hooks[0].command, commandFor("project", root, "codex"));
        assert.match(group.hooks[0].command, /session_restore\.ts --agent codex$/);
        assert.match(group.hooks[0].command, new RegExp(`--allow-read=${root},${REPO}/lib `));
        assert.match(run.out, /trust/i, "says the hook needs Codex's trust");
      }),
  );
  await t.step(
    "idempotent; keeps other hooks and comments; uninstall restores the bytes",
    () =>
      withRepo(async (root, home) => {
        await Deno.mkdir(`${root}/.codex`);
        const before = `{
  // mine
  "hooks": {
    "Stop": [{ "hooks": [{ "type": "command", "command": "echo bye" }] }]
  }
}
`;
        await Deno.writeTextFile(`${root}/.codex/hooks.json`, before);
        const env = envOf(home);
        assert.equal(
          (await runCliInProcess(["install", "--agent", "codex"], { cwd: root, env })).code,
          0,
        );
        const once = await Deno.readTextFile(`${root}/.codex/hooks.json`);
        assert.ok(once.includes("// mine") && once.includes("echo bye"));
        const again = await runCliInProcess(["install", "--agent", "codex"], { cwd: root, env });
        assert.match(again.out, /Already installed/);
        assert.equal(await Deno.readTextFile(`${root}/.codex/hooks.json`), once);
        assert.equal(
          (await runCliInProcess(["uninstall", "--agent", "codex"], { cwd: root, env })).code,
          0,
        );
        assert.equal(await Deno.readTextFile(`${root}/.codex/hooks.json`), before);
      }),
  );
  await t.step(
    "--user: CODEX_HOME or ~/.codex, unscoped read/write",
    () =>
      withRepo(async (root, home) => {
        const run = await runCliInProcess(["install", "--agent", "codex", "--user"], {
          cwd: root,
          env: envOf(home, { CODEX_HOME: `${home}/cx` }),
        });
        assert.equal(run.code, 0, run.err);
        const hooks = JSON.parse(await Deno.readTextFile(`${home}/cx/hooks.json`));
        const command = hooks.hooks.SessionStart[0].hooks[0].command;
        assert.match(
          command,
          /--allow-read --allow-write --allow-env=\S+ \S+session_restore\.ts --agent codex$/,
        );
        assert.equal(
          codexHome((n) => ({ HOME: home } as Record<string, string>)[n]),
          `${home}/.codex`,
        );
      }),
  );
  await t.step(
    "--local is a usage error naming the scopes Codex has",
    () =>
      withRepo(async (root, home) => {
        const run = await runCliInProcess(["install", "--agent", "codex", "--local"], {
          cwd: root,
          env: envOf(home),
        });
        assert.equal(run.code, 2);
        assert.match(run.err, /--local/);
      }),
  );
  await t.step(
    "an unknown agent is a usage error listing the agents",
    () =>
      withRepo(async (root, home) => {
        const run = await runCliInProcess(["install", "--agent", "cursor"], {
          cwd: root,
          env: envOf(home),
        });
        assert.equal(run.code, 2);
        assert.match(run.err, /claude, codex, gemini/);
      }),
  );
});

Deno.test("install --agent gemini", async (t) => {
  await t.step(
    "SessionStart (matcher clear) and BeforeAgent, named, timeouts in ms",
    () =>
      withRepo(async (root, home) => {
        const run = await runCliInProcess(["install", "--agent", "gemini"], {
          cwd: root,
          env: envOf(home),
        });
        assert.equal(run.code, 0, run.err);
        const s = JSON.parse(await Deno.readTextFile(`${root}/.gemini/settings.json`));
        const start = s.hooks.SessionStart[0];
        const deliver = s.hooks.BeforeAgent[0];
        assert.equal(start.matcher, "clear");
        assert.equal(deliver.matcher, undefined);
        for (const group of [start, deliver]) {
          assert.equal(group.hooks[0].name, "session-restore");
          assert.equal(group.hooks[0].timeout, 10_000);
          assert.match(group.hooks[0].command, /session_restore\.ts --agent gemini$/);
        }
      }),
  );
  await t.step(
    "keeps the user's settings; uninstall removes both, byte for byte",
    () =>
      withRepo(async (root, home) => {
        await Deno.mkdir(`${root}/.gemini`);
        const before = `{\n  "ui": { "theme": "GitHub" } // keep\n}\n`;
        await Deno.writeTextFile(`${root}/.gemini/settings.json`, before);
        const env = envOf(home);
        assert.equal(
          (await runCliInProcess(["install", "--agent", "gemini"], { cwd: root, env })).code,
          0,
        );
        const s = await Deno.readTextFile(`${root}/.gemini/settings.json`);
        assert.ok(s.includes('"theme": "GitHub"') && s.includes("// keep"));
        assert.equal(
          (await runCliInProcess(["uninstall", "--agent", "gemini"], { cwd: root, env })).code,
          0,
        );
        assert.equal(await Deno.readTextFile(`${root}/.gemini/settings.json`), before);
      }),
  );
  await t.step("--user honours GEMINI_CLI_HOME", () =>
    withRepo(async (root, home) => {
      const env = envOf(home, { GEMINI_CLI_HOME: `${home}/g` });
      assert.equal(
        (await runCliInProcess(["install", "--agent", "gemini", "--user"], { cwd: root, env }))
          .code,
        0,
      );
      assert.ok(await Deno.stat(`${home}/g/.gemini/settings.json`));
      assert.equal(geminiHome((n) => env[n as keyof typeof env]), `${home}/g/.gemini`);
    }));
});

Deno.test("doctor --agent", async (t) => {
  await t.step(
    "codex: not installed is a fix; installed says what Codex still needs",
    () =>
      withRepo(async (root, home) => {
        const env = envOf(home);
        const missing = await runCliInProcess(["doctor", "--agent", "codex"], { cwd: root, env });
        assert.equal(missing.code, 1);
        assert.match(missing.out, /install --agent codex/);
        await runCliInProcess(["install", "--agent", "codex"], { cwd: root, env });
        await Deno.mkdir(`${home}/.codex`, { recursive: true });
        await Deno.writeTextFile(`${home}/.codex/config.toml`, "[features]\nhooks = false\n");
        const off = await runCliInProcess(["doctor", "--agent", "codex"], { cwd: root, env });
        assert.equal(off.code, 1);
        assert.match(off.out, /hooks = false/);
        await Deno.writeTextFile(`${home}/.codex/config.toml`, "");
        const on = await runCliInProcess(["doctor", "--agent", "codex"], { cwd: root, env });
        assert.match(on.out, /Trust all and continue/);
      }),
  );
  await t.step("gemini: only half registered is a fix", () =>
    withRepo(async (root, home) => {
      const env = envOf(home);
      await Deno.mkdir(`${root}/.gemini`);
      await Deno.writeTextFile(
        `${root}/.gemini/settings.json`,
        JSON.stringify({
          hooks: {
            SessionStart: [{
              matcher: "clear",
              hooks: [{ type: "command", command: "deno run x/session_restore.ts --agent gemini" }],
            }],
          },
        }),
      );
      const run = await runCliInProcess(["doctor", "--agent", "gemini"], { cwd: root, env });
      assert.equal(run.code, 1);
      assert.match(run.out, /BeforeAgent/);
    }));
  await t.step("the TOML reads: tables, flags, trust records", () => {
    const toml = [
      'model = "x" # c',
      "[features]",
      "codex_hooks = false # old name",
      '[projects."/p"]',
      'trust_level = "trusted"',
      '[hooks.state."/p/.codex/hooks.json:session_start:0:0"]',
      'trusted_hash = "sha256:00"',
    ].join("\n");
    assert.deepEqual(tomlTable(toml, "features"), ["codex_hooks = false"]);
    assert.equal(codexHooksDisabled(toml), true);
    assert.equal(codexHooksDisabled("[features]\nhooks = true\n"), false);
    assert.equal(codexHooksDisabled("hooks = false\n"), false, "outside [features]");
    assert.equal(codexProjectTrusted(toml, "/p"), true);
    assert.equal(codexProjectTrusted(toml, "/q"), false);
    assert.equal(codexTrustRecorded(toml, "/p/.codex/hooks.json"), true);
    assert.equal(codexTrustRecorded(toml, "/q/.codex/hooks.json"), false);
  });
});
