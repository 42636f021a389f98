/**
 * End to end in the newest pinned Claude Code (offline, against the loopback stand-in): the events
 * it added after the hook's contract was first written. A probe hook beside ours records every
 * SessionStart, SessionEnd and PostCompact payload, so each step shows what the client sent.
 *
 * - `/branch` starts a fork (SessionStart `source: "fork"`): the fork keeps the conversation, so the
 *   restore stays silent and a pending handover stays pending for the `/clear` it was written for.
 *   `/branch` also ends the original session (SessionEnd `reason: "resume"`), so the fork's own
 *   `/clear` restores the handover it inherited.
 * - `/compact` fires PostCompact after SessionStart `compact`: the card reached the model through
 *   SessionStart, and PostCompact (whose output Claude Code does not give the model) is not
 *   registered by `install`.
 */

import assert from "node:assert/strict";
import { CLAUDE_CODE_VERSIONS, ensureClaude, makeWorld, startClaude } from "./support/claude.ts";
import { cli, dumpCommand, linkSkill } from "./support/agents.ts";
import { hookContext } from "./support/hook_context.ts";
import { commitAll } from "./support/scene_store.ts";
import { banner, dumpAsked, dumpPrompt, STORE, storeDoc } from "./support/cross.ts";
import {
  carriesPrompt,
  isSummaryRequest,
  isToolResult,
  lastUserText,
  type Recorded,
  startStandIn,
  summaryReply,
} from "./support/stand_in.ts";
import { sleep } from "./support/tmux.ts";

const NEWEST = CLAUDE_CODE_VERSIONS[CLAUDE_CODE_VERSIONS.length - 1];
const bin = await ensureClaude(NEWEST);

/** The agent turns (they carry tools; the title and summary side calls do not). */
const turn = (r: Recorded) => (r.body.tools?.length ?? 0) > 0;

/** Every payload the probe recorded, oldest first. */
async function probed(file: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(file).catch(() => "");
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/** Waits until the probe holds a payload `match` accepts; returns it. */
async function probedEvent(
  file: string,
  match: (p: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const hit = (await probed(file)).find(match);
    if (hit) return hit;
    if (Date.now() > deadline) {
      throw new Error(`no such payload; probe: ${JSON.stringify(await probed(file))}`);
    }
    await sleep(250);
  }
}

Deno.test(`Claude Code ${NEWEST}: /branch (a fork) and PostCompact`, async (t) => {
  const world = await makeWorld(NEWEST);
  const standIn = startStandIn((r) => {
    if (isSummaryRequest(r)) return summaryReply();
    if (isToolResult(r)) return { text: "Handover saved — send /clear." };
    const asked = dumpAsked(lastUserText(r));
    if (!asked) return { text: "OK." };
    return { tool: "Bash", input: { command: dumpCommand(asked.slug, asked.mark) } };
  });
  const probe = `${world.home}/probe.jsonl`;
  const probeHook = {
    hooks: [{ type: "command", command: `cat >> '${probe}'; echo >> '${probe}'` }],
  };
  let tmux: Awaited<ReturnType<typeof startClaude>> | undefined;
  try {
    const installed = await cli(world, {}, "install");
    assert.equal(installed.code, 0, installed.out);
    await linkSkill(world);
    await Deno.writeTextFile(
      `${world.project}/.claude/settings.local.json`,
      JSON.stringify({
        hooks: { SessionStart: [probeHook], SessionEnd: [probeHook], PostCompact: [probeHook] },
      }),
    );
    await commitAll(world, "setup");
    tmux = await startClaude(bin, world, standIn);
    const mark = `FORK-${crypto.randomUUID().slice(0, 8)}`;

    await t.step("install registers no PostCompact hook", async () => {
      const settings = JSON.parse(
        await Deno.readTextFile(`${world.project}/.claude/settings.json`),
      );
      assert.equal(settings.hooks?.PostCompact, undefined, JSON.stringify(settings.hooks));
    });

    await t.step("the model dumps; the handover is pending", async () => {
      const since = standIn.requests.length;
      await tmux!.submit(dumpPrompt("before-fork", mark));
      await standIn.waitFor(isToolResult, { since, timeoutMs: 45_000 });
      assert.match(await storeDoc(world, "before-fork"), /^consumed: false$/m);
    });

    await t.step("/branch: SessionStart fork; nothing injected, still pending", async () => {
      await tmux!.submit("/branch");
      const fork = await probedEvent(probe, (p) => p.source === "fork");
      assert.equal(fork.hook_event_name, "SessionStart");
      await sleep(2_000);
      const since = standIn.requests.length;
      await tmux!.submit("after the branch");
      const r = await standIn.waitFor(
        (r) => turn(r) && carriesPrompt(r, "after the branch"),
        { since, timeoutMs: 45_000 },
      );
      assert.ok(!hookContext(r).includes(banner("before-fork")), hookContext(r).slice(0, 400));
      assert.match(await storeDoc(world, "before-fork"), /^consumed: false$/m);
      const latest = await Deno.readTextFile(`${world.project}/${STORE}/LATEST`);
      assert.equal(latest.trim(), "before-fork");
    });

    await t.step("/compact: PostCompact follows SessionStart compact", async () => {
      const since = standIn.requests.length;
      await tmux!.submit("/compact");
      await standIn.waitFor(isSummaryRequest, { since, timeoutMs: 60_000 });
      const post = await probedEvent(probe, (p) => p.hook_event_name === "PostCompact");
      assert.equal(post.trigger, "manual");
      assert.equal(typeof post.compact_summary, "string");
      const events = (await probed(probe)).map((p) => `${p.hook_event_name}:${p.source ?? ""}`);
      const start = events.lastIndexOf("SessionStart:compact");
      assert.ok(start >= 0 && start < events.lastIndexOf("PostCompact:"), events.join(", "));
    });

    await t.step("/clear in the fork: the handover it inherited is restored, once", async () => {
      // `/branch` ended the original session (SessionEnd `reason: "resume"`), so its handover
      // is free for the next `/clear`, which the fork is.
      const ended = await probedEvent(probe, (p) => p.hook_event_name === "SessionEnd");
      assert.equal(ended.reason, "resume");
      await tmux!.submit("/clear");
      await sleep(3_000);
      const since = standIn.requests.length;
      await tmux!.submit("where were we?");
      const r = await standIn.waitFor(
        (r) => turn(r) && carriesPrompt(r, "where were we?"),
        { since, timeoutMs: 45_000 },
      );
      assert.ok(hookContext(r).includes(banner("before-fork")), hookContext(r).slice(0, 400));
      assert.ok(hookContext(r).includes(mark), "the handover's body");
      assert.match(await storeDoc(world, "before-fork"), /^consumed: true$/m);
    });
  } finally {
    if (tmux) {
      if (Deno.env.get("E2E_SHOW")) console.error(await tmux.screen());
      await tmux.kill();
    }
    await standIn.close();
    await world.cleanup();
  }
});
