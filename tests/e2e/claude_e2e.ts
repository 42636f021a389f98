/**
 * End to end in the real Claude Code (pinned, offline, against the loopback stand-in): the skill
 * is listed, `/session dump` runs the script through Bash, `/clear` brings the handover back
 * exactly once, an old dump stays out, the plugin mode does the same, and install / uninstall
 * leave the settings file as it was.
 */

import assert from "node:assert/strict";
import { CLI_FLAGS } from "../../lib/agents/command.ts";
import { isoStamp } from "../../lib/store/time.ts";
import { encodeProjectDir } from "../../lib/transcript/paths.ts";
import { claudeEnv, ensureClaudes, makeWorld, startClaude, type World } from "./support/claude.ts";
import {
  isToolResult,
  lastMessage,
  lastUserText,
  messageText,
  type Recorded,
  type StandIn,
  startStandIn,
} from "./support/stand_in.ts";
import { handoverBody } from "./support/agents.ts";
import { runCli } from "./support/process.ts";
import { sleep, type Tmux } from "./support/tmux.ts";

const REPO = decodeURIComponent(new URL("../../", import.meta.url).pathname).replace(/\/$/, "");
const NOW = new Date("2026-11-30T12:00:00Z");
/** The tested Claude Code that applies a SessionStart hook's `sessionTitle`. */
const TITLED_VERSION = "2.1.332";
const ENV = { SESSION_NOW: isoStamp(NOW) };
const STORE = ".claude/state/session";

/** The shell command the model runs for a dump, as SKILL.md tells it to. */
function dumpCommand(skillDir: string, slug: string, mark: string): string {
  return `deno run ${CLI_FLAGS.join(" ")} ${skillDir}/session.ts dump ${slug} <<'EOF'\n${
    handoverBody(mark)
  }\nEOF`;
}

/** Runs the CLI in the world's project (HOME scratch, clock pinned to `now`). */
function cli(world: World, args: string[], o: { stdin?: string; now?: Date } = {}) {
  return runCli(world, args, { env: { SESSION_NOW: isoStamp(o.now ?? NOW) }, stdin: o.stdin });
}

/** Dumps a handover from outside the session (the real `dump`), made at `created`. */
async function dumpOutside(world: World, slug: string, mark: string, created: Date) {
  const r = await cli(world, ["dump", slug], { stdin: handoverBody(mark), now: created });
  assert.equal(r.code, 0, r.stderr);
}

async function waitForFile(path: string, test: (text: string) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  let text = "";
  while (Date.now() < deadline) {
    text = await Deno.readTextFile(path).catch(() => "");
    if (test(text)) return text;
    await sleep(200);
  }
  throw new Error(`${path} did not change as expected within ${ms} ms:\n${text}`);
}

/** Types a prompt and returns the agent request it produced. */
async function ask(
  tmux: Tmux,
  standIn: StandIn,
  prompt: string,
  expect = prompt,
): Promise<Recorded> {
  const since = standIn.requests.length;
  await tmux.submit(prompt);
  try {
    return await standIn.waitFor(
      (r) => (r.body.tools?.length ?? 0) > 0 && lastUserText(r).includes(expect),
      { since, timeoutMs: 30_000 },
    );
  } catch (err) {
    await Deno.writeTextFile(
      `${REPO}/.temp/e2e/last-failure-requests.json`,
      JSON.stringify(standIn.requests.slice(since), null, 1),
    ).catch(() => {});
    throw new Error(`${(err as Error).message}\nscreen:\n${await tmux.screen()}`);
  }
}

/** `/clear`, then (when a handover should come back) until the hook has consumed it. */
async function clear(tmux: Tmux, consumedDoc?: string) {
  await tmux.submit("/clear");
  if (consumedDoc) await waitForFile(consumedDoc, (t) => /^consumed: true$/m.test(t));
  else await sleep(3_000);
}

/**
 * The steps both plugin modes share: the namespaced skill is listed, and the plugin's hook brings
 * back a handover dumped (as `slug`, carrying `mark`) from outside, after /clear.
 */
async function pluginSteps(
  t: Deno.TestContext,
  on: { tmux: Tmux; standIn: StandIn; world: World },
  slug: string,
  mark: string,
  names: { listed: string; restores: string },
) {
  await t.step(names.listed, async () => {
    const r = await ask(on.tmux, on.standIn, "hello");
    assert.match(r.raw, /- session:session: Handover that survives/);
  });
  await t.step(names.restores, async () => {
    await dumpOutside(on.world, slug, mark, NOW);
    await clear(on.tmux, `${on.world.project}/${STORE}/${slug}.md`);
    const r = await ask(on.tmux, on.standIn, "go on");
    assert.ok(r.raw.includes(mark));
  });
}

/** What a Claude Code test runs in; `tmux` is the client it started, if any. */
interface Scene {
  world: World;
  standIn: StandIn;
  tmux?: Tmux;
}

