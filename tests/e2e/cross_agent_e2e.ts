/**
 * End to end across agents, in one scratch project with the hooks of Claude Code, Codex CLI and
 * Gemini CLI (and Qwen Code and opencode) all installed (each real client pinned, offline, against
 * its loopback stand-in): a handover one agent's model dumps through its shell tool is what the
 * next model request of another agent carries after `/clear` (opencode: `/new`), once. Claude Code
 * → Codex, Claude Code → Gemini, Gemini → Codex; Claude Code → Qwen Code, Claude Code → opencode.
 * A handover a known session of another agent wrote is that session's: Claude Code's `/clear`
 * leaves Codex's dump pending (docs/HOOK.md, "Two sessions in one project"). The store is the
 * project's, not the agent's.
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
import {
  banner,
  claudeSide,
  codexSide,
  geminiSide,
  type Side,
  STORE,
  storeDoc,
  withSides,
} from "./support/cross.ts";
import { configureQwen, ensureOpencode, ensureQwen } from "./support/chat_agents.ts";
import { opencodeSide, qwenSide } from "./support/cross_chat.ts";

/** A mark no earlier request of the run can carry. */
const mark = (who: string) => `${who}-${crypto.randomUUID().slice(0, 8)}`;

async function latest(world: World): Promise<string> {
  return (await Deno.readTextFile(`${world.project}/${STORE}/LATEST`).catch(() => "")).trim();
}

/** Waits until the hook has consumed `slug` (as it does within the /clear for Claude Code). */
async function consumed(world: World, slug: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!/^consumed: true$/m.test(await storeDoc(world, slug))) {
    if (Date.now() > deadline) throw new Error(`"${slug}" not consumed ${ms} ms after /clear`);
    await sleep(200);
  }
}

/** `from` dumps `slug` through its model's shell tool: the doc is written, unconsumed, and LATEST. */
async function dumpOn(from: Side, world: World, slug: string, body: string) {
  const out = await from.dump(slug, body);
  assert.match(out, /^\/clear\s*$/m, `${from.name}: dump's output:\n${out.slice(-800)}`);
  assert.match(await storeDoc(world, slug), /^consumed: false$/m);
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
  assert.ok(text.includes(banner(slug)), `${to.name}: banner in the request`);
  assert.ok(text.includes(body), `${to.name}: the body in the request`);
  assert.match(await storeDoc(world, slug), /^consumed: true$/m);
  assert.equal(await latest(world), "");
  await to.clear();
  const again = await to.say(`and again ${tag}`);
  // Carries no second copy (a notice of a draft of the session that just ended may come: that
  // is another document).
  assert.ok(!again.includes(banner(slug)), `${to.name}: a second /clear carries it no more`);
  assert.ok(!again.includes(body), `${to.name}: nor the body`);
}

const [claudeBin, codexBin, geminiBin, qwenBin, opencodeBin] = await Promise.all([
  ensureClaude(),
  ensureCodex(),
  ensureGemini(),
  ensureQwen(),
  ensureOpencode(),
]);

/** One scratch project with every agent's hook installed, and the clients a test starts in it. */
interface Scene {
  world: World;
  /** One clock for every client, its shell tool and its hooks: each dump is "just now". */
  env: Record<string, string>;
  /** Starts a client (stopped after the test). */
  start: <S extends Side>(side: Promise<S>) => Promise<S>;
  /** A step that, when it fails, stops the test (whose failure shows every client and the store). */
  step: (name: string, fn: () => Promise<void>) => Promise<void>;
}

function crossTest(name: string, fn: (s: Scene) => Promise<void>, ignore = false) {
  Deno.test({ name, ignore }, async (t) => {
    const world = await makeWorld();
    const env = { SESSION_NOW: isoStamp(new Date()) };
    await withSides(world, STORE, async (sides) => {
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
      const start = async <S extends Side>(side: Promise<S>) => {
        const started = await side;
        sides.push(started);
        return started;
      };
      const agents = ["codex", "gemini", "qwen", "opencode"].map((a) => ["--agent", a]);
      for (const agent of [[], ...agents]) {
        const installed = await cli(world, { env }, "install", ...agent);
        assert.equal(installed.code, 0, installed.out);
      }
      await linkSkill(world);
      await configureGemini(world);
      await configureQwen(world);
      await fn({ world, env, start, step });
    });
  });
}

