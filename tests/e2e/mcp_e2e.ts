/**
 * End to end, the MCP server (`session.ts mcp`) under two clients that share no code with it:
 * the MCP Inspector's CLI (`@modelcontextprotocol/inspector` 2.x `--cli`, built on the SDK's
 * next major version) lists the tools and prompts, reads a resource and gets `restore`; then the
 * real Claude Code, with only `.mcp.json` registered by `install --mcp` (no hook), brings a
 * handover the CLI dumped into a fresh session through the `/mcp__session__restore` slash command,
 * once. And Codex CLI, Gemini CLI, Qwen Code and opencode list the entry `install --mcp` wrote for
 * each (`<client> mcp list`); Gemini and opencode start the server and report it connected.
 */

import assert from "node:assert/strict";
import { projectFile } from "../../lib/agents/command.ts";
import { isoStamp } from "../../lib/store/time.ts";
import {
  CODEX_VERSION,
  configureCodex,
  configureGemini,
  ensureCodex,
  ensureGemini,
  GEMINI_VERSION,
  handoverBody,
} from "./support/agents.ts";
import {
  configureOpencode,
  configureQwen,
  ensureOpencode,
  ensureQwen,
  OPENCODE_VERSION,
  QWEN_VERSION,
} from "./support/chat_agents.ts";
import { ensureClaude, makeWorld, startClaude, type World } from "./support/claude.ts";
import { clientEnv, npmInstall, run, runCli } from "./support/process.ts";
import { lastUserText, startStandIn } from "./support/stand_in.ts";
import { sleep } from "./support/tmux.ts";

/** The Inspector pinned (its CLI mode), installed once into .temp/e2e/. */
const INSPECTOR_VERSION = "2.12.0";
/** The Claude Code this runs (the newest the other e2e tests pin). */
const CLAUDE_VERSION = "2.1.332";
const NOW = new Date("2026-11-30T12:00:00Z");
const STORE = ".claude/state/session";

/** The Inspector's launcher, installed on first use. */
async function ensureInspector(): Promise<string> {
  const prefix = projectFile(`.temp/e2e/mcp-inspector-${INSPECTOR_VERSION}`);
  const bin = `${prefix}/node_modules/.bin/mcp-inspector`;
  try {
    if ((await run("node", [bin, "--version"])).includes(INSPECTOR_VERSION)) return bin;
  } catch { /* not installed yet */ }
  await npmInstall(prefix, `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`);
  return bin;
}

/** The server's command words, as `install --mcp` registers them. */
function serverCommand(): string[] {
  return [
    "sh",
    projectFile("bin/with-deno"),
    "run",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    "--allow-run=git",
    projectFile("session.ts"),
    "mcp",
  ];
}

/**
 * Sends `/mcp__session__restore` with no argument. Typed with a space after it, as a user ends the
 * command word: Claude Code 2.1.332 takes an Enter right after the bare name as picking it in the
 * completion menu, and leaves it in the prompt.
 */
async function restoreCommand(tmux: Awaited<ReturnType<typeof startClaude>>) {
  await tmux.type("/mcp__session__restore ");
  await sleep(1_000);
  await tmux.press("Enter");
}

/** Dumps a handover from outside any client (the real CLI), at NOW. */
async function dump(world: World, slug: string, mark: string) {
  const r = await runCli(world, ["dump", slug], {
    env: { SESSION_NOW: isoStamp(NOW) },
    stdin: handoverBody(mark),
  });
  assert.equal(r.code, 0, r.stderr);
}

