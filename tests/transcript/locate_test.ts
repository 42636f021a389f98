/**
 * Finding the session's file: Claude Code's transcript in its project folder, Codex's rollout in
 * `$CODEX_HOME/sessions`.
 */
import assert from "node:assert/strict";
import {
  locateCodexTranscript,
  locateTranscript,
  transcriptCwd,
} from "../../lib/transcript/locate.ts";
import { encodeProjectDir } from "../../lib/transcript/paths.ts";
import { newestTranscript } from "../../lib/transcript/newest.ts";
import { scratchDir } from "../support/scratch.ts";

/** One rollout line. */
const rec = (type: string, payload: Record<string, unknown>) =>
  JSON.stringify({ timestamp: "2026-11-30T05:00:00Z", type, payload });

Deno.test("paths: project folder encoding", () => {
  assert.equal(encodeProjectDir("/tmp/x.y"), "-tmp-x-y");
  assert.equal(encodeProjectDir("/home/dev/my_app v2"), "-home-dev-my-app-v2");
});

Deno.test("locateTranscript: flag, session id, newest of this project, none", async (t) => {
  await using homeDir = await scratchDir();
  const home = homeDir.path;
  const root = "/work/my.project";
  const folder = `${home}/.claude/projects/-work-my-project`;
  await Deno.mkdir(folder, { recursive: true });
  const line = (cwd: string) => JSON.stringify({ type: "user", cwd, message: { content: "hi" } });
  await Deno.writeTextFile(`${folder}/aaa.jsonl`, `{"type":"summary"}\n${line(root)}\n`);
  await Deno.writeTextFile(`${folder}/bbb.jsonl`, line("/elsewhere") + "\n");
  await Deno.utime(`${folder}/aaa.jsonl`, 1000, 1000);
  await Deno.utime(`${folder}/bbb.jsonl`, 2000, 2000);
  await t.step("--transcript wins, relative to cwd", async () => {
    const got = await locateTranscript({ transcript: "aaa.jsonl", root, home, cwd: folder });
    assert.deepEqual(got, { path: `${folder}/aaa.jsonl`, how: "flag" });
    const miss = await locateTranscript({ transcript: "/nope.jsonl", root, home, cwd: "/" });
    assert.equal(miss.path, undefined);
    assert.match(miss.reason!, /nope/);
  });
  await t.step("session id", async () => {
    const got = await locateTranscript({ sessionId: "bbb", root, home, cwd: root });
    assert.deepEqual(got, { path: `${folder}/bbb.jsonl`, how: "session" });
  });
  await t.step("newest whose cwd is the project (bbb is newer but elsewhere)", async () => {
    const got = await locateTranscript({ root, home, cwd: root });
    assert.deepEqual(got, { path: `${folder}/aaa.jsonl`, how: "newest" });
    const sub = await locateTranscript({ sessionId: "gone", root, home, cwd: root });
    assert.equal(sub.how, "newest");
  });
  await t.step("a subagent's transcript beside the session is never taken for one", async () => {
    await Deno.writeTextFile(`${folder}/agent-1234abcd.jsonl`, line(root) + "\n");
    await Deno.utime(`${folder}/agent-1234abcd.jsonl`, 5000, 5000);
    const got = await locateTranscript({ root, home, cwd: root });
    assert.deepEqual(got, { path: `${folder}/aaa.jsonl`, how: "newest" });
    assert.equal(newestTranscript({ root, home })?.session, "bbb");
    await Deno.remove(`${folder}/agent-1234abcd.jsonl`);
  });
  await t.step("CLAUDE_CONFIG_DIR replaces ~/.claude", async () => {
    const got = await locateTranscript({
      root,
      configDir: `${home}/.claude`,
      cwd: root,
    });
    assert.equal(got.path, `${folder}/aaa.jsonl`);
  });
  await t.step("none: a reason, never a throw", async () => {
    const got = await locateTranscript({ root: "/other", home, cwd: "/" });
    assert.equal(got.path, undefined);
    assert.match(got.reason!, /no Claude Code transcripts/);
    const bad = await locateTranscript({ sessionId: "../x", root, home, cwd: "/" });
    assert.match(bad.reason!, /not a session id/);
  });
  await t.step("Claude Code started in a subdirectory: its folder is found too", async () => {
    const subFolder = `${home}/.claude/projects/-work-my-project-pkg-a`;
    await Deno.mkdir(subFolder, { recursive: true });
    await Deno.writeTextFile(`${subFolder}/ccc.jsonl`, line(`${root}/pkg/a`) + "\n");
    await Deno.utime(`${subFolder}/ccc.jsonl`, 3000, 3000);
    const byId = await locateTranscript({ sessionId: "ccc", root, home, cwd: root });
    assert.deepEqual(byId, { path: `${subFolder}/ccc.jsonl`, how: "session" });
    const newest = await locateTranscript({ root, home, cwd: root });
    assert.deepEqual(newest, { path: `${subFolder}/ccc.jsonl`, how: "newest" });
    const excluded = await locateTranscript({ root, home, cwd: root, exclude: "ccc" });
    assert.equal(excluded.path, `${folder}/aaa.jsonl`);
    // A session id from another project entirely is still found by id.
    const other = `${home}/.claude/projects/-elsewhere`;
    await Deno.mkdir(other, { recursive: true });
    await Deno.writeTextFile(`${other}/ddd.jsonl`, line("/elsewhere") + "\n");
    const far = await locateTranscript({ sessionId: "ddd", root, home, cwd: root });
    assert.equal(far.path, `${other}/ddd.jsonl`);
    await Deno.remove(subFolder, { recursive: true });
  });
  await t.step("transcriptCwd reads the first cwd", async () => {
    assert.equal(await transcriptCwd(`${folder}/aaa.jsonl`), root);
    assert.equal(await transcriptCwd(`${folder}/missing.jsonl`), undefined);
  });
});

