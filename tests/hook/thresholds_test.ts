/**
 * The hook's thresholds, each on both sides — the digest (8,000 characters, per agent), the
 * window (30 minutes) and the clock skew (a minute ahead) — and the root rule when
 * `CLAUDE_PROJECT_DIR` and the payload's `cwd` lie in different git repositories.
 */
import assert from "node:assert/strict";
import { answer } from "../../lib/hook/answer.ts";
import { DEFAULT_OPTIONS, parseHookArgs } from "../../lib/hook/input.ts";
import { type Agent, BUDGETS } from "../../lib/frame/budget.ts";
import { findRoot, storeAt } from "../../lib/store/store.ts";
import { readLatest } from "../../lib/store/latest.ts";
import { FUTURE_SKEW_MS, WINDOW_MS } from "../../lib/store/time.ts";
import { runCliInProcess } from "../support/run.ts";
import { clearPayload, contextOf, runHookProcess } from "../support/run.ts";
import { NOW, put, scratchProject, writeDoc } from "../support/scratch.ts";

const clear = (cwd: string, session = "s-1") => ({
  cwd,
  session_id: session,
  hook_event_name: "SessionStart",
  source: "clear",
});

/** What the agent's model is given after `/clear` (Gemini: on the next BeforeAgent). */
async function injected(cwd: string, agent: Agent, now = NOW): Promise<string | undefined> {
  const options = parseHookArgs(["--agent", agent]);
  let r = await answer(clear(cwd), options, {}, now);
  if (agent === "gemini") {
    assert.match(r.stdout ?? "", /will be restored with your next message/, r.reason);
    r = await answer({ ...clear(cwd), hook_event_name: "BeforeAgent" }, options, {}, now);
  }
  if (r.stdout === undefined) return undefined;
  return JSON.parse(r.stdout).hookSpecificOutput.additionalContext;
}

/** A body of exactly `n` characters once trimmed, ending in a Next step. */
function bodyOf(n: number): string {
  const head = "## Goal\n\nA large one.\n\n## Notes\n\n";
  const tail = "\n\n## Next step\n\nGo.";
  return head + "y".repeat(n - head.length - tail.length) + tail;
}

Deno.test("the digest threshold, on both sides, per agent", async (t) => {
  for (const agent of ["claude", "codex", "gemini"] as const) {
    const over = BUDGETS[agent].digestOver;
    assert.equal(over, 8_000, "SPEC: a body over 8,000 characters is digested");
    await t.step(`${agent}: ${over} characters whole, ${over + 1} a digest`, async () => {
      await using p = await scratchProject();
      const exact = bodyOf(over);
      assert.equal(exact.length, over);
      await writeDoc(p.store, "exact", { body: exact + "\n" });
      const whole = await injected(p.root, agent);
      assert.ok(whole?.includes(exact), `${agent}: the body of ${over} is injected whole`);
      assert.doesNotMatch(whole!, /Digest of a large handover/);

      const big = bodyOf(over + 1);
      await writeDoc(p.store, "big", { body: big + "\n" });
      const digest = await injected(p.root, agent);
      assert.ok(digest !== undefined && !digest.includes(big), `${agent}: not whole`);
      assert.match(digest, /Digest of a large handover/);
      assert.match(digest, /## Next step/);
      assert.ok(digest.length <= BUDGETS[agent].limit);
    });
  }
});

/** Ages at and around the window's edges, and whether each injects. */
const EDGES: [string, number, boolean][] = [
  ["30:00 exactly", WINDOW_MS, true],
  ["30:00 + 1 ms", WINDOW_MS + 1, false],
  ["60 s ahead exactly (the skew limit)", -FUTURE_SKEW_MS, true],
  ["60 s + 1 ms ahead", -FUTURE_SKEW_MS - 1, false],
];

Deno.test("the window (30 min) and the clock skew (1 min ahead), on both sides", async (t) => {
  assert.equal(WINDOW_MS, 30 * 60_000);
  assert.equal(FUTURE_SKEW_MS, 60_000);
  assert.equal(DEFAULT_OPTIONS.windowMs, WINDOW_MS);
  const created = new Date(NOW.getTime() - 3_600_000);
  for (const [what, age, injects] of EDGES) {
    await t.step(`${what}: ${injects ? "injects" : "silent"}`, async () => {
      await using p = await scratchProject();
      await writeDoc(p.store, "edge", { created });
      const now = new Date(created.getTime() + age);
      const r = await answer(clear(p.root), DEFAULT_OPTIONS, {}, now);
      assert.equal(r.stdout !== undefined, injects, r.reason);
      if (!injects) assert.equal(r.reason, `document "edge" is outside the restore window`);
      assert.equal(readLatest(p.store) === undefined, injects, "consumed only when injected");
    });
  }
  await t.step("in a process, from the pinned clock to the millisecond", async () => {
    for (const [what, age, injects] of EDGES) {
      await using p = await scratchProject();
      await writeDoc(p.store, "edge", { created });
      const ran = await runHookProcess(clearPayload(p.root), {
        env: { SESSION_NOW: new Date(created.getTime() + age).toISOString(), SESSION_DEBUG: "1" },
      });
      assert.equal(ran.code, 0);
      assert.equal(ran.stdout.includes("additionalContext"), injects, `${what}: ${ran.stderr}`);
    }
  });
});

Deno.test("CLAUDE_PROJECT_DIR and the payload's cwd in different git repositories", async (t) => {
  // The project, and inside it a nested repository (a submodule's `.git` is a file) where the
  // agent's Bash tool works: Claude Code sets CLAUDE_PROJECT_DIR to the project, the payload's
  // cwd is the nested one.
  for (const gitKind of ["dir", "file"] as const) {
    await t.step(`nested repository with a .git ${gitKind}: the CLI's store`, async () => {
      await using p = await scratchProject();
      const nested = `${p.root}/vendor/lib`;
      if (gitKind === "dir") await Deno.mkdir(`${nested}/.git`, { recursive: true });
      else await put(nested, ".git", "gitdir: ../../.git/modules/lib\n");
      // The dump, as the CLI writes it from the project with CLAUDE_PROJECT_DIR set.
      const env = { CLAUDE_PROJECT_DIR: p.root };
      const dumped = await runCliInProcess(["dump", "in-project"], {
        cwd: nested,
        env,
        stdin: "## Goal\n\nThe project's.\n\n## Next step\n\nGo.\n",
      });
      assert.equal(dumped.code, 0, dumped.err);
      const cliStore = storeAt(findRoot({ projectDir: p.root, cwd: nested }));
      assert.equal(cliStore.root, p.root);
      assert.equal(readLatest(p.store), "in-project");

      const r = await answer(clear(nested), DEFAULT_OPTIONS, { projectDir: p.root }, NOW);
      assert.match(r.stdout ?? "", /left this handover: \\"in-project\\"/, r.reason);
      assert.equal(readLatest(p.store), undefined, "consumed in the project's store");
      assert.equal(readLatest(storeAt(nested)), undefined, "nothing written in the nested repo");
    });
  }
  await t.step("as a process: the hook reads CLAUDE_PROJECT_DIR, not the cwd", async () => {
    await using p = await scratchProject();
    const nested = `${p.root}/sub`;
    await Deno.mkdir(`${nested}/.git`, { recursive: true });
    await writeDoc(p.store, "outer");
    const ran = await runHookProcess(clearPayload(nested), {
      env: { CLAUDE_PROJECT_DIR: p.root, SESSION_DEBUG: "1" },
    });
    assert.match(contextOf(ran) ?? "", /left this handover: "outer"/, ran.stderr);
  });
});
