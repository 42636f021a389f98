/**
 * The end-to-end flow Qwen Code and opencode share, on a {@link Side} (support/cross_chat.ts):
 * install through the CLI; the model dumps through the client's shell tool; after the client's
 * fresh-session command the next request carries the handover, once; a compaction brings the
 * card of the handover the session started from; another fresh session carries nothing; uninstall
 * removes what install added. Each client's file says only how it differs.
 * @module
 */

import assert from "node:assert/strict";
import { isoStamp } from "../../../lib/store/time.ts";
import { cli, linkSkill, makeWorld, type World } from "./agents.ts";
import type { Side } from "./cross.ts";
import { sleep } from "./tmux.ts";

const STORE = ".claude/state/session";
const BANNER = "[session] The previous session left";
const CARD = "[session] The context was just compacted";

/** How one client differs. */
export interface ChatFlow {
  /** `--agent` for install and uninstall. */
  agent: string;
  /** Its user settings in the world's HOME (before install). */
  configure: (world: World) => Promise<void>;
  /** Starts the client and its stand-in. */
  start: (world: World, env: Record<string, string>) => Promise<Side>;
  /** Compacts the session and waits until the client is done. */
  compact: (side: Side) => Promise<void>;
  /** Checks what uninstall left. */
  uninstalled: (world: World) => Promise<void>;
}

async function doc(world: World, slug: string): Promise<string> {
  return await Deno.readTextFile(`${world.project}/${STORE}/${slug}.md`);
}

/**
 * Runs `body` in a fresh world with the client's user settings (`configure`) and the clock pinned;
 * when it throws, prints the screen and requests of the side it handed to `hold`; always stops that
 * side and removes the world.
 */
export async function inChatWorld(
  configure: (world: World) => Promise<void>,
  body: (world: World, env: Record<string, string>, hold: (side: Side) => Side) => Promise<void>,
): Promise<void> {
  const world = await makeWorld();
  const env = { SESSION_NOW: isoStamp(new Date()) };
  let side: Side | undefined;
  try {
    await configure(world);
    await body(world, env, (s) => side = s);
  } catch (err) {
    console.error(`screen:\n${await side?.tmux.screen()}`);
    for (const line of side?.log() ?? []) console.error(line);
    throw err;
  } finally {
    await side?.stop();
    await world.cleanup();
  }
}

/** A step of test `t` whose failure stops the test. */
export async function mustStep(t: Deno.TestContext, name: string, fn: () => Promise<void>) {
  if (!(await t.step(name, fn))) throw new Error(`step failed: ${name}`);
}

/** Runs the flow as the steps of test `t`; a failed step stops it with the screen and requests. */
export function chatFlow(t: Deno.TestContext, flow: ChatFlow): Promise<void> {
  const slug = `e2e-${flow.agent}`;
  const mark = `mark-${flow.agent}-1`;
  const step = (name: string, fn: () => Promise<void>) => mustStep(t, name, fn);
  return inChatWorld(flow.configure, async (world, env, hold) => {
    const installed = await cli(world, { env }, "install", "--agent", flow.agent);
    assert.equal(installed.code, 0, installed.out);
    await linkSkill(world);
    const s = hold(await flow.start(world, env));

    await step(
      "the skill is listed; the model's shell tool runs dump; its last line is /clear",
      async () => {
        const hello = await s.say("hello");
        // The skill from ~/.agents/skills, with its SKILL.md path; nothing to restore yet.
        assert.match(hello, /session\/SKILL\.md|Handover that survives \/clear/);
        assert.ok(!hello.includes(BANNER));
        const output = await s.dump(slug, mark);
        assert.match(output, /\/clear\s*$/m, output);
        assert.match(await doc(world, slug), /consumed: false/);
      },
    );

    await step("a fresh session: its next request carries the handover, once", async () => {
      await s.clear();
      const text = await s.say("carry on");
      assert.ok(text.includes(`${BANNER} this handover: "${slug}"`), "the banner");
      assert.ok(text.includes(mark), "the body");
      assert.ok(!text.includes("please dump"), "the old conversation is gone");
      assert.match(await doc(world, slug), /consumed: true/);
    });

    await step("a compaction: the card of the handover this session started from", async () => {
      await flow.compact(s);
      await sleep(2_000);
      const text = await s.say("after the compaction");
      assert.ok(text.includes(CARD), "the card");
      assert.ok(text.includes(mark), "the handover's goal in the card");
    });

    await step("another fresh session carries nothing", async () => {
      await s.clear();
      const text = await s.say("second round");
      assert.ok(!text.includes(BANNER));
      assert.ok(!text.includes(mark));
    });

    await step("uninstall removes exactly what install added", async () => {
      const removed = await cli(world, { env }, "uninstall", "--agent", flow.agent);
      assert.equal(removed.code, 0, removed.out);
      await flow.uninstalled(world);
    });
  });
}
