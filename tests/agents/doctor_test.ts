import assert from "node:assert/strict";
import {
  grantFindings,
  lacksCodeRead,
  launcherFinding,
  scriptOf,
  shellWords,
  v8FlagsFinding,
} from "../../lib/agents/registered_command.ts";
import { denoFinding, MIN_DENO, olderThan } from "../../lib/agents/runtime.ts";
import {
  CLI_FLAGS,
  cliCommand,
  grantPath,
  hookCommand,
  hookFlags,
  PLUGIN_ROOT_VAR,
  shellQuote,
} from "../../lib/agents/command.ts";
import { storeAt } from "../../lib/store/store.ts";

Deno.test("doctor: reading a hook command back", async (t) => {
  await t.step("finds the script path in every quoting install writes", () => {
    for (const script of ["/opt/session/session_restore.ts", "/a b/it's/session_restore.ts"]) {
      assert.equal(scriptOf(hookCommand(script, { root: "/p" })), script);
    }
    assert.equal(
      scriptOf(hookCommand(`${PLUGIN_ROOT_VAR}/session_restore.ts`, undefined)),
      "${CLAUDE_PLUGIN_ROOT}/session_restore.ts",
    );
    assert.equal(scriptOf("echo hello"), undefined);
  });
  await t.step("shellWords unquotes like a shell", () => {
    assert.deepEqual(shellWords(`a 'b c' "d \\"e\\" $X" f\\ g 'it'\\''s'`), [
      "a",
      "b c",
      'd "e" $X',
      "f g",
      "it's",
    ]);
    assert.deepEqual(shellWords("  "), []);
    assert.deepEqual(shellWords("'unterminated"), ["unterminated"]);
  });
  await t.step("a command that cannot read the hook's lib/ is an older install", () => {
    for (const script of ["/opt/s/session_restore.ts", "/a b/it's/session_restore.ts"]) {
      assert.equal(lacksCodeRead(hookCommand(script, { root: "/p" })), false, script);
    }
    assert.equal(
      lacksCodeRead(hookCommand(`${PLUGIN_ROOT_VAR}/session_restore.ts`, undefined)),
      false,
    );
    const before = "deno run --no-config --no-prompt --allow-read=/p --allow-write=/p/.claude/" +
      "state/session --allow-env=CLAUDE_PROJECT_DIR /opt/s/session_restore.ts";
    assert.equal(lacksCodeRead(before), true);
    assert.equal(lacksCodeRead("deno run --allow-read --allow-write /s/session_restore.ts"), false);
  });
  await t.step("no command this project writes carries a V8 flag", () => {
    const commands = [
      cliCommand("list"),
      hookCommand("/opt/s/session_restore.ts", { root: "/p", also: ["/h/.claude/projects"] }),
      hookCommand(`${PLUGIN_ROOT_VAR}/session_restore.ts`, undefined),
    ];
    for (const command of commands) assert.doesNotMatch(command, /--v8-flags/, command);
    for (const flag of [...CLI_FLAGS, ...hookFlags({ root: "/p" }), ...hookFlags(undefined)]) {
      assert.doesNotMatch(flag, /^--v8-flags/, flag);
    }
  });
  await t.step("a hook registered with any V8 flag is a fix (install rewrites it)", () => {
    for (const script of ["/opt/s/session_restore.ts", "/a b/it's/session_restore.ts"]) {
      assert.deepEqual(v8FlagsFinding(hookCommand(script, { root: "/p" }), "hook", "install"), []);
    }
    const plugin = hookCommand(`${PLUGIN_ROOT_VAR}/session_restore.ts`, undefined);
    assert.deepEqual(v8FlagsFinding(plugin, "hook", "install"), []);
    const current = hookCommand("/opt/s/session_restore.ts", { root: "/p" });
    for (
      const flags of [
        "--v8-flags=--no-lazy,--baseline-batch-compilation-threshold=16384",
        "--v8-flags=--no-lazy",
        "'--v8-flags=--max-old-space-size=64'",
      ]
    ) {
      const older = current.replace("--no-prompt", `--no-prompt ${flags}`);
      const [f, ...rest] = v8FlagsFinding(older, "hook in s.json", "session.ts install");
      assert.equal(rest.length, 0);
      assert.equal(f.status, "fix");
      assert.match(f.text, /^hook in s\.json runs with --v8-flags=\S+, an internal V8 setting/);
      assert.match(f.text, /— fix: session\.ts install \(rewrites it in place\)$/);
    }
    assert.deepEqual(v8FlagsFinding("deno run -A /opt/s/session_restore.ts", "hook", "x"), []);
  });
  await t.step("a hook that runs Deno by name, not through the launcher, is a fix", () => {
    for (const script of ["/opt/s/session_restore.ts", "/a b/it's/session_restore.ts"]) {
      assert.deepEqual(launcherFinding(hookCommand(script, { root: "/p" }), "hook", "x"), []);
    }
    const plugin = hookCommand(`${PLUGIN_ROOT_VAR}/session_restore.ts`, undefined, "SessionEnd");
    assert.deepEqual(launcherFinding(plugin, "hook", "x"), []);
    const windows = "sh 'C:\\Users\\me\\session\\bin\\with-deno' --event SessionStart run x";
    assert.deepEqual(launcherFinding(windows, "hook", "x"), []);
    for (
      const older of [
        "deno run --no-config --no-prompt /opt/s/session_restore.ts",
        "'/home/me/.deno/bin/deno' run /opt/s/session_restore.ts",
        "sh /opt/other/launcher run /opt/s/session_restore.ts",
      ]
    ) {
      const [f, ...rest] = launcherFinding(older, "hook in s.json", "session.ts install");
      assert.equal(rest.length, 0, older);
      assert.equal(f.status, "fix");
      assert.match(f.text, /^hook in s\.json runs Deno by name, not through bin\/with-deno/);
      assert.match(f.text, /— fix: session\.ts install \(rewrites it in place\)$/);
    }
  });
  await t.step(`Deno ${MIN_DENO} or later passes; an older one is a fix naming the upgrade`, () => {
    assert.equal(MIN_DENO, "2.0.0");
    for (const version of ["2.0.0", "2.0.6", "2.2.15", "2.9.6", "2.10.0", "3.1.4"]) {
      const f = denoFinding(version);
      assert.deepEqual(f, { status: "ok", text: `Deno ${version}` });
    }
    for (const version of ["1.99.99", "1.46.3", "0.9.0"]) {
      const f = denoFinding(version);
      assert.equal(f.status, "fix", version);
      assert.match(
        f.text,
        new RegExp(`^Deno ${version.replaceAll(".", "\\.")} is older than 2\\.0\\.0`),
      );
      assert.match(f.text, /fix: upgrade Deno \(npm install -g deno, or the official installer/);
    }
  });
  await t.step("versions compare part by part, as numbers", () => {
    assert.equal(olderThan("1.99.99", "2.0.0"), true);
    assert.equal(olderThan("2.0.0", "2.0.0"), false);
    assert.equal(olderThan("2.0.1", "2.0.0"), false);
    assert.equal(olderThan("2.10.0", "2.9.6"), false);
    assert.equal(olderThan("2.9.6", "2.10.0"), true);
    assert.equal(olderThan("2.1.0-rc.1", "2.1.0"), false);
    assert.equal(olderThan("2", "2.0.0"), false);
  });
  await t.step("single quotes: nothing in a word is ever expanded", () => {
    assert.equal(shellQuote("--allow-read=$X"), "'--allow-read=$X'");
    assert.equal(shellQuote("a'b`c$(d)"), "'a'\\''b`c$(d)'");
    assert.equal(shellQuote("/plain/path,x"), "/plain/path,x");
  });
  await t.step("a comma in a path is granted as its nearest ancestor without one", () => {
    assert.equal(grantPath("/p/a,b"), "/p");
    assert.equal(grantPath("/p/a,b/c/.claude/state/session"), "/p");
    assert.equal(grantPath("/a,b"), "/");
    assert.equal(grantPath("/p/q"), "/p/q");
  });
  await t.step("doctor says what a registered hook may read and write", () => {
    const script = "/opt/s/session_restore.ts";
    const plain = grantFindings(hookCommand(script, { root: "/p" }), storeAt("/p"), "hook");
    assert.deepEqual(plain, []);
    const broad = grantFindings(hookCommand(script, undefined), storeAt("/p"), "hook");
    assert.match(broad[0].text, /may read and write any path/);
    assert.equal(broad[0].status, "info");
    const comma = grantFindings(hookCommand(script, { root: "/p/a,b" }), storeAt("/p/a,b"), "hook");
    assert.deepEqual(comma.map((f) => f.status), ["info"]);
    assert.match(comma[0].text, /\/p\/a,b holds a comma.*granted \/p instead/);
    const nested = grantFindings(hookCommand(script, { root: "/p" }), storeAt("/p/pkg"), "hook");
    assert.equal(nested.at(-1)?.status, "fix");
    assert.match(nested.at(-1)!.text, /may not read and write the store \/p\/pkg.*install --dir/);
  });
});
