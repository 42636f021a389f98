/**
 * SessionEnd of a fork (Claude Code's `/branch`): the fork continues its parent's conversation,
 * so a handover the parent dumped is the fork's own — no draft of the fork over it.
 */
import assert from "node:assert/strict";
import { answerSessionEnd } from "../../lib/continuity/session_end.ts";
import { DEFAULT_OPTIONS, parsePayload } from "../../lib/hook/input.ts";
import { join } from "../../lib/fs/path.ts";
import { NOW, scratchProject } from "../support/scratch.ts";
import {
  docsIn,
  endPayload,
  minutesAgo,
  SESSION,
  timedTranscript,
  workSteps,
  writeSessionDump,
} from "./_fixture.ts";

const FORK = "99999999-8888-4777-8666-555555555555";

/** The parent's work, copied as a fork copies it (each record `forkedFrom` the parent), then `after`. */
function forkTranscript(root: string, after: ReturnType<typeof workSteps>): string {
  const copied = timedTranscript(root, [{ at: minutesAgo(5), steps: workSteps() }]).split("\n")
    .filter((l) => l.trim()).map((l) =>
      JSON.stringify({ ...JSON.parse(l), forkedFrom: { sessionId: SESSION, messageUuid: "m" } })
    );
  const own = timedTranscript(root, [{ at: minutesAgo(1), steps: after }], FORK);
  return `${copied.join("\n")}\n${own}`;
}

async function endFork(root: string, transcript: string) {
  const payload = parsePayload(JSON.stringify(endPayload(root, transcript, { session_id: FORK })))!;
  return await answerSessionEnd(payload, DEFAULT_OPTIONS, {}, NOW.getTime());
}

Deno.test("SessionEnd of a fork whose parent dumped", async (t) => {
  await t.step(
    "work after the branch: 'Since the dump' on the parent's handover, no draft",
    async () => {
      await using p = await scratchProject();
      await writeSessionDump(p.store, "mine", { created: minutesAgo(3) });
      const tr = join(p.root, "fork.jsonl");
      await Deno.writeTextFile(
        tr,
        forkTranscript(p.root, [
          { prompt: "also fix the footer" },
          { tool: "Edit", input: { file_path: "src/footer.ts" }, result: "ok" },
        ]),
      );
      const r = await endFork(p.root, tr);
      assert.match(r.reason, /appended "Since the dump" to "mine"/);
      assert.deepEqual(docsIn(p.store), ["mine.md"]);
      const text = await Deno.readTextFile(join(p.store.dir, "mine.md"));
      assert.match(text, /## Since the dump[\s\S]*src\/footer\.ts/);
    },
  );
  await t.step("no work after the branch: nothing written", async () => {
    await using p = await scratchProject();
    const dump = await writeSessionDump(p.store, "mine", { created: minutesAgo(3) });
    const tr = join(p.root, "fork.jsonl");
    await Deno.writeTextFile(tr, forkTranscript(p.root, [{ say: "OK." }]));
    const r = await endFork(p.root, tr);
    assert.match(r.reason, /dumped "mine" and did no work after/);
    assert.equal(await Deno.readTextFile(join(p.store.dir, "mine.md")), dump);
  });
  await t.step("the parent's handover already consumed: the fork's work is drafted", async () => {
    await using p = await scratchProject();
    await writeSessionDump(p.store, "mine", { created: minutesAgo(3), consumed: true });
    const tr = join(p.root, "fork.jsonl");
    await Deno.writeTextFile(
      tr,
      forkTranscript(p.root, [
        { prompt: "also fix the footer" },
        { tool: "Edit", input: { file_path: "src/footer.ts" }, result: "ok" },
      ]),
    );
    const r = await endFork(p.root, tr);
    assert.match(r.reason, /^drafted /);
    assert.equal(docsIn(p.store).length, 2);
  });
  await t.step("not a fork: another session's pending handover is not this one's", async () => {
    await using p = await scratchProject();
    await writeSessionDump(p.store, "mine", { created: minutesAgo(3) });
    const tr = join(p.root, "other.jsonl");
    await Deno.writeTextFile(
      tr,
      timedTranscript(p.root, [{ at: minutesAgo(1), steps: workSteps("src/b.ts") }], FORK),
    );
    const r = await endFork(p.root, tr);
    assert.match(r.reason, /^drafted /);
  });
});
