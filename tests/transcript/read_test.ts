/** A transcript file of either agent: the reader follows the file, Codex's loaded only for it. */
import assert from "node:assert/strict";
import { isCodexRollout, readAnyTranscript } from "../../lib/transcript/read.ts";
import { scratchDir } from "../support/scratch.ts";

const FIXTURE = new URL("../fixtures/codex/rollout.jsonl", import.meta.url).pathname;
const ROOT = "/tmp/codex-fixture/project";

Deno.test("readAnyTranscript: the reader for the file's agent", async (t) => {
  await using dir = await scratchDir("read-any-");
  const claude = `${dir.path}/claude.jsonl`;
  await Deno.writeTextFile(
    claude,
    JSON.stringify({
      type: "user",
      cwd: ROOT,
      message: { role: "user", content: "add a --shout flag to greet" },
    }) + "\n",
  );
  await t.step("a rollout is recognised as one; a Claude Code transcript is not", async () => {
    assert.equal(await isCodexRollout(FIXTURE), true);
    assert.equal(await isCodexRollout(claude), false);
    assert.equal(await isCodexRollout(`${dir.path}/missing.jsonl`), false);
  });
  await t.step("Codex's rollout through Codex's reader", async () => {
    const facts = await readAnyTranscript(FIXTURE, { root: ROOT });
    // session_meta is a shape only the Codex reader knows: its id proves which reader ran.
    assert.equal(facts.sessionId, "01a22ace-6c6a-73a1-8a0e-6c7ea913c5d4");
    assert.equal(facts.lastRequest?.text, "deploy it to staging");
    assert.equal(facts.path, FIXTURE);
  });
  await t.step("anything else through Claude Code's reader", async () => {
    const facts = await readAnyTranscript(claude, { root: ROOT });
    assert.equal(facts.firstRequest?.text, "add a --shout flag to greet");
    assert.equal(facts.cwd, ROOT);
    assert.equal(facts.path, claude);
  });
  await t.step("a missing file rejects (the callers say why nothing was read)", async () => {
    await assert.rejects(readAnyTranscript(`${dir.path}/missing.jsonl`, { root: ROOT }));
  });
});
