/**
 * Every CLI mode and the hook's events as processes under the oldest Deno the project supports
 * (lib/agents/runtime.ts `MIN_DENO`) and under the Deno running the tests (the pinned one), each
 * run by the exact commands a user and an install run: `cliCommand` and the registered hook
 * commands, through `sh -c`, with that Deno first on PATH.
 *
 * The oldest Deno is the binary named by SESSION_TEST_DENO_OLD (`.ci/run` installs Deno 2.0.6
 * from npm and sets it); without it that half is skipped, and says so in its name.
 * @module
 */
import assert from "node:assert/strict";
import { cliCommand } from "../lib/agents/command.ts";
import { MIN_DENO, olderThan } from "../lib/agents/runtime.ts";
import { join } from "../lib/fs/path.ts";
import { readLatest } from "../lib/store/latest.ts";
import { docPath } from "../lib/store/store.ts";
import { isoStamp } from "../lib/store/time.ts";
import { contextOf, type Ran, runProcess } from "./support/run.ts";
import { registeredCommand } from "./support/registered.ts";
import { NOW, scratchDir, scratchProject } from "./support/scratch.ts";
import { transcriptOf } from "./support/transcript.ts";

/** The variable naming the oldest supported Deno's binary. */
const OLD_VAR = "SESSION_TEST_DENO_OLD";
const OLD = Deno.env.get(OLD_VAR);

/** The version a Deno binary reports (`deno 2.0.6 (stable, …)` → `2.0.6`). */
async function versionOf(deno: string): Promise<string> {
  const out = await new Deno.Command(deno, { args: ["--version"], stdout: "piped" }).output();
  const m = /^deno (\S+)/.exec(new TextDecoder().decode(out.stdout));
  if (!out.success || !m) throw new Error(`${deno} --version failed`);
  return m[1];
}

/**
 * The runner's Deno cache, shared with the child so it finds the npm packages already fetched
 * (the children run with a scratch HOME, which would otherwise move the default cache).
 */
async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

