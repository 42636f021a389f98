/**
 * The two halves of a cross-agent hand-off on {@link Side}s: one side's model dumps, another
 * side's fresh session carries the handover, once. What cross_agent_e2e.ts checks for each pair,
 * shared with the e2e files of single agents that pair with Claude Code.
 * @module
 */

import assert from "node:assert/strict";
import type { World } from "./claude.ts";
import { banner, type Side, STORE, storeDoc } from "./cross.ts";
import { sleep } from "./tmux.ts";

/** A mark no earlier request of the run can carry. */
export const mark = (who: string) => `${who}-${crypto.randomUUID().slice(0, 8)}`;

/** The slug LATEST names ("" when none). */
export async function latest(world: World): Promise<string> {
  return (await Deno.readTextFile(`${world.project}/${STORE}/LATEST`).catch(() => "")).trim();
}

/** Waits until the hook has consumed `slug` (as it does within the /clear for Claude Code). */
export async function consumed(world: World, slug: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!/^consumed: true$/m.test(await storeDoc(world, slug))) {
    if (Date.now() > deadline) throw new Error(`"${slug}" not consumed ${ms} ms after /clear`);
    await sleep(200);
  }
}

/** `from` dumps `slug` through its model's shell tool: the doc is written, unconsumed, and LATEST. */
export async function dumpOn(from: Side, world: World, slug: string, body: string) {
  const out = await from.dump(slug, body);
  assert.match(out, /^\/clear\s*$/m, `${from.name}: dump's output:\n${out.slice(-800)}`);
  assert.match(await storeDoc(world, slug), /^consumed: false$/m);
  assert.equal(await latest(world), slug);
}

/** The request after `/clear` carried `slug` (banner and body); the doc is consumed, LATEST clear. */
export async function carried(to: Side, world: World, slug: string, body: string, text: string) {
  assert.ok(text.includes(banner(slug)), `${to.name}: banner in the request`);
  assert.ok(text.includes(body), `${to.name}: the body in the request`);
  assert.match(await storeDoc(world, slug), /^consumed: true$/m);
  assert.equal(await latest(world), "");
}

/** Another `/clear` on `to`: its next request carries no second copy of `slug`. */
export async function carriedOnce(to: Side, slug: string, body: string, tag: string) {
  await to.clear();
  const again = await to.say(`and again ${tag}`);
  // A notice of a draft of the session that just ended may come: that is another document.
  assert.ok(!again.includes(banner(slug)), `${to.name}: a second /clear carries it no more`);
  assert.ok(!again.includes(body), `${to.name}: nor the body`);
}

/**
 * `/clear` on `to`: its next model request carries the handover, the doc is consumed and LATEST
 * cleared; a second `/clear` carries nothing.
 */
export async function pickUp(to: Side, world: World, slug: string, body: string, tag: string) {
  await to.clear();
  // Claude Code runs its hook on /clear itself; the others with the new session's first turn.
  if (to.restoresOnClear) await consumed(world, slug);
  await carried(to, world, slug, body, await to.say(`carry on ${tag}`));
  await carriedOnce(to, slug, body, tag);
}
