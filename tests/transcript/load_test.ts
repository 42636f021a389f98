/** Locating and reading in one step, as the modes do: the reader follows the file's agent. */
import assert from "node:assert/strict";
import { git, put, scratchDir, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";

const FIXTURE = new URL("../fixtures/codex/rollout.jsonl", import.meta.url).pathname;
const ROOT = "/tmp/codex-fixture/project";

Deno.test("codex rollout: evidence inside Codex reads the session's rollout", async (t) => {
  await using repo = await scratchProject({ git: "repo", store: false });
  await using codexHomeDir = await scratchDir("codex-home-");
  const codexHome = codexHomeDir.path;
  await git(repo.root, ["commit", "-q", "--allow-empty", "-m", "init"]);
  await put(repo.root, "notes.txt", "hello world\n");
  const day = `${codexHome}/sessions/2026/11/30`;
  await Deno.mkdir(day, { recursive: true });
  const id = "01a22ace-6c6a-73a1-8a0e-6c7ea913c5d4";
  const rollout = `${day}/rollout-2026-11-30T04-55-00-${id}.jsonl`;
  await Deno.writeTextFile(
    rollout,
    (await Deno.readTextFile(FIXTURE)).replaceAll(ROOT, repo.root),
  );
  const env = { CODEX_THREAD_ID: id, CODEX_HOME: codexHome, HOME: "/nonexistent" };
  await t.step("CODEX_THREAD_ID and CODEX_HOME find it; its facts merge", async () => {
    const run = await runCliInProcess(["evidence", "--json"], { cwd: repo.root, env });
    assert.equal(run.code, 0, run.err);
    const ev = JSON.parse(run.out);
    assert.equal(ev.transcript, rollout);
    assert.ok(ev.outside.some((p: string) => p.endsWith("/outside.txt")), run.out);
  });
  await t.step("--transcript with a rollout reads it as Codex's format", async () => {
    const run = await runCliInProcess(["evidence", "--json", "--transcript", rollout], {
      cwd: repo.root,
      env: { HOME: "/nonexistent" },
    });
    assert.equal(JSON.parse(run.out).transcript, rollout);
  });
});