/** The environment of every child: the tested Deno first on PATH, a scratch HOME, a pinned clock. */
function childEnv(deno: string, home: string, cache: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: `${deno.slice(0, deno.lastIndexOf("/"))}:/usr/bin:/bin`,
    HOME: home,
    DENO_DIR: cache,
    SESSION_NOW: isoStamp(NOW),
    SESSION_DEBUG: "1",
    NO_COLOR: "1",
  };
  // Older Denos trust only their bundled roots unless DENO_CERT names a CA file: a machine whose
  // network needs its own CA (SSL_CERT_FILE) hands it on, should a package need fetching.
  const cert = Deno.env.get("DENO_CERT") ?? Deno.env.get("SSL_CERT_FILE");
  if (cert !== undefined) env.DENO_CERT = cert;
  for (const name of ["HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "DENO_TLS_CA_STORE"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

const SECTIONS = [
  "## Goal",
  "",
  "Make the login retry after a token refresh.",
  "",
  "## Decisions",
  "",
  "- Retry once — why: a second refresh would hide a real failure",
  "",
  "## Next step",
  "",
  "Run the login tests.",
  "",
].join("\n");

/** A transcript of session `id` in `root`: a request, an edit, an unfinished task. */
function transcript(root: string, id: string): string {
  return transcriptOf(
    root,
    [
      { prompt: "Add input validation to the signup form" },
      {
        tool: "Write",
        input: { file_path: join(root, "src/signup.ts"), content: "x" },
        result: "ok",
      },
      { tool: "TaskCreate", input: { subject: "Write the validation tests" }, result: "Task #1" },
      { say: "Validation is in; the tests are next." },
    ],
    id,
    new Date(NOW.getTime() - 5 * 60_000).toISOString(),
  );
}

/** Every mode and hook event under the Deno at `deno`, whose version is `version`. */
async function roundTrip(t: Deno.TestContext, deno: string, version: string) {
  await using p = await scratchProject({ git: "repo" });
  await using home = await scratchDir();
  const env = childEnv(deno, home.path, await denoDir());
  const sh = (command: string, stdin?: string): Promise<Ran> =>
    runProcess("sh", ["-c", command], { cwd: p.root, env, stdin });
  const cli = (...args: string[]) => sh(cliCommand(...args));
  const ok = (ran: Ran, what: string) => {
    assert.equal(ran.code, 0, `${what}: exit ${ran.code}\n${ran.stdout}\n${ran.stderr}`);
    assert.doesNotMatch(ran.stderr, /panicked|Stack backtrace|error: Uncaught/, what);
  };
  const hook = async (event: string, payload: Record<string, unknown>) => {
    const command = await registeredCommand(p.root, { event });
    return sh(command, JSON.stringify({ cwd: p.root, ...payload }));
  };
  const session = "5e55-d0e0-0001";
  const log = join(p.root, "t.jsonl");
  await Deno.writeTextFile(log, transcript(p.root, session));

  await t.step("doctor before install: the Deno version, and the hook to install", async () => {
    const ran = await cli("doctor");
    assert.equal(ran.code, 1, ran.stdout + ran.stderr);
    assert.ok(ran.stdout.includes(`✓ Deno ${version} at `), ran.stdout);
    assert.match(ran.stdout, /no SessionStart hook runs session_restore\.ts/);
  });
  await t.step("install registers every event, with no V8 flag", async () => {
    ok(await cli("install"), "install");
    for (const event of ["SessionStart", "SessionEnd", "PreCompact"]) {
      assert.doesNotMatch(await registeredCommand(p.root, { event }), /--v8-flags/, event);
    }
  });
  await t.step("evidence, park, dump", async () => {
    const evidence = await cli("evidence", "--json");
    ok(evidence, "evidence");
    assert.equal(JSON.parse(evidence.stdout).branch, "main");
    const park = await cli(
      "park",
      "fix the flaky login test",
      "--why",
      "CI red",
      "--next",
      "rerun",
    );
    ok(park, "park");
    assert.match(park.stdout, /^Parked: fix-flaky-login-test \(1 open\)/);
    const dump = await sh(cliCommand("dump", "login-retry"), SECTIONS);
    ok(dump, "dump");
    assert.equal(dump.stdout.trimEnd().split("\n").at(-1), "/clear");
    assert.equal(readLatest(p.store), "login-retry");
  });
  await t.step("the hook after /clear injects the handover, once", async () => {
    const ran = await hook("SessionStart", {
      session_id: session,
      hook_event_name: "SessionStart",
      source: "clear",
    });
    ok(ran, "SessionStart clear");
    assert.match(contextOf(ran) ?? "", /Make the login retry after a token refresh\./, ran.stderr);
    assert.match(Deno.readTextFileSync(docPath(p.store, "login-retry")), /consumed: true/);
    assert.equal(readLatest(p.store), undefined);
  });
  await t.step("recall, list, sweep, drop", async () => {
    const recall = await cli("recall", "login-retry");
    ok(recall, "recall");
    assert.match(recall.stdout, /Run the login tests\./);
    const list = await cli("list");
    ok(list, "list");
    assert.match(list.stdout, /login-retry/);
    assert.match(list.stdout, /fix-flaky-login-test/);
    ok(await cli("sweep"), "sweep");
    const drop = await cli("drop", "flaky", "login");
    ok(drop, "drop");
    assert.match(drop.stdout, /^Dropped: fix-flaky-login-test \(0 open\)/);
  });
  await t.step("mcp: initialize, the restore prompt and a tool, then stdin closes", async () => {
    const requests = [
      {
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      },
      { method: "notifications/initialized" },
      {
        id: 2,
        method: "prompts/get",
        params: { name: "restore", arguments: { name: "login-retry" } },
      },
      { id: 3, method: "tools/call", params: { name: "list", arguments: {} } },
    ].map((m) => JSON.stringify({ jsonrpc: "2.0", ...m })).join("\n") + "\n";
    const ran = await sh(cliCommand("mcp"), requests);
    ok(ran, "mcp");
    const answers = ran.stdout.trim().split("\n").map((l) => JSON.parse(l)).filter((a) =>
      "id" in a
    );
    assert.deepEqual(answers.map((a) => a.id).sort(), [1, 2, 3], ran.stdout);
    assert.match(answers.find((a) => a.id === 2).result.messages[0].content.text, /login retry/);
  });
  await t.step(
    "PreCompact saves the card's material; SessionStart compact injects it",
    async () => {
      const pre = await hook("PreCompact", {
        session_id: session,
        hook_event_name: "PreCompact",
        trigger: "auto",
        transcript_path: log,
      });
      ok(pre, "PreCompact");
      assert.equal(pre.stdout, "");
      assert.match(pre.stderr, /saved the card's material/);
      const start = await hook("SessionStart", {
        session_id: session,
        hook_event_name: "SessionStart",
        source: "compact",
        transcript_path: log,
      });
      ok(start, "SessionStart compact");
      assert.match(contextOf(start) ?? "", /^\[session\] The context was just compacted\./);
    },
  );
  await t.step(
    "SessionEnd without a dump drafts one; recover drafts from the transcript",
    async () => {
      const other = "5e55-d0e0-0002";
      const otherLog = join(p.root, "t2.jsonl");
      await Deno.writeTextFile(otherLog, transcript(p.root, other));
      const end = await hook("SessionEnd", {
        session_id: other,
        hook_event_name: "SessionEnd",
        reason: "clear",
        transcript_path: otherLog,
      });
      ok(end, "SessionEnd");
      assert.equal(end.stdout, "");
      assert.match(end.stderr, /drafted/);
      ok(await cli("recover", "--transcript", log), "recover");
    },
  );
  await t.step("doctor after install is clean; uninstall removes the hooks", async () => {
    const doctor = await cli("doctor");
    ok(doctor, "doctor");
    assert.ok(doctor.stdout.includes(`✓ Deno ${version} at `), doctor.stdout);
    ok(await cli("uninstall"), "uninstall");
  });
}

Deno.test("the CLI and the hooks under the Deno running the tests", async (t) => {
  await roundTrip(t, Deno.execPath(), Deno.version.deno);
});

Deno.test({
  name: OLD === undefined
    ? `the CLI and the hooks under the oldest supported Deno (${MIN_DENO}): skipped, ${OLD_VAR} ` +
      "names no deno binary (.ci/run sets it)"
    : `the CLI and the hooks under the oldest supported Deno (${OLD_VAR}=${OLD})`,
  ignore: OLD === undefined,
  fn: async (t) => {
    const deno = OLD!;
    const version = await versionOf(deno);
    // The oldest line, not merely an old one: a newer binary here would test nothing of MIN_DENO.
    assert.ok(!olderThan(version, MIN_DENO), `${deno} is Deno ${version}, older than ${MIN_DENO}`);
    const line = MIN_DENO.split(".").slice(0, 2).join(".");
    assert.ok(version.startsWith(`${line}.`), `${deno} is Deno ${version}, not ${line}.x`);
    await roundTrip(t, deno, version);
  },
});
