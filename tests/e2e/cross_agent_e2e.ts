/**
 * End to end across agents, in one scratch project with the hooks of Claude Code, Codex CLI and
 * Gemini CLI all installed (each real client pinned, offline, against its loopback stand-in): a
 * handover one agent's model dumps through its shell tool is what the next model request of
 * another agent carries after `/clear`, once. Claude Code → Codex, Codex → Claude Code,
 * Claude Code → Gemini, Gemini → Codex. The store is the project's, not the agent's.
 */

import assert from "node:assert/strict";
import { isoStamp } from "../../lib/store/time.ts";
import {
  cli,
  configureCodex,
  configureGemini,
  ensureCodex,
  ensureGemini,
  linkSkill,
  makeWorld,
  type World,
} from "./support/agents.ts";
import { ensureClaude } from "./support/claude.ts";
import { sleep } from "./support/tmux.ts";
import { claudeSide, codexSide, geminiSide, type Side } from "./support/cross.ts";

const STORE = ".claude/state/session";
const BANNER = "[session] Handover";

/** A mark no earlier request of the run can carry. */
const mark = (who: string) => `${who}-${crypto.randomUUID().slice(0, 8)}`;

async function doc(world: World, slug: string): Promise<string> {
  return await Deno.readTextFile(`${world.project}/${STORE}/${slug}.md`);
}

async function latest(world: World): Promise<string> {
  return (await Deno.readTextFile(`${world.project}/${STORE}/LATEST`).catch(() => "")).trim();
}

/** Waits until the hook has consumed `slug` (as it does within the /clear for Claude Code). */
async function consumed(world: World, slug: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!/^consumed: true$/m.test(await doc(world, slug))) {
    if (Date.now() > deadline) throw new Error(`"${slug}" not consumed ${ms} ms after /clear`);
    await sleep(200);
  }
}

/** `from` dumps `slug` through its model's shell tool: the doc is written, unconsumed, and LATEST. */
async function dumpOn(from: Side, world: World, slug: string, body: string) {
  const out = await from.dump(slug, body);
  assert.match(out, /^\/clear\s*$/m, `${from.name}: dump's output:\n${out.slice(-800)}`);
  assert.match(await doc(world, slug), /^consumed: false$/m);
  assert.equal(await latest(world), slug);
}

/**
 * `/clear` on `to`: its next model request carries the handover (banner and body), the doc is
 * consumed and LATEST cleared; a second `/clear` carries nothing.
 */
async function pickUp(to: Side, world: World, slug: string, body: string, tag: string) {
  await to.clear();
  // Claude Code runs its hook on /clear itself; Codex with the new thread's first turn, and
  // Gemini's hook only arms on /clear and delivers with the next message.
  if (to.restoresOnClear) await consumed(world, slug);
  const text = await to.say(`carry on ${tag}`);
  assert.ok(text.includes(`${BANNER} "${slug}" restored`), `${to.name}: banner in the request`);
  assert.ok(text.includes(body), `${to.name}: the body in the request`);
  assert.match(await doc(world, slug), /^consumed: true$/m);
  assert.equal(await latest(world), "");
  await to.clear();
  const again = await to.say(`and again ${tag}`);
  assert.ok(!again.includes(BANNER), `${to.name}: a second /clear carries nothing`);
  assert.ok(!again.includes(body), `${to.name}: nor the body`);
}

Deno.test("cross-agent e2e: a handover dumped under one agent is picked up by another", async (t) => {
  const [claudeBin, codexBin, geminiBin] = await Promise.all([
    ensureClaude(),
    ensureCodex(),
    ensureGemini(),
  ]);
  const world = await makeWorld();
  // One clock for every client, its shell tool and its hooks: each dump is "just now".
  const env = { SESSION_NOW: isoStamp(new Date()) };
  const sides: Side[] = [];
  /** A step that, when it fails, shows every client's screen and requests, then stops the test. */
  const step = async (name: string, fn: () => Promise<void>) => {
    let failure: unknown;
    const ok = await t.step(name, async () => {
      try {
        await fn();
      } catch (err) {
        failure = err;
        throw err;
      }
    });
    if (!ok) throw new Error(`step failed: ${name}`, { cause: failure });
  };
  try {
    for (const agent of [[], ["--agent", "codex"], ["--agent", "gemini"]]) {
      const installed = await cli(world, { env }, "install", ...agent);
      assert.equal(installed.code, 0, installed.out);
    }
    await linkSkill(world);
    await configureGemini(world);
    const claude = await claudeSide(claudeBin, world, env);
    sides.push(claude);

    const fromClaude = mark("CLAUDE");
    await step("Claude Code's model dumps through its Bash tool", async () => {
      await dumpOn(claude, world, "from-claude", fromClaude);
    });

    const codex = await codexSide(codexBin, world, env, (url) => configureCodex(world, url));
    sides.push(codex);
    await step("Codex, started after it, does not restore at start-up", async () => {
      const text = await codex.say("hello codex");
      assert.ok(!text.includes(fromClaude));
      assert.match(await doc(world, "from-claude"), /^consumed: false$/m);
    });
    await step("Codex /clear: the next request carries Claude Code's handover, once", async () => {
      await pickUp(codex, world, "from-claude", fromClaude, "from claude");
    });

    const fromCodex = mark("CODEX");
    await step("Codex's model dumps through its shell tool", async () => {
      await dumpOn(codex, world, "from-codex", fromCodex);
    });
    await step("Claude Code /clear: the next request carries Codex's handover, once", async () => {
      await pickUp(claude, world, "from-codex", fromCodex, "from codex");
    });

    const forGemini = mark("CLAUDE2");
    await step("Claude Code's model dumps again", async () => {
      await dumpOn(claude, world, "for-gemini", forGemini);
    });
    const gemini = await geminiSide(geminiBin, world, env);
    sides.push(gemini);
    await step("Gemini /clear: the next message carries Claude Code's handover, once", async () => {
      await pickUp(gemini, world, "for-gemini", forGemini, "from claude");
    });

    const fromGemini = mark("GEMINI");
    await step("Gemini's model dumps through its shell tool", async () => {
      await dumpOn(gemini, world, "from-gemini", fromGemini);
    });
    await step("Codex /clear: the next request carries Gemini's handover, once", async () => {
      await pickUp(codex, world, "from-gemini", fromGemini, "from gemini");
    });
  } catch (err) {
    for (const side of sides) {
      console.error(`${side.name} screen:\n${await side.tmux.screen()}`);
      for (const line of side.log()) console.error(line);
    }
    for await (const e of Deno.readDir(`${world.project}/${STORE}`)) {
      const text = await Deno.readTextFile(`${world.project}/${STORE}/${e.name}`).catch(() => "");
      console.error(`store: ${e.name}\n${text.split("\n---\n")[0]}`);
    }
    throw err;
  } finally {
    for (const side of sides) await side.stop();
    await world.cleanup();
  }
});
