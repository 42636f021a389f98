/**
 * What the hook loads: a `/clear` with nothing pending decides without the pending step
 * (lib/hook/pending.ts) and what only it needs. The hook runs with those files' reads denied, so
 * loading any of them fails the run.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/fs/path.ts";
import { REPO, scratchProject, writeDoc } from "../support/scratch.ts";
import { clearPayload, runHookProcess } from "../support/run.ts";

/** The modules only a pending handover needs. */
const PENDING_ONLY = [
  "lib/hook/pending.ts",
  "lib/hook/output.ts",
  "lib/frame/banner.ts",
  "lib/frame/fence.ts",
  "lib/frame/fit.ts",
  "lib/fs/lock.ts",
  "lib/secrets/lazy.ts",
].map((rel) => join(REPO, rel));

const flags = [
  "--no-config",
  "--allow-read",
  `--deny-read=${PENDING_ONLY.join(",")}`,
  "--allow-write",
  "--allow-env",
];

Deno.test("hook loading: nothing pending loads none of the pending step", async (t) => {
  await t.step("no LATEST: decided, silent, without them", async () => {
    await using p = await scratchProject();
    const ran = await runHookProcess(clearPayload(p.root), { flags, env: { SESSION_DEBUG: "1" } });
    assert.equal(ran.code, 0);
    assert.equal(ran.stdout, "");
    assert.equal(ran.stderr, "session_restore: no LATEST pointer\n");
  });
  await t.step("a pending handover: the same denial stops the inject", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "fix-login");
    const ran = await runHookProcess(clearPayload(p.root), { flags, env: { SESSION_DEBUG: "1" } });
    assert.equal(ran.code, 0);
    assert.equal(ran.stdout, "");
    assert.match(ran.stderr, /pending\.ts/);
  });
});
