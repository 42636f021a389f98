/**
 * The launcher bin/with-deno as a process, on a PATH without Deno (tests/support/bare_path.ts):
 * where it looks (PATH, `$DENO_INSTALL/bin`, `~/.deno/bin`, `%USERPROFILE%\.deno\bin`, in that
 * order), an old Deno, paths with spaces and quotes, the one-line message at most once a day
 * (the day from SESSION_NOW), silence on every other event, the CLI's exit 1 (never 127), the
 * version asked once per Deno file, and Windows' install command. Stand-in Denos report a version
 * and print the words they got; one real Deno proves the exec.
 */
import assert from "node:assert/strict";
import { shellQuote } from "../../lib/agents/command.ts";
import { exists, join } from "../../lib/fs/path.ts";
import { type Ran, runProcess } from "../support/run.ts";
import { REPO, scratchDir } from "../support/scratch.ts";
import {
  barePath,
  bareTest,
  fakeDeno,
  LAUNCHER_PATH,
  placeDeno,
  versionAsks,
} from "../support/bare_path.ts";

/** The old Deno's binary (`.ci/run` installs Deno 1.46.3 from npm and sets it). */
const OLD_VAR = "SESSION_TEST_DENO_1";
const OLD = Deno.env.get(OLD_VAR);

/** Runs the launcher as an agent's `sh -c` would, with exactly `env` (plus its bare PATH). */
function launch(args: string[], env: Record<string, string>, stdin = "{}"): Promise<Ran> {
  const command = ["sh", LAUNCHER_PATH, ...args].map(shellQuote).join(" ");
  return runProcess("/bin/sh", ["-c", command], { env, stdin, cwd: env.HOME ?? "/" });
}

/** The hook's words after the launcher's: what a registration passes (shortened). */
const RUN = ["run", "--no-prompt", "/s/session_restore.ts"];

/** The ISO time of `day` at `hour` (UTC): the launcher's clock. */
const at = (day: string, hour = "12") => `${day}T${hour}:00:00Z`;