crossTest("cross-agent e2e: a handover dumped under one agent is picked up by another", async (
  { world, env, start, step },
) => {
  const claude = await start(claudeSide(claudeBin, world, env));
  const fromClaude = mark("CLAUDE");
  await step("Claude Code's model dumps through its Bash tool", async () => {
    await dumpOn(claude, world, "from-claude", fromClaude);
  });

  const codex = await start(codexSide(codexBin, world, env, (url) => configureCodex(world, url)));
  await step("Codex, started after it, does not restore at start-up", async () => {
    const text = await codex.say("hello codex");
    assert.ok(!text.includes(fromClaude));
    assert.match(await storeDoc(world, "from-claude"), /^consumed: false$/m);
  });
  await step("Codex /clear: the next request carries Claude Code's handover, once", async () => {
    await pickUp(codex, world, "from-claude", fromClaude, "from claude");
  });

  const fromCodex = mark("CODEX");
  await step("Codex's model dumps through its shell tool", async () => {
    await dumpOn(codex, world, "from-codex", fromCodex);
  });
  // Codex's thread wrote it: another session's /clear leaves it pending (SPEC, two sessions), even
  // another agent's; Codex links no /clear, so its next /clear takes it.
  await step("Claude Code /clear: Codex's handover stays pending for Codex", async () => {
    await claude.clear();
    const text = await claude.say("carry on from codex");
    assert.ok(!text.includes(fromCodex), "Claude Code was given Codex's handover");
    assert.match(await storeDoc(world, "from-codex"), /^consumed: false$/m);
  });
  await step("Codex /clear: the next request carries its own handover, once", async () => {
    await pickUp(codex, world, "from-codex", fromCodex, "from codex");
  });

  const forGemini = mark("CLAUDE2");
  await step("Claude Code's model dumps again", async () => {
    await dumpOn(claude, world, "for-gemini", forGemini);
  });
  const gemini = await start(geminiSide(geminiBin, world, env));
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
});

crossTest(
  "cross-agent e2e: Claude Code's handover is picked up by Qwen Code and by opencode",
  async (
    { world, env, start, step },
  ) => {
    const claude = await start(claudeSide(claudeBin, world, env));
    const forQwen = mark("CLAUDE-Q");
    await step("Claude Code's model dumps through its Bash tool", async () => {
      await dumpOn(claude, world, "for-qwen", forQwen);
    });
    const qwen = await start(qwenSide(qwenBin, world, env));
    await step(
      "Qwen Code /clear: the next request carries Claude Code's handover, once",
      async () => {
        await pickUp(qwen, world, "for-qwen", forQwen, "from claude");
      },
    );

    const forOpencode = mark("CLAUDE-O");
    await step("Claude Code's model dumps again", async () => {
      await dumpOn(claude, world, "for-opencode", forOpencode);
    });
    const opencode = await start(opencodeSide(opencodeBin, world, env));
    await step("opencode /new: the new session carries Claude Code's handover, once", async () => {
      await pickUp(opencode, world, "for-opencode", forOpencode, "from claude");
    });
  },
);

/**
 * Gemini's arm names the handover it announced, not only its session (lib/hook/answer.ts). When
 * another agent restores that handover first and then dumps a new one, Gemini's next message — no
 * /clear in between — must not take the new one, or the agent it was dumped for would find
 * nothing after its /clear.
 */
crossTest(
  "cross-agent e2e: Gemini's stale arm does not take a handover dumped after another agent restored",
  async ({ world, env, start, step }) => {
    const claude = await start(claudeSide(claudeBin, world, env));
    const gemini = await start(geminiSide(geminiBin, world, env));
    const first = mark("FIRST");
    const second = mark("SECOND");
    await step(
      "Claude Code dumps; Gemini /clear arms it; Claude Code /clear restores it",
      async () => {
        await dumpOn(claude, world, "first", first);
        await gemini.clear();
        const names = [...Deno.readDirSync(`${world.project}/${STORE}`)].map((e) => e.name);
        assert.ok(names.some((n) => n.startsWith(".gemini-armed")), `no arm in ${names}`);
        await claude.clear();
        await consumed(world, "first");
        assert.ok((await claude.say("carry on")).includes(first));
      },
    );
    await step("Claude Code dumps again: Gemini's next message does not take it", async () => {
      await dumpOn(claude, world, "second", second);
      const text = await gemini.say("hello gemini");
      assert.ok(!text.includes(second), "Gemini took the handover dumped for Claude Code");
      assert.match(await storeDoc(world, "second"), /^consumed: false$/m);
    });
    await step("Claude Code /clear: its next request carries it", async () => {
      await pickUp(claude, world, "second", second, "with the second");
    });
  },
);
