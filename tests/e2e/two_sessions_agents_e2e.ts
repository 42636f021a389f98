/**
 * End to end in the real Codex CLI and Gemini CLI (pinned, offline, against their loopback
 * stand-ins): two windows of one agent in one project, as far as each agent lets the hook tell
 * them apart (docs/HOOK.md, "Two sessions in one project").
 *
 * - Codex 0.171 fires no SessionEnd on `/clear` (a thread's SessionEnd comes only when Codex
 *   exits), so nothing links a `/clear` to the thread it ends: the plain rule holds. The test pins
 *   that fact (no clearing mark after a `/clear`; when Codex starts sending SessionEnd there, it
 *   fails, and the link is the one Claude Code's gets) and that the handover goes out once.
 * - Gemini 0.61's shell tool carries no session id, so a Gemini dump has no known writer; what
 *   Gemini allows is the per-session arm: a message in the other window neither takes nor drops
 *   the arm A's `/clear` left, and A's next message gets A's handover, once.
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
import { banner, codexSide, geminiSide, STORE, storeDoc, withSides } from "./support/cross.ts";

/** The store's hidden files whose names start with `prefix`. */
function hidden(world: World, prefix: string): string[] {
  return [...Deno.readDirSync(`${world.project}/${STORE}`)].map((e) => e.name)
    .filter((n) => n.startsWith(prefix));
}

const [codexBin, geminiBin] = await Promise.all([ensureCodex(), ensureGemini()]);

Deno.test("two sessions e2e (Codex): no /clear link; the handover goes out once", async (t) => {
  const world = await makeWorld();
  const env = { SESSION_NOW: isoStamp(new Date()) };
  await withSides(world, STORE, async (sides) => {
    const installed = await cli(world, { env }, "install", "--agent", "codex");
    assert.equal(installed.code, 0, installed.out);
    await linkSkill(world);
    const a = await codexSide(codexBin, world, env, (url) => configureCodex(world, url));
    sides.push(a);
    // Codex rereads its config for a new thread: B's stand-in gets B's own CODEX_HOME.
    const home = `${world.home}/b`;
    const bEnv = { ...env, CODEX_HOME: `${home}/.codex` };
    const b = await codexSide(
      codexBin,
      world,
      bEnv,
      (url) => configureCodex({ ...world, home }, url),
    );
    sides.push(b);
    const mark = `A-${crypto.randomUUID().slice(0, 8)}`;
    await t.step("A's model dumps; the document names A's thread (CODEX_THREAD_ID)", async () => {
      const out = await a.dump("from-a", mark);
      assert.match(out, /^\/clear\s*$/m, out.slice(-800));
      assert.match(await storeDoc(world, "from-a"), /^session: \S+$/m);
    });
    await t.step("A /clear: no SessionEnd, so no clearing mark; A gets its handover", async () => {
      await a.clear();
      const text = await a.say("carry on a");
      assert.deepEqual(hidden(world, ".clearing-"), [], "Codex now links /clear: use the mark");
      assert.ok(text.includes(banner("from-a")) && text.includes(mark), "A's handover");
      assert.match(await storeDoc(world, "from-a"), /^consumed: true$/m);
    });
    await t.step("B /clear: nothing of A's comes again", async () => {
      await b.clear();
      const text = await b.say("carry on b");
      assert.ok(!text.includes(mark), "B was given A's handover a second time");
    });
  });
});

Deno.test("two sessions e2e (Gemini): A's arm is A's; B's messages leave it", async (t) => {
  const world = await makeWorld();
  const env = { SESSION_NOW: isoStamp(new Date()) };
  await withSides(world, STORE, async (sides) => {
    const installed = await cli(world, { env }, "install", "--agent", "gemini");
    assert.equal(installed.code, 0, installed.out);
    await linkSkill(world);
    await configureGemini(world);
    const a = await geminiSide(geminiBin, world, env);
    sides.push(a);
    const b = await geminiSide(geminiBin, world, env);
    sides.push(b);
    const mark = `A-${crypto.randomUUID().slice(0, 8)}`;
    await t.step("A's model dumps; Gemini's shell tool names no session", async () => {
      const out = await a.dump("from-a", mark);
      assert.match(out, /^\/clear\s*$/m, out.slice(-800));
      assert.doesNotMatch(await storeDoc(world, "from-a"), /^session:/m);
    });
    await t.step("A /clear arms A's session; B's message neither takes nor drops it", async () => {
      await a.clear();
      const arms = hidden(world, ".gemini-armed-");
      assert.equal(arms.length, 1, `arms: ${arms}`);
      const text = await b.say("hello from b");
      assert.ok(!text.includes(mark), "B was given A's handover");
      assert.deepEqual(hidden(world, ".gemini-armed-"), arms);
      assert.match(await storeDoc(world, "from-a"), /^consumed: false$/m);
    });
    await t.step("A's next message carries A's handover, once", async () => {
      const text = await a.say("carry on a");
      assert.ok(text.includes(banner("from-a")) && text.includes(mark), "A's handover");
      assert.match(await storeDoc(world, "from-a"), /^consumed: true$/m);
      await a.clear();
      const after = await a.say("after a second clear");
      assert.ok(!after.includes(mark), "a second /clear carries it no more");
    });
  });
});
