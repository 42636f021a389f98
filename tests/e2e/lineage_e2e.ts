/**
 * End to end in the real Claude Code (each pinned version, offline, against its loopback
 * stand-in): the story of a task across a `/clear`. The model dumps; `/clear` restores that
 * handover into the new session; the model dumps again, and that handover's `parent:` is the
 * first (the hook's `.restored-<session id>` record, read by `dump` through the session id Claude
 * Code gives its Bash tool); `recall --chain` then prints both goals.
 */

import assert from "node:assert/strict";
import { splitFrontMatter } from "../../lib/store/front_matter.ts";
import { cli } from "./support/agents.ts";
import { CLAUDE_CODE_VERSIONS, ensureClaude } from "./support/claude.ts";
import { banner, storeDoc, withClaudeSides } from "./support/cross.ts";
import { sleep } from "./support/tmux.ts";

/** Waits until the store's document `slug` reads as consumed (the hook restored it). */
async function consumed(world: Parameters<typeof storeDoc>[0], slug: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!/^consumed: true$/m.test(await storeDoc(world, slug))) {
    if (Date.now() > deadline) throw new Error(`"${slug}" not consumed after /clear`);
    await sleep(200);
  }
}

for (const version of CLAUDE_CODE_VERSIONS) {
  const bin = await ensureClaude(version);
  Deno.test(`lineage e2e (Claude Code ${version}): dump, /clear, dump names its parent`, async (t) => {
    await withClaudeSides(bin, 1, async (world, [side], env) => {
      const first = `FIRST-${crypto.randomUUID().slice(0, 8)}`;
      const second = `SECOND-${crypto.randomUUID().slice(0, 8)}`;
      await t.step("the model dumps the first handover; it names no parent", async () => {
        const out = await side.dump("first", first);
        assert.match(out, /^\/clear\s*$/m, out.slice(-800));
        assert.equal(splitFrontMatter(await storeDoc(world, "first"))!.fields.parent, undefined);
      });
      await t.step("/clear: the new session is given the first handover", async () => {
        await side.clear();
        await consumed(world, "first");
        const text = await side.say("where were we?");
        assert.ok(text.includes(banner("first")) && text.includes(first), "restored");
      });
      await t.step("the restored session dumps again: parent: first", async () => {
        const out = await side.dump("second", second);
        assert.match(out, /^\/clear\s*$/m, out.slice(-800));
        const fields = splitFrontMatter(await storeDoc(world, "second"))!.fields;
        assert.equal(fields.parent, "first", JSON.stringify(fields));
        const session = splitFrontMatter(await storeDoc(world, "first"))!.fields.session;
        assert.notEqual(fields.session, session, "written by the session after the /clear");
      });
      await t.step("recall --chain prints both goals, newest first", async () => {
        const r = await cli(world, { env }, "recall", "second", "--chain");
        assert.equal(r.code, 0, r.out);
        const at = [second, first].map((mark) => r.out.indexOf(mark));
        assert.ok(at[0] >= 0 && at[1] > at[0], r.out);
        assert.match(r.out, /✓ chain: 2 handovers read, back to its first/);
      });
    });
  });
}
