/**
 * End to end in the real Claude Code (pinned, offline, against the loopback stand-in): the skill
 * is listed, `/session dump` runs the script through Bash, `/clear` brings the handover back
 * exactly once, an old dump stays out, the plugin mode does the same, and install / uninstall
 * leave the settings file as it was.
 */

import assert from "node:assert/strict";
import { CLI_FLAGS } from "../../lib/command.ts";
import { isoStamp } from "../../lib/time.ts";
import { claudeEnv, ensureClaude, makeWorld, startClaude, type World } from "./support/claude.ts";
import {
  isToolResult,
  lastMessage,
  lastUserText,
  messageText,
  type Recorded,
  type StandIn,
  startStandIn,
} from "./support/stand_in.ts";
import { sleep, type Tmux } from "./support/tmux.ts";

const REPO = decodeURIComponent(new URL("../../", import.meta.url).pathname).replace(/\/$/, "");
const NOW = new Date("2026-11-30T12:00:00Z");
const ENV = { SESSION_NOW: isoStamp(NOW) };
const STORE = ".claude/state/session";

/** The handover body the model "writes"; MARK makes it findable in a request. */
function body(mark: string): string {
  return [
    "## Goal",
    `Prove the handover survives /clear (${mark}).`,
    "## Decisions",
    "- Stand-in API on loopback — why: offline, every request recorded.",
    "## Next step",
    "Check the restored context.",
  ].join("\n");
}

/** The shell command the model runs for a dump, as SKILL.md tells it to. */
function dumpCommand(skillDir: string, slug: string, mark: string): string {
  return `deno run ${CLI_FLAGS.join(" ")} ${skillDir}/session.ts dump ${slug} <<'EOF'\n${
    body(mark)
  }\nEOF`;
}

/** Runs the CLI in the world's project (HOME scratch, clock pinned to `now`). */
async function cli(world: World, args: string[], o: { stdin?: string; now?: Date } = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...CLI_FLAGS, `${REPO}/session.ts`, ...args],
    cwd: world.project,
    env: { HOME: world.home, SESSION_NOW: isoStamp(o.now ?? NOW) },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(o.stdin ?? ""));
  await w.close();
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Dumps a handover from outside the session (the real `dump`), made at `created`. */
async function dumpOutside(world: World, slug: string, mark: string, created: Date) {
  const r = await cli(world, ["dump", slug], { stdin: body(mark), now: created });
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

const bin = await ensureClaude();

Deno.test("Claude Code as a skill folder: dump, /clear, restored once", async (t) => {
  const world = await makeWorld();
  const standIn = startStandIn();
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
  let tmux: Tmux | undefined;
  const mark = `MARK-${crypto.randomUUID().slice(0, 8)}`;
  const doc = `${world.project}/${STORE}/e2e-handover.md`;
  try {
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
    tmux = await startClaude(bin, world, standIn, { env: ENV });

    let dumpTurn: Recorded;
    await t.step(
      "/session dump: the skill is listed and loaded with its folder filled in",
      async () => {
        dumpTurn = await ask(
          tmux!,
          standIn,
          "/session dump e2e-handover",
          "<command-args>dump e2e-handover</command-args>",
        );
        assert.match(dumpTurn.raw, /- session: Handover that survives \/clear/);
        const loaded = dumpTurn.raw;
        assert.ok(
          loaded.includes(`deno run ${CLI_FLAGS.join(" ")} ${skillDir}/session.ts`),
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
        assert.match(await Deno.readTextFile(doc), /^consumed: false$/m);
        assert.equal(
          (await Deno.readTextFile(`${world.project}/${STORE}/LATEST`)).trim(),
          "e2e-handover",
        );
        await tmux!.waitForScreen("send /clear");
      },
    );

    await t.step("/clear: the next request carries the handover; the doc is consumed", async () => {
      await clear(tmux!, doc);
      const r = await ask(tmux!, standIn, "where were we?");
      assert.ok(r.raw.includes(mark), "handover in the first request after /clear");
      assert.match(r.raw, /SessionStart hook additional context: \[session\] Handover/);
      const latest = await Deno.readTextFile(`${world.project}/${STORE}/LATEST`).catch(() => "");
      assert.equal(latest.trim(), "");
    });

    await t.step("a second /clear carries nothing", async () => {
      await clear(tmux!);
      const r = await ask(tmux!, standIn, "anything new?");
      assert.ok(!r.raw.includes(mark));
    });

    await t.step("a dump older than the window carries nothing", async () => {
      const old = `OLD-${mark}`;
      await dumpOutside(world, "too-old", old, new Date(NOW.getTime() - 31 * 60_000));
      await clear(tmux!);
      const r = await ask(tmux!, standIn, "and now?");
      assert.ok(!r.raw.includes(old));
      assert.match(
        await Deno.readTextFile(`${world.project}/${STORE}/too-old.md`),
        /^consumed: false$/m,
      );
    });

    await t.step("uninstall leaves the settings file as it was", async () => {
      await tmux!.kill();
      tmux = undefined;
      const r = await cli(world, ["uninstall"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await Deno.readTextFile(settings), original);
    });
  } finally {
    await tmux?.kill();
    await standIn.close();
    await world.cleanup();
  }
});

Deno.test("Claude Code with the checkout as a plugin: skill listed, hook restores", async (t) => {
  const world = await makeWorld();
  const standIn = startStandIn();
  let tmux: Tmux | undefined;
  const mark = `PLUGIN-${crypto.randomUUID().slice(0, 8)}`;
  try {
    tmux = await startClaude(bin, world, standIn, { args: ["--plugin-dir", REPO], env: ENV });
    await t.step("the plugin's skill is listed", async () => {
      const r = await ask(tmux!, standIn, "hello");
      assert.match(r.raw, /- session:session: Handover that survives/);
    });
    await t.step("hooks/hooks.json restores after /clear", async () => {
      await dumpOutside(world, "from-plugin", mark, NOW);
      await clear(tmux!, `${world.project}/${STORE}/from-plugin.md`);
      const r = await ask(tmux!, standIn, "go on");
      assert.ok(r.raw.includes(mark));
    });
  } finally {
    await tmux?.kill();
    await standIn.close();
    await world.cleanup();
  }
});

Deno.test("Claude Code with the checkout as a marketplace: install the plugin, it restores", async (t) => {
  const world = await makeWorld();
  const standIn = startStandIn();
  let tmux: Tmux | undefined;
  const mark = `MARKET-${crypto.randomUUID().slice(0, 8)}`;
  // The checkout as a clone would have it (tracked and unignored files), not .temp/ and its clients.
  const source = `${world.home}/../market-src`;
  try {
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
    tmux = await startClaude(bin, world, standIn, { env: ENV });
    await t.step("the installed plugin's skill is listed", async () => {
      const r = await ask(tmux!, standIn, "hello");
      assert.match(r.raw, /- session:session: Handover that survives/);
    });
    await t.step("its hook restores after /clear", async () => {
      await dumpOutside(world, "from-market", mark, NOW);
      await clear(tmux!, `${world.project}/${STORE}/from-market.md`);
      const r = await ask(tmux!, standIn, "go on");
      assert.ok(r.raw.includes(mark));
    });
  } finally {
    await tmux?.kill();
    await standIn.close();
    await world.cleanup();
  }
});