bareTest("bin/with-deno: with no Deno, a message, not an error", async (t) => {
  await using tmp = await scratchDir("session-with-deno-");
  const bin = await barePath(join(tmp.path, "bin"));
  const home = join(tmp.path, "home");
  await Deno.mkdir(home);
  const env = (now: string, extra: Record<string, string> = {}) => ({
    PATH: bin,
    HOME: home,
    SESSION_NOW: now,
    ...extra,
  });
  const stamp = join(home, ".cache", "session", "notice-day");

  await t.step("every other event prints nothing and exits 0 (no stamp taken)", async () => {
    for (const event of ["SessionEnd", "PreCompact", "BeforeAgent", "UserPromptSubmit"]) {
      const r = await launch(["--event", event, ...RUN], env(at("2026-11-30")));
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, "", ""], event);
    }
    assert.equal(await Deno.stat(stamp).catch(() => undefined), undefined);
  });

  await t.step(
    "SessionStart: one JSON object, one line for the user and one for the agent",
    async () => {
      const r = await launch(["--event", "SessionStart", ...RUN], env(at("2026-11-30")));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "");
      assert.equal(r.stdout.split("\n").filter(Boolean).length, 1, r.stdout);
      const answer = JSON.parse(r.stdout);
      assert.deepEqual(Object.keys(answer), ["systemMessage", "hookSpecificOutput"]);
      const user: string = answer.systemMessage;
      const agent: string = answer.hookSpecificOutput.additionalContext;
      assert.equal(answer.hookSpecificOutput.hookEventName, "SessionStart");
      for (const line of [user, agent]) {
        assert.match(line, /^\[session\] /);
        assert.doesNotMatch(line, /\n/);
        assert.match(
          line,
          /Deno 2 was not found \(not on PATH, nor in \$DENO_INSTALL\/bin or ~\/\.deno\/bin\)/,
        );
        assert.ok(line.includes("install it: curl -fsSL https://deno.land/install.sh | sh"), line);
      }
      assert.match(agent, /never install a runtime unasked/);
      assert.equal(Deno.readTextFileSync(stamp), "2026-11-30\n");
    },
  );

  await t.step("--flat (GitHub Copilot CLI): only a top-level additionalContext", async () => {
    const cache = join(tmp.path, "flat");
    const r = await launch(
      ["--event", "SessionStart", "--flat", ...RUN],
      env(at("2026-11-30"), { XDG_CACHE_HOME: cache }),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.split("\n").filter(Boolean).length, 1, r.stdout);
    const answer = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(answer), ["additionalContext"]);
    assert.match(
      answer.additionalContext,
      /^\[session\] No handover was restored or saved: Deno 2/,
    );
    assert.match(answer.additionalContext, /install it: curl -fsSL .* never install a runtime/);
    const again = await launch(
      ["--event", "SessionStart", "--flat", ...RUN],
      env(at("2026-11-30"), { XDG_CACHE_HOME: cache }),
    );
    assert.deepEqual([again.code, again.stdout], [0, ""], "once a day, as without it");
  });

  await t.step("at most once a day: later that day nothing, the next day again", async () => {
    const later = await launch(["--event", "SessionStart", ...RUN], env(at("2026-11-30", "23")));
    assert.deepEqual([later.code, later.stdout], [0, ""]);
    const next = await launch(["--event", "SessionStart", ...RUN], env(at("2026-12-01", "00")));
    assert.equal(next.code, 0);
    assert.match(JSON.parse(next.stdout).systemMessage, /^\[session\] Deno 2 was not found/);
    const again = await launch(["--event", "SessionStart", ...RUN], env(at("2026-12-01", "09")));
    assert.equal(again.stdout, "");
  });

  await t.step("the stamp lives under XDG_CACHE_HOME when it is set", async () => {
    const cache = join(tmp.path, "xdg");
    const r = await launch(
      ["--event", "SessionStart", ...RUN],
      env(at("2026-12-01"), { XDG_CACHE_HOME: cache }),
    );
    assert.match(r.stdout, /systemMessage/);
    assert.equal(Deno.readTextFileSync(join(cache, "session", "notice-day")), "2026-12-01\n");
  });

  await t.step("an unwritable cache still says it (every time, rather than never)", async () => {
    const file = join(tmp.path, "not-a-dir");
    await Deno.writeTextFile(file, "");
    for (let i = 0; i < 2; i++) {
      const r = await launch(
        ["--event", "SessionStart", ...RUN],
        env(at("2026-12-02"), { XDG_CACHE_HOME: file }),
      );
      assert.equal(r.code, 0);
      assert.match(r.stdout, /systemMessage/);
    }
  });

  await t.step("the CLI (no --event): the line on stderr, exit 1, never 127", async () => {
    const r = await launch(["run", "-A", "/s/session.ts", "list"], env(at("2026-12-03")));
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.equal(
      r.stderr,
      "[session] Deno 2 was not found (not on PATH, nor in $DENO_INSTALL/bin or ~/.deno/bin) — " +
        "install it: curl -fsSL https://deno.land/install.sh | sh\n",
    );
  });

  await t.step("Windows (OS=Windows_NT): the PowerShell installer", async () => {
    const r = await launch(
      ["--event", "SessionStart", ...RUN],
      env(at("2026-12-04"), { OS: "Windows_NT" }),
    );
    assert.ok(
      JSON.parse(r.stdout).systemMessage.includes(
        "install it: irm https://deno.land/install.ps1 | iex",
      ),
      r.stdout,
    );
  });
});

