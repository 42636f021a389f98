/**
 * Claude Code's restore of a handover names the session after it (`sessionTitle` in the
 * SessionStart output, read since Claude Code 2.1.152), whole or as a digest;
 * no other agent's output changes, and an automatic draft's notice names nothing.
 */
import assert from "node:assert/strict";
import { scratchProject, writeDoc } from "../support/scratch.ts";
import { clearPayload, runHookProcess } from "../support/run.ts";

/** The hook's answer for `/clear` in a project holding one handover, as the given agent. */
async function answer(o: { agent?: string; body?: string; draft?: boolean } = {}) {
  await using p = await scratchProject();
  const text = await writeDoc(p.store, "fix-login", o.body ? { body: o.body } : {});
  if (o.draft) {
    await Deno.writeTextFile(
      `${p.store.dir}/fix-login.md`,
      text.replace("consumed:", "session: old-1\ndraft: auto\nconsumed:"),
    );
  }
  const ran = await runHookProcess(clearPayload(p.root), {
    args: o.agent ? ["--agent", o.agent] : [],
  });
  assert.equal(ran.code, 0, ran.stderr);
  return JSON.parse(ran.stdout).hookSpecificOutput;
}

Deno.test("sessionTitle", async (t) => {
  await t.step("Claude Code, a handover injected whole: the slug", async () => {
    const out = await answer();
    assert.equal(out.sessionTitle, "fix-login");
    assert.match(out.additionalContext, /left this handover: "fix-login"/);
  });
  await t.step("Claude Code, a handover injected as a digest: the slug", async () => {
    const body = `## Goal\n\nBig.\n\n## Decisions\n\n${
      "- a decision — why: a reason\n".repeat(400)
    }`;
    const out = await answer({ body });
    assert.equal(out.sessionTitle, "fix-login");
  });
  await t.step("an automatic draft's notice names no session", async () => {
    const out = await answer({ draft: true });
    assert.equal(out.sessionTitle, undefined);
  });
  for (const agent of ["codex", "qwen", "opencode", "kilo"]) {
    await t.step(`--agent ${agent}: the output is as before`, async () => {
      const out = await answer({ agent });
      assert.deepEqual(Object.keys(out), ["hookEventName", "additionalContext"]);
    });
  }
});
