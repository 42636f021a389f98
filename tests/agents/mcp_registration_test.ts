/**
 * `install --mcp`, `uninstall --mcp` and `doctor --mcp` for every MCP client: the file and entry
 * each reads, the command through bin/with-deno, an existing file's other servers, comments and
 * bytes kept (Codex's TOML too), exactly our entry removed, somebody else's `session` left alone,
 * an older command updated in place, the scopes each client has.
 */
import assert from "node:assert/strict";
import {
  MCP_CLIENTS,
  mcpClientOf,
  mcpFile,
  serverWords,
  tomlBlock,
  withoutServer,
  withServer,
} from "../../lib/agents/mcp_registration.ts";
import { join, parentDir } from "../../lib/fs/path.ts";
import { parseTree } from "jsonc-parser";
import { runCliInProcess } from "../support/run.ts";
import { scratchDir, scratchProject } from "../support/scratch.ts";

const ENTRY_OF: Record<string, (v: Record<string, unknown>) => unknown> = {
  claude: (v) => (v.mcpServers as Record<string, unknown>)?.session,
  codex: () => undefined,
  gemini: (v) => (v.mcpServers as Record<string, unknown>)?.session,
  qwen: (v) => (v.mcpServers as Record<string, unknown>)?.session,
  opencode: (v) => (v.mcp as Record<string, unknown>)?.session,
  cursor: (v) => (v.mcpServers as Record<string, unknown>)?.session,
  vscode: (v) => (v.servers as Record<string, unknown>)?.session,
};

async function withProject(fn: (root: string, home: string) => Promise<void>) {
  await using p = await scratchProject({ git: "repo", store: false });
  await using h = await scratchDir("mcp-home-");
  await fn(p.root, h.path);
}

const cli = (args: string[], root: string, home: string) =>
  runCliInProcess(args, { cwd: root, env: { HOME: home } });