bareTest("bin/with-deno: with no Deno, the hook's payload is read to its end", async (t) => {
  await using tmp = await scratchDir("session-with-deno-");
  const bin = await barePath(join(tmp.path, "bin"));
  const home = join(tmp.path, "home");
  await Deno.mkdir(home);
  // Far more than a pipe holds: an agent writing it to a launcher that never read it would get
  // EPIPE, and count the hook as failed.
  const payload = new TextEncoder().encode(JSON.stringify({ cwd: "/p", pad: "x".repeat(1 << 20) }));
  for (const event of ["SessionStart", "SessionEnd"]) {
    await t.step(`${event}: the client's write completes, exit 0`, async () => {
      const command = ["sh", LAUNCHER_PATH, "--event", event, ...RUN].map(shellQuote).join(" ");
      const child = new Deno.Command("/bin/sh", {
        args: ["-c", command],
        env: { PATH: bin, HOME: home, SESSION_NOW: at("2026-11-30") },
        clearEnv: true,
        cwd: home,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      const wrote = await writer.write(payload).then(() => "written", (e) => `${e}`);
      await writer.close().catch(() => {});
      const out = await child.output();
      assert.equal(wrote, "written", "no broken pipe for the client");
      assert.equal(out.code, 0);
    });
  }
});

bareTest("bin/with-deno: where it finds Deno, and which", async (t) => {
  await using tmp = await scratchDir("session-with-deno-");
  const bin = await barePath(join(tmp.path, "bin"));
  const now = at("2026-11-30");
  let n = 0;
  /** A fresh home (and cache) per step, so no stamp carries over. */
  const fresh = async (name = `home${n++}`) => {
    const home = join(tmp.path, name);
    await Deno.mkdir(home, { recursive: true });
    return home;
  };

  await t.step("only in ~/.deno/bin: the real Deno runs the script", async () => {
    const home = await fresh();
    await placeDeno(join(home, ".deno", "bin"));
    const script = join(home, "hello.ts");
    await Deno.writeTextFile(script, "console.log(`hello from ${Deno.version.deno}`);\n");
    const r = await launch(["--event", "SessionStart", "run", script], {
      PATH: bin,
      HOME: home,
      SESSION_NOW: now,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `hello from ${Deno.version.deno}\n`);
    // --flat shapes only the no-Deno answer: Deno gets the same words.
    const flat = await launch(["--event", "SessionStart", "--flat", "run", script], {
      PATH: bin,
      HOME: home,
      SESSION_NOW: now,
    });
    assert.deepEqual([flat.code, flat.stdout], [0, r.stdout], flat.stderr);
  });

  await t.step("only in $DENO_INSTALL/bin", async () => {
    const home = await fresh();
    const install = join(tmp.path, "opt-deno");
    await fakeDeno(join(install, "bin"), "2.1.4");
    const r = await launch([...RUN], { PATH: bin, HOME: home, DENO_INSTALL: install });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "deno 2.1.4\nran:run\nran:--no-prompt\nran:/s/session_restore.ts\n");
  });

  await t.step("the order: PATH, then $DENO_INSTALL/bin, then ~/.deno/bin", async () => {
    const home = await fresh();
    const install = join(tmp.path, "order-install");
    const onPath = join(tmp.path, "order-path");
    await fakeDeno(onPath, "2.3.0");
    await fakeDeno(join(install, "bin"), "2.2.0");
    await fakeDeno(join(home, ".deno", "bin"), "2.1.0");
    const first = (env: Record<string, string>) =>
      launch(["run"], { HOME: home, ...env }).then((r) => r.stdout.split("\n")[0]);
    assert.equal(await first({ PATH: `${onPath}:${bin}`, DENO_INSTALL: install }), "deno 2.3.0");
    assert.equal(await first({ PATH: bin, DENO_INSTALL: install }), "deno 2.2.0");
    assert.equal(await first({ PATH: bin }), "deno 2.1.0");
  });

  await t.step("an old Deno (1.x) is passed over for a Deno 2, else named", async () => {
    const home = await fresh();
    const old = join(tmp.path, "old-bin");
    await fakeDeno(old, "1.46.3");
    const alone = await launch(["--event", "SessionStart", ...RUN], {
      PATH: `${old}:${bin}`,
      HOME: home,
      SESSION_NOW: now,
    });
    assert.equal(alone.code, 0);
    const message = JSON.parse(alone.stdout).systemMessage;
    assert.match(
      message,
      /^\[session\] Deno 1\.46\.3 is older than 2\.0, the oldest session runs on/,
    );
    assert.match(message, /upgrade it: deno upgrade$/);
    const cli = await launch(["run", "x.ts"], { PATH: `${old}:${bin}`, HOME: home });
    assert.equal(cli.code, 1);
    assert.match(
      cli.stderr,
      /^\[session\] Deno 1\.46\.3 is older than 2\.0.* — upgrade it: deno upgrade\n$/,
    );
    await fakeDeno(join(home, ".deno", "bin"), "2.0.6");
    const both = await launch(["run"], { PATH: `${old}:${bin}`, HOME: home });
    assert.equal(both.stdout, "deno 2.0.6\nran:run\n");
  });

  await t.step("two old Denos: the first one passed over is named", async () => {
    const home = await fresh();
    const first = join(tmp.path, "old-first");
    const second = join(tmp.path, "old-second");
    await fakeDeno(first, "1.46.3");
    await fakeDeno(second, "1.40.0");
    const r = await launch(["run", "x.ts"], { PATH: `${first}:${second}:${bin}`, HOME: home });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^\[session\] Deno 1\.46\.3 is older than 2\.0/);
  });

  await t.step("an empty PATH entry is the working directory, as for any command", async () => {
    const home = await fresh();
    await fakeDeno(home, "2.4.0");
    for (const path of [`${bin}:`, `:${bin}`, `${bin}::${bin}`]) {
      const r = await launch(["run"], { PATH: path, HOME: home });
      assert.equal(r.stdout, "deno 2.4.0\nran:run\n", path);
    }
  });

  await t.step({
    name: exists("/bin/deno")
      ? "an empty DENO_INSTALL is no folder: not /bin"
      : "an empty DENO_INSTALL: skipped, there is no /bin/deno to mistake for it",
    ignore: !exists("/bin/deno"),
    fn: async () => {
      const r = await launch(["run"], { PATH: bin, HOME: await fresh(), DENO_INSTALL: "" });
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stderr, /Deno 2 was not found/);
    },
  });

  await t.step({
    name: OLD === undefined
      ? `the real Deno 1.46.3: skipped, ${OLD_VAR} names no binary (.ci/run installs it)`
      : `the real Deno 1.46.3 (${OLD_VAR}=${OLD}) is named, not run`,
    ignore: OLD === undefined,
    fn: async () => {
      const home = await fresh();
      const dir = join(tmp.path, "real-old");
      await placeDeno(dir, OLD);
      const r = await launch(["--event", "SessionStart", "run", "/nonexistent.ts"], {
        PATH: `${dir}:${bin}`,
        HOME: home,
        SESSION_NOW: now,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(JSON.parse(r.stdout).systemMessage, /^\[session\] Deno 1\.46\.3 is older/);
    },
  });

  await t.step("paths with spaces, quotes and $: HOME, DENO_INSTALL, the words", async () => {
    const home = await fresh(`my "home" it's $HOME`);
    await fakeDeno(join(home, ".deno", "bin"), "2.9.6");
    const word = `/a b/it's "x" $HOME \`true\`.ts`;
    const r = await launch(["run", word], { PATH: bin, HOME: home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `deno 2.9.6\nran:run\nran:${word}\n`);
    const install = join(tmp.path, `opt "d" it's $(x)`);
    await fakeDeno(join(install, "bin"), "2.2.0");
    const viaInstall = await launch(["run"], {
      PATH: bin,
      HOME: await fresh(),
      DENO_INSTALL: install,
    });
    assert.equal(viaInstall.stdout, "deno 2.2.0\nran:run\n");
  });

  await t.step(
    "the version is asked once per Deno file, again when the file is newer",
    async () => {
      const home = await fresh();
      const dir = join(tmp.path, "asked-bin");
      const deno = await fakeDeno(dir, "2.9.6");
      const env = { PATH: `${dir}:${bin}`, HOME: home };
      for (let i = 0; i < 3; i++) assert.equal((await launch(["run"], env)).code, 0);
      assert.equal(versionAsks(dir), 1);
      assert.equal(Deno.readTextFileSync(join(home, ".cache", "session", "deno-ok")), `${deno}\n`);
      const later = new Date(Date.now() + 3_600_000);
      await Deno.utime(deno, later, later);
      await launch(["run"], env);
      assert.equal(versionAsks(dir), 2);
    },
  );

  await t.step("Windows (simulated): %USERPROFILE%\\.deno\\bin\\deno.exe, no HOME", async () => {
    const profile = await fresh("Users/me");
    await fakeDeno(join(profile, ".deno", "bin"), "2.5.0", "deno.exe");
    const r = await launch(["run"], { PATH: bin, USERPROFILE: profile, OS: "Windows_NT" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "deno 2.5.0\nran:run\n");
  });
});

Deno.test("bin/with-deno is checked out with LF line ends everywhere (sh reads CR as text)", () => {
  const attributes = Deno.readTextFileSync(join(REPO, ".gitattributes"));
  assert.match(attributes, /^bin\/with-deno text eol=lf$/m);
  assert.doesNotMatch(Deno.readTextFileSync(LAUNCHER_PATH), /\r/);
});