Deno.test("codex rollout: locating a session's file", async (t) => {
  await using homeDir = await scratchDir("codex-home-");
  const home = homeDir.path;
  const day = `${home}/sessions/2026/11/30`;
  await Deno.mkdir(day, { recursive: true });
  await Deno.mkdir(`${home}/sessions/2026/11/29`, { recursive: true });
  const write = (dir: string, name: string, cwd: string) =>
    Deno.writeTextFile(`${dir}/${name}`, rec("session_meta", { id: name, cwd }) + "\n");
  await write(`${home}/sessions/2026/11/29`, "rollout-2026-11-29T10-00-00-aaa.jsonl", "/p");
  await write(day, "rollout-2026-11-30T09-00-00-bbb.jsonl", "/p/sub");
  await write(day, "rollout-2026-11-30T10-00-00-ccc.jsonl", "/elsewhere");
  await t.step("by session id (CODEX_THREAD_ID)", async () => {
    const found = await locateCodexTranscript({ root: "/p", sessionId: "aaa", codexHome: home });
    assert.equal(found.how, "session");
    assert.match(found.path!, /aaa\.jsonl$/);
  });
  await t.step("else the newest whose cwd is in the project", async () => {
    const found = await locateCodexTranscript({ root: "/p", codexHome: home });
    assert.match(found.path!, /bbb\.jsonl$/);
    const excluded = await locateCodexTranscript({ root: "/p", codexHome: home, exclude: "bbb" });
    assert.match(excluded.path!, /aaa\.jsonl$/);
  });
  await t.step("none: a reason, never a throw", async () => {
    const none = await locateCodexTranscript({ root: "/q", codexHome: home });
    assert.equal(none.path, undefined);
    assert.match(none.reason!, /no Codex rollout of this project/);
    const bad = await locateCodexTranscript({ root: "/p", sessionId: "../x", codexHome: home });
    assert.match(bad.reason!, /not a session id/);
    const missing = await locateCodexTranscript({ root: "/p", codexHome: `${home}/nope` });
    assert.equal(missing.path, undefined);
  });
});