Deno.test("install --mcp: each client's file and entry", async (t) => {
  const words = serverWords();
  for (const name of Object.keys(MCP_CLIENTS)) {
    await t.step(name, () =>
      withProject(async (root, home) => {
        const agent = name === "claude" ? [] : ["--agent", name];
        const run = await cli(["install", "--mcp", ...agent], root, home);
        assert.equal(run.code, 0, run.err);
        const path = mcpFile(mcpClientOf(name), "project", root, (n) =>
          n === "HOME" ? home : undefined);
        assert.match(run.out, new RegExp(`^Installed: MCP server "session" in ${path}$`, "m"));
        assert.match(run.out, /^✓ registered: /m);
        const text = await Deno.readTextFile(path);
        if (name === "codex") {
          assert.equal(
            text,
            `[mcp_servers.session]\ncommand = "sh"\nargs = [${
              words.slice(1).map((w) => JSON.stringify(w)).join(", ")
            }]\n`,
          );
        } else {
          const entry = ENTRY_OF[name](JSON.parse(text)) as Record<string, unknown>;
          const got = Array.isArray(entry.command)
            ? entry.command
            : [entry.command, ...(entry.args as string[])];
          assert.deepEqual(got, words);
          if (name === "opencode") {
            assert.equal(entry.type, "local");
          }
          if (name === "claude" || name === "vscode") {
            assert.equal(entry.type, "stdio");
          }
        }
        assert.match(words[1], /bin\/with-deno$/);
        assert.match(await Deno.readTextFile(join(root, ".gitignore")), /\.claude\/state\//);
        const again = await cli(["install", "--mcp", ...agent], root, home);
        assert.match(again.out, /^Already installed: /m);
        const doctor = await cli(["doctor", "--mcp", ...agent], root, home);
        assert.equal(doctor.code, 0, doctor.out);
        assert.match(doctor.out, /✓ .*MCP server "session" in /);
        const un = await cli(["uninstall", "--mcp", ...agent], root, home);
        assert.equal(un.code, 0, un.err);
        await assert.rejects(
          Deno.stat(path),
          Deno.errors.NotFound,
          "a file install made is removed",
        );
        const none = await cli(["uninstall", "--mcp", ...agent], root, home);
        assert.equal(none.code, 1);
        assert.match(none.err, /no session MCP server in /);
        const after = await cli(["doctor", "--mcp", ...agent], root, home);
        assert.equal(after.code, 1);
        assert.match(after.out, /✗ .*no MCP server "session" registered/);
      }));
  }
});

Deno.test("install --mcp keeps what the file held; uninstall restores its bytes", async (t) => {
  const env = (home: string) => (n: string) => n === "HOME" ? home : undefined;
  const jsonFiles: Record<string, string> = {
    claude: '{\n  // ours too\n  "mcpServers": {\n    "other": { "command": "x" }\n  }\n}\n',
    gemini: '{\n    "theme": "dark",\n    "mcpServers": {}\n}\n',
    opencode: '{\n  "$schema": "https://opencode.ai/config.json",\n  "model": "m"\n}\n',
    vscode:
      '{\n\t"servers": {\n\t\t"a": { "type": "stdio", "command": "a" }\n\t},\n\t"inputs": []\n}\n',
  };
  for (const [name, before] of Object.entries(jsonFiles)) {
    await t.step(name, () =>
      withProject(async (root, home) => {
        const client = mcpClientOf(name);
        const path = mcpFile(client, "project", root, env(home));
        await Deno.mkdir(parentDir(path)!, { recursive: true });
        await Deno.writeTextFile(path, before);
        const agent = ["--agent", name];
        assert.equal((await cli(["install", "--mcp", ...agent], root, home)).code, 0);
        const installed = await Deno.readTextFile(path);
        assert.ok(parseTree(installed), "still parses");
        assert.ok(installed.includes(before.split("\n")[1]), "its first line kept");
        assert.equal((await cli(["uninstall", "--mcp", ...agent], root, home)).code, 0);
        const restored = await Deno.readTextFile(path);
        // An empty servers object install filled is removed with our entry (gemini).
        assert.equal(restored, name === "gemini" ? '{\n    "theme": "dark"\n}\n' : before);
      }));
  }
  await t.step(
    "codex: tables before and after ours, comments kept",
    () =>
      withProject(async (root, home) => {
        const path = join(root, ".codex", "config.toml");
        await Deno.mkdir(join(root, ".codex"));
        const before = '# my config\nmodel = "o4"\n\n[mcp_servers.docs]\ncommand = "docs"\n';
        await Deno.writeTextFile(path, before);
        assert.equal((await cli(["install", "--mcp", "--agent", "codex"], root, home)).code, 0);
        const installed = await Deno.readTextFile(path);
        assert.ok(installed.startsWith(before + "\n[mcp_servers.session]\n"), installed);
        await Deno.writeTextFile(path, installed + '\n[profiles.fast]\nmodel = "x"\n');
        assert.equal((await cli(["uninstall", "--mcp", "--agent", "codex"], root, home)).code, 0);
        assert.equal(await Deno.readTextFile(path), before + '\n[profiles.fast]\nmodel = "x"\n');
      }),
  );
});

Deno.test("install --mcp: somebody else's session, an older command, scopes", async (t) => {
  await t.step(
    "a session entry that is not ours: refused, never removed",
    () =>
      withProject(async (root, home) => {
        const path = join(root, ".mcp.json");
        const before = '{ "mcpServers": { "session": { "command": "their-server" } } }\n';
        await Deno.writeTextFile(path, before);
        const run = await cli(["install", "--mcp"], root, home);
        assert.equal(run.code, 1);
        assert.match(
          run.err,
          /holds an MCP server named "session" that does not run session\.ts mcp/,
        );
        assert.equal((await cli(["uninstall", "--mcp"], root, home)).code, 1);
        assert.equal(await Deno.readTextFile(path), before);
        const doctor = await cli(["doctor", "--mcp"], root, home);
        assert.match(doctor.out, /✗ .*does not run session\.ts mcp/);
      }),
  );
  await t.step("codex: a dotted or inline session is somebody else's too", () => {
    const codex = mcpClientOf("codex");
    for (
      const text of [
        '[mcp_servers]\nsession = { command = "x" }\n',
        'mcp_servers.session.command = "x"\n',
      ]
    ) {
      assert.throws(() => withServer(text, codex, "project", "/r", serverWords()), /does not run/);
    }
    assert.equal(tomlBlock("[a]\nb = 1\n"), undefined);
  });
  await t.step(
    "an older command: doctor flags it, install updates it in place",
    () =>
      withProject(async (root, home) => {
        const old = ["sh", "/old/checkout/bin/with-deno", "run", "/old/checkout/session.ts", "mcp"];
        const path = join(root, ".cursor", "mcp.json");
        await Deno.mkdir(join(root, ".cursor"));
        await Deno.writeTextFile(
          path,
          JSON.stringify({ mcpServers: { session: { command: old[0], args: old.slice(1) } } }),
        );
        const doctor = await cli(["doctor", "--mcp", "--agent", "cursor"], root, home);
        assert.equal(doctor.code, 1);
        assert.match(doctor.out, /✗ .*script \/old\/checkout\/session\.ts is missing/);
        const run = await cli(["install", "--mcp", "--agent", "cursor"], root, home);
        assert.match(run.out, /^Installed \(updated\): /m);
        const entry = JSON.parse(await Deno.readTextFile(path)).mcpServers.session;
        assert.deepEqual([entry.command, ...entry.args], serverWords());
      }),
  );
  await t.step(
    "--user and --local: the user's files; vscode has no --user",
    () =>
      withProject(async (root, home) => {
        assert.equal(
          (await cli(["install", "--mcp", "--agent", "codex", "--user"], root, home)).code,
          0,
        );
        assert.match(
          await Deno.readTextFile(join(home, ".codex", "config.toml")),
          /^\[mcp_servers\.session\]$/m,
        );
        const claudeJson = join(home, ".claude.json");
        const before =
          '{\n  "numStartups": 3,\n  "projects": {\n    "/elsewhere": { "a": 1 }\n  }\n}\n';
        await Deno.writeTextFile(claudeJson, before);
        assert.equal((await cli(["install", "--mcp", "--local"], root, home)).code, 0);
        const local = JSON.parse(await Deno.readTextFile(claudeJson));
        assert.deepEqual([
          local.projects[root].mcpServers.session.command,
          ...local.projects[root].mcpServers.session.args,
        ], serverWords());
        assert.equal((await cli(["uninstall", "--mcp", "--local"], root, home)).code, 0);
        assert.equal(await Deno.readTextFile(claudeJson), before);
        const vs = await cli(["install", "--mcp", "--agent", "vscode", "--user"], root, home);
        assert.equal(vs.code, 2);
        assert.match(vs.err, /--mcp --user does not apply to VS Code/);
        const bad = await cli(["install", "--mcp", "--agent", "emacs"], root, home);
        assert.equal(bad.code, 2);
        assert.match(
          bad.err,
          /with --mcp, --agent takes claude, codex, gemini, qwen, opencode, cursor, vscode/,
        );
      }),
  );
  await t.step("pure: withoutServer leaves a file without ours as it is", () => {
    const text = '{ "mcpServers": { "x": {} } }';
    assert.equal(withoutServer(text, mcpClientOf("claude"), "project", "/r"), text);
  });
});