for (const { version, bin } of await ensureClaudes()) {
  /** A test with a fresh world and stand-in, and the client, stand-in and world gone after. */
  const claudeTest = (name: string, fn: (t: Deno.TestContext, s: Scene) => Promise<void>) => {
    Deno.test(`Claude Code ${version}: ${name}`, async (t) => {
      const s: Scene = { world: await makeWorld(version), standIn: startStandIn() };
      try {
        await fn(t, s);
      } finally {
        await s.tmux?.kill();
        await s.standIn.close();
        await s.world.cleanup();
      }
    });
  };

  claudeTest("as a skill folder: dump, /clear, restored once", async (t, s) => {
    const { world, standIn } = s;
    const skillDir = `${world.home}/.claude/skills/session`;
    await Deno.mkdir(`${world.home}/.claude/skills`, { recursive: true });
    await Deno.symlink(REPO, skillDir);
    const settings = `${world.project}/.claude/settings.json`;
    // Strict JSON: Claude Code 2.1.197 rejects comments and trailing commas in settings files.
    const original = `{
  "permissions": { "allow": ["Bash(git status:*)"] },
  "env": {
    "SESSION_E2E": "1"
  }
}
`;
    await Deno.mkdir(`${world.project}/.claude`, { recursive: true });
    await Deno.writeTextFile(settings, original);
    const mark = `MARK-${crypto.randomUUID().slice(0, 8)}`;
    const doc = `${world.project}/${STORE}/e2e-handover.md`;
    await t.step("install registers the hook", async () => {
      const r = await cli(world, ["install"]);
      assert.equal(r.code, 0, r.stderr);
    });

    standIn.setScript((r) => {
      if (isToolResult(r)) return { text: "Handover saved — send /clear." };
      const last = lastMessage(r);
      if (last && messageText(last).includes("dump")) {
        return {
          tool: "Bash",
          input: {
            command: dumpCommand(skillDir, "e2e-handover", mark),
            description: "Dump the session handover",
          },
        };
      }
      return { text: "OK." };
    });
    s.tmux = await startClaude(bin, world, standIn, { env: ENV });

    let dumpTurn: Recorded;
    await t.step(
      "/session dump: the skill is listed and loaded with its folder filled in",
      async () => {
        dumpTurn = await ask(
          s.tmux!,
          standIn,
          "/session dump e2e-handover",
          "<command-args>dump e2e-handover</command-args>",
        );
        assert.match(dumpTurn.raw, /- session: Handover that survives \/clear/);
        const loaded = dumpTurn.raw;
        assert.ok(
          loaded.includes(
            `sh ${skillDir}/bin/with-deno run ${CLI_FLAGS.join(" ")} ${skillDir}/session.ts`,
          ),
          "SKILL.md reached the model with ${CLAUDE_SKILL_DIR} substituted",
        );
        assert.ok(!loaded.includes("${CLAUDE_SKILL_DIR}"));
      },
    );

    await t.step(
      "the model's Bash call writes the handover; the last line says /clear",
      async () => {
        const result = await standIn.waitFor(isToolResult, {
          since: standIn.requests.indexOf(dumpTurn!),
        });
        const out = messageText(lastMessage(result)!).trim();
        assert.equal(out.split("\n").at(-1), "/clear", out);
        // The dump's `## Confidence` block reached the model in the tool result, computed from
        // the sections it piped: its decision has a why; its next step names nothing concrete.
        const lines = out.split("\n");
        const block = lines.slice(lines.indexOf("## Confidence"));
        assert.ok(lines.includes("## Confidence"), out);
        assert.match(block[1], /^[✓⚠] files: /);
        assert.equal(block[2], "✓ decisions: 1, each with its why");
        assert.match(block[3], /^⚠ sweep: not run /);
        assert.match(
          block[4],
          /^⚠ next step: names nothing concrete: "Check the restored context\."/,
        );
        assert.match(block[5], /^✓ size: \d+ lines/);
        assert.match(block[6], /Fix what is flagged and rerun once.*dump e2e-handover --force$/);
        assert.equal(block[7], "Next step: Check the restored context.");
        assert.match(await Deno.readTextFile(doc), /^consumed: false$/m);
        assert.equal(
          (await Deno.readTextFile(`${world.project}/${STORE}/LATEST`)).trim(),
          "e2e-handover",
        );
        await s.tmux!.waitForScreen("send /clear");
      },
    );

    await t.step("/clear: the next request carries the handover; the doc is consumed", async () => {
      await clear(s.tmux!, doc);
      const r = await ask(s.tmux!, standIn, "where were we?");
      assert.ok(r.raw.includes(mark), "handover in the first request after /clear");
      // The factual banner first, then the handover fenced (injected text is data).
      assert.match(
        r.raw,
        /SessionStart hook additional context: \[session\] The previous session left this handover: \\"e2e-handover\\"/,
      );
      const latest = await Deno.readTextFile(`${world.project}/${STORE}/LATEST`).catch(() => "");
      assert.equal(latest.trim(), "");
    });

    await t.step("a second /clear carries nothing", async () => {
      await clear(s.tmux!);
      const r = await ask(s.tmux!, standIn, "anything new?");
      assert.ok(!r.raw.includes(mark));
    });

    await t.step("a dump older than the window carries nothing", async () => {
      const old = `OLD-${mark}`;
      await dumpOutside(world, "too-old", old, new Date(NOW.getTime() - 31 * 60_000));
      await clear(s.tmux!);
      const r = await ask(s.tmux!, standIn, "and now?");
      assert.ok(!r.raw.includes(old));
      assert.match(
        await Deno.readTextFile(`${world.project}/${STORE}/too-old.md`),
        /^consumed: false$/m,
      );
    });

    await t.step("uninstall leaves the settings file as it was", async () => {
      await s.tmux!.kill();
      s.tmux = undefined;
      const r = await cli(world, ["uninstall"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await Deno.readTextFile(settings), original);
    });
  });

  // Claude Code takes a SessionStart hook's sessionTitle at startup, resume and fork (2.1.332's
  // bundle; after /clear it is ignored): a handover restored at start-up names the session.
  if (version === TITLED_VERSION) {
    claudeTest(
      "install --startup: a handover restored at start-up names the session",
      async (t, s) => {
        const { world, standIn } = s;
        const mark = `TITLE-${crypto.randomUUID().slice(0, 8)}`;
        const installed = await cli(world, ["install", "--startup"]);
        assert.equal(installed.code, 0, installed.stderr);
        await dumpOutside(world, "e2e-titled", mark, NOW);
        s.tmux = await startClaude(bin, world, standIn, { env: ENV });
        await t.step(
          "the first request carries the handover; the session is named after it",
          async () => {
            const r = await ask(s.tmux!, standIn, "where were we?");
            assert.ok(r.raw.includes(mark), "handover in the first request");
            const marker = [...Deno.readDirSync(`${world.project}/${STORE}`)]
              .find((e) => e.name.startsWith(".restored-"));
            assert.ok(marker, "the marker of the handover the session started from");
            const session = marker.name.slice(".restored-".length);
            await waitForFile(
              `${world.home}/.claude/projects/${encodeProjectDir(world.project)}/${session}.jsonl`,
              (t) => /"type":"custom-title","customTitle":"e2e-titled"/.test(t),
            );
          },
        );
      },
    );
  }

  claudeTest(
    "with the checkout as a plugin: skill listed, hook restores",
    async (t, s) => {
      const { world, standIn } = s;
      const mark = `PLUGIN-${crypto.randomUUID().slice(0, 8)}`;
      s.tmux = await startClaude(bin, world, standIn, { args: ["--plugin-dir", REPO], env: ENV });
      await pluginSteps(t, { tmux: s.tmux, standIn, world }, "from-plugin", mark, {
        listed: "the plugin's skill is listed",
        restores: "hooks/hooks.json restores after /clear",
      });
    },
  );

  claudeTest(
    "with the checkout as a marketplace: install the plugin, it restores",
    async (t, s) => {
      const { world, standIn } = s;
      const mark = `MARKET-${crypto.randomUUID().slice(0, 8)}`;
      // The checkout as a clone would have it (tracked and unignored files), not .temp/ and its clients.
      const source = `${world.home}/../market-src`;
      await t.step("claude plugin marketplace add + install", async () => {
        const listed = await new Deno.Command("git", {
          args: ["ls-files", "-co", "--exclude-standard", "-z"],
          cwd: REPO,
          stdout: "piped",
        }).output();
        for (const file of new TextDecoder().decode(listed.stdout).split("\0").filter(Boolean)) {
          const to = `${source}/${file}`;
          await Deno.mkdir(to.replace(/\/[^/]+$/, ""), { recursive: true });
          await Deno.copyFile(`${REPO}/${file}`, to).catch(() => {}); // deleted but still tracked
        }
        const env = claudeEnv(world, standIn);
        for (
          const args of [["plugin", "marketplace", "add", source], [
            "plugin",
            "install",
            "session@session",
          ]]
        ) {
          const out = await new Deno.Command(bin, {
            args,
            cwd: world.project,
            env,
            clearEnv: true,
            stdout: "piped",
            stderr: "piped",
          }).output();
          const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
          assert.ok(out.success, `claude ${args.join(" ")}: ${text}`);
        }
      });
      await t.step("doctor sees the enabled plugin as the hook", async () => {
        const r = await cli(world, ["doctor"]);
        assert.match(r.stdout, /✓ hook from the plugin session@session/, r.stdout);
      });
      s.tmux = await startClaude(bin, world, standIn, { env: ENV });
      await pluginSteps(t, { tmux: s.tmux, standIn, world }, "from-market", mark, {
        listed: "the installed plugin's skill is listed",
        restores: "its hook restores after /clear",
      });
    },
  );
}
