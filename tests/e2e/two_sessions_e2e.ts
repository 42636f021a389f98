/**
 * End to end in the real Claude Code (each pinned version, offline, against its loopback
 * stand-in): two Claude Code processes in one project. A's model dumps through its Bash tool; B's
 * `/clear` brings nothing of A's; A's `/clear` brings A's handover, once. The link is SessionEnd's
 * clearing mark (docs/HOOK.md, "Two sessions in one project").
 */

import assert from "node:assert/strict";
import { CLAUDE_CODE_VERSIONS, ensureClaude } from "./support/claude.ts";
import { banner, storeDoc, withClaudeSides } from "./support/cross.ts";
import { sleep } from "./support/tmux.ts";

for (const version of CLAUDE_CODE_VERSIONS) {
  const bin = await ensureClaude(version);
  Deno.test(`two sessions e2e (Claude Code ${version}): a handover goes to its own session`, async (t) => {
    await withClaudeSides(bin, 2, async (world, [a, b]) => {
      const mark = `A-${crypto.randomUUID().slice(0, 8)}`;
      await t.step("A's model dumps; the document names A's session", async () => {
        const out = await a.dump("from-a", mark);
        assert.match(out, /^\/clear\s*$/m, out.slice(-800));
        assert.match(await storeDoc(world, "from-a"), /^session: \S+$/m);
      });
      await t.step("B /clear: B's next request carries nothing of A's", async () => {
        await b.clear();
        const text = await b.say("carry on b");
        assert.ok(!text.includes(mark), "B was given A's handover");
        assert.match(await storeDoc(world, "from-a"), /^consumed: false$/m);
      });
      await t.step("A /clear: A's next request carries A's handover, once", async () => {
        await a.clear();
        const deadline = Date.now() + 20_000;
        while (!/^consumed: true$/m.test(await storeDoc(world, "from-a"))) {
          if (Date.now() > deadline) throw new Error('"from-a" not consumed after A\'s /clear');
          await sleep(200);
        }
        const text = await a.say("carry on a");
        assert.ok(text.includes(banner("from-a")) && text.includes(mark), "A's handover");
        await a.clear();
        const again = await a.say("and again a");
        assert.ok(!again.includes(mark), "a second /clear carries it no more");
      });
    });
  });
}