Deno.test(`MCP Inspector ${INSPECTOR_VERSION} --cli: lists, reads, restores`, async (t) => {
  const bin = await ensureInspector();
  const world = await makeWorld(CLAUDE_VERSION);
  try {
    const env = clientEnv(world.home, {});
    /** One Inspector call; its JSON answer. */
    const inspect = async (...args: string[]) => {
      const out = await new Deno.Command("node", {
        args: [
          bin,
          "--cli",
          "-e",
          `DENO_DIR=${env.DENO_DIR}`,
          "-e",
          `SESSION_NOW=${isoStamp(NOW)}`,
          "-e",
          `HOME=${world.home}`,
          "--cwd",
          world.project,
          ...args,
          "--",
          ...serverCommand(),
        ],
        cwd: world.project,
        env,
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout);
      assert.ok(
        out.success,
        `inspector ${args.join(" ")}:\n${text}\n${new TextDecoder().decode(out.stderr)}`,
      );
      return JSON.parse(text);
    };
    await dump(world, "inspected", "E2E-MCP-INSPECTOR");
    await t.step("tools/list: the six tools", async () => {
      const { tools } = await inspect("--method", "tools/list");
      assert.deepEqual(
        tools.map((x: { name: string }) => x.name).sort(),
        ["drop", "dump", "list", "park", "recall", "search"],
      );
    });
    await t.step("prompts/list: restore and dump", async () => {
      const { prompts } = await inspect("--method", "prompts/list");
      assert.deepEqual(prompts.map((x: { name: string }) => x.name).sort(), ["dump", "restore"]);
    });
    await t.step("resources/read of the pending handover consumes nothing", async () => {
      const { contents } = await inspect(
        "--method",
        "resources/read",
        "--uri",
        "session://pending",
      );
      assert.match(contents[0].text, /E2E-MCP-INSPECTOR/);
      assert.match(
        await Deno.readTextFile(`${world.project}/${STORE}/inspected.md`),
        /^consumed: false$/m,
      );
    });
    await t.step(
      "prompts/get restore: the handover, then consumed; a second finds none",
      async () => {
        const got = await inspect("--method", "prompts/get", "--prompt-name", "restore");
        assert.match(
          got.messages[0].content.text,
          /^\[session\] The handover "inspected" is restored/,
        );
        assert.match(got.messages[0].content.text, /E2E-MCP-INSPECTOR/);
        assert.match(
          await Deno.readTextFile(`${world.project}/${STORE}/inspected.md`),
          /^consumed: true$/m,
        );
        await assert.rejects(
          inspect("--method", "prompts/get", "--prompt-name", "restore"),
          /No pending handover/,
        );
      },
    );
    await t.step("tools/call search: the CLI's answer", async () => {
      const r = await inspect(
        "--method",
        "tools/call",
        "--tool-name",
        "search",
        "--tool-arg",
        "words=survives",
      );
      assert.match(r.content[0].text, /^Search "survives": 1 match/);
    });
  } finally {
    await world.cleanup();
  }
});

Deno.test(`Claude Code ${CLAUDE_VERSION}: /mcp__session__restore brings the handover back once`, async (t) => {
  const bin = await ensureClaude(CLAUDE_VERSION);
  const world = await makeWorld(CLAUDE_VERSION);
  const standIn = startStandIn();
  let tmux: Awaited<ReturnType<typeof startClaude>> | undefined;
  try {
    const install = await runCli(world, ["install", "--mcp"]);
    assert.equal(install.code, 0, install.stderr);
    const mcpJson = JSON.parse(await Deno.readTextFile(`${world.project}/.mcp.json`));
    assert.deepEqual(
      [mcpJson.mcpServers.session.command, ...mcpJson.mcpServers.session.args],
      serverCommand(),
    );
    // The approval Claude Code asks for once per project's .mcp.json server, given beforehand.
    const claudeJson = JSON.parse(await Deno.readTextFile(`${world.home}/.claude.json`));
    claudeJson.projects[world.project].enabledMcpjsonServers = ["session"];
    await Deno.writeTextFile(`${world.home}/.claude.json`, JSON.stringify(claudeJson, null, 2));
    await dump(world, "via-mcp", "E2E-MCP-RESTORE");
    tmux = await startClaude(bin, world, standIn, { env: { SESSION_NOW: isoStamp(NOW) } });
    const doc = `${world.project}/${STORE}/via-mcp.md`;
    await t.step("the slash command's request carries the handover; it is consumed", async () => {
      const since = standIn.requests.length;
      await restoreCommand(tmux!);
      const r = await standIn.waitFor((x) => lastUserText(x).includes("E2E-MCP-RESTORE"), {
        since,
        timeoutMs: 60_000,
      }).catch(async (err) => {
        throw new Error(`${(err as Error).message}\nscreen:\n${await tmux!.screen()}`);
      });
      assert.match(lastUserText(r), /The handover "via-mcp" is restored/);
      assert.match(lastUserText(r), /not as instructions/);
      assert.match(await Deno.readTextFile(doc), /^consumed: true$/m);
    });
    await t.step("a second time brings nothing", async () => {
      await tmux!.waitForScreen((s) => s.includes("? for shortcuts"), 30_000).catch(() => "");
      const since = standIn.requests.length;
      await restoreCommand(tmux!);
      await sleep(5_000);
      const later = standIn.requests.slice(since);
      assert.ok(
        !later.some((x) => lastUserText(x).includes("E2E-MCP-RESTORE")),
        "no request carries the handover again",
      );
      assert.match(await tmux!.screen(), /No pending handover/);
    });
  } finally {
    await tmux?.kill();
    await standIn.close();
    await world.cleanup();
  }
});

Deno.test(
  `codex ${CODEX_VERSION}, gemini ${GEMINI_VERSION}, qwen ${QWEN_VERSION}, opencode ${OPENCODE_VERSION}: mcp list reads install --mcp's entry`,
  async (t) => {
    const bins = {
      codex: await ensureCodex(),
      gemini: await ensureGemini(),
      qwen: await ensureQwen(),
      opencode: await ensureOpencode(),
    };
    const world = await makeWorld(CLAUDE_VERSION);
    try {
      await configureCodex(world, "http://127.0.0.1:9");
      await configureGemini(world);
      await configureQwen(world);
      await configureOpencode(world, "http://127.0.0.1:9/v1");
      const env = clientEnv(world.home, {
        CODEX_HOME: `${world.home}/.codex`,
        GEMINI_API_KEY: "e2e-stand-in-key",
        OPENAI_API_KEY: "e2e-stand-in-key",
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      });
      /** `<client> mcp list …` in the project; its stdout. */
      const list = async (client: keyof typeof bins, ...args: string[]) => {
        const r = await runCli(world, ["install", "--mcp", "--agent", client]);
        assert.equal(r.code, 0, r.stderr);
        const out = await new Deno.Command(bins[client], {
          args: ["mcp", "list", ...args],
          cwd: world.project,
          env,
          clearEnv: true,
          stdout: "piped",
          stderr: "piped",
        }).output();
        // Gemini CLI prints its list on stdout or stderr, depending on the terminal it finds.
        const text = (new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr))
          // deno-lint-ignore no-control-regex -- the terminal's colour codes
          .replace(/\x1b\[[0-9;]*m/g, "");
        assert.equal(out.code, 0, `${client}: ${text}`);
        return text;
      };
      const shown = serverCommand().join(" ");
      await t.step(
        "Codex: the project's .codex/config.toml, the command word for word",
        async () => {
          const text = await list("codex", "--json");
          const servers = JSON.parse(text.slice(text.indexOf("["), text.lastIndexOf("]") + 1));
          const session = servers.find((x: { name: string }) => x.name === "session");
          assert.deepEqual(
            [session.transport.command, ...session.transport.args],
            serverCommand(),
          );
        },
      );
      await t.step("Gemini: .gemini/settings.json, started and connected", async () => {
        assert.match(
          await list("gemini"),
          new RegExp(`✓ session: ${escape(shown)} \\(stdio\\) - Connected`),
        );
      });
      await t.step(
        "Qwen Code: .qwen/settings.json, listed (a project server waits for approval)",
        async () => {
          assert.match(await list("qwen"), new RegExp(`session: ${escape(shown)} \\(stdio\\)`));
        },
      );
      await t.step("opencode: opencode.json, started and connected", async () => {
        const text = await list("opencode");
        assert.match(text, /✓ session\s+connected/);
        assert.ok(text.includes(shown), text);
      });
    } finally {
      await world.cleanup();
    }
  },
);

/** `text` as a literal inside a regular expression. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
