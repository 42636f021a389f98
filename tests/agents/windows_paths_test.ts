/**
 * The Windows review, with simulated inputs (this machine is Linux): what `install` writes and
 * `doctor` reads back for a checkout, a project and a home with drive letters and backslashes
 * (Claude Code on Windows runs hook commands with Git Bash, which takes `C:\…` paths as they are;
 * Deno takes either separator). The launcher's own Windows rules (deno.exe, USERPROFILE, the
 * PowerShell installer) are tested as a process in tests/bin/with_deno_test.ts; where the running
 * Deno was found, in tests/agents/runtime_test.ts.
 */
import assert from "node:assert/strict";
import { grantPath, hookCommand } from "../../lib/agents/command.ts";
import {
  grantFindings,
  lacksCodeRead,
  launcherFinding,
  scriptOf,
} from "../../lib/agents/registered_command.ts";
import { CLAUDE, claudeTranscripts, CODEX } from "../../lib/agents/targets.ts";
import { claudeHome, userSettingsProblem } from "../../lib/agents/homes.ts";
import { storeAt } from "../../lib/store/store.ts";
import { encodeProjectDir, projectFolder } from "../../lib/transcript/paths.ts";
import { absolute, parentDir } from "../../lib/fs/path.ts";

const CHECKOUT = "C:\\Users\\Me\\tools\\session";
const ROOT = "C:\\Users\\Me\\My Project";
const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("Windows paths (simulated): install's command and doctor's reading of it", async (t) => {
  const command = hookCommand(`${CHECKOUT}\\session_restore.ts`, { root: ROOT });
  await t.step("the launcher beside the script, every path single-quoted as it is", () => {
    assert.ok(command.startsWith(`sh '${CHECKOUT}/bin/with-deno' --event SessionStart run `));
    assert.ok(command.includes(`'--allow-read=${ROOT},${CHECKOUT}/lib'`), command);
    assert.ok(command.includes(`'--allow-write=${ROOT}/.claude/state/session'`), command);
    assert.ok(command.endsWith(` '${CHECKOUT}\\session_restore.ts'`), command);
  });
  await t.step("doctor reads it back: script, launcher, lib/ grant, store covered", () => {
    assert.equal(scriptOf(command), `${CHECKOUT}\\session_restore.ts`);
    assert.deepEqual(launcherFinding(command, "hook", "install"), []);
    assert.equal(lacksCodeRead(command), false);
    assert.deepEqual(grantFindings(command, storeAt(ROOT), "hook"), []);
  });
  await t.step("a comma in a path: the grant stops at the drive's root, never a bare `C:`", () => {
    assert.equal(grantPath("C:\\a,b\\c"), "C:\\");
    assert.equal(grantPath("D:/a,b"), "D:/");
    assert.equal(grantPath("C:\\x\\a,b\\c"), "C:\\x");
    assert.equal(grantPath("\\\\server\\share\\a,b"), "\\\\server\\share");
  });
  await t.step("paths: parent of a drive's folder, absolute against a drive", () => {
    assert.equal(parentDir("C:\\Users"), "C:\\");
    assert.equal(parentDir("C:\\"), undefined);
    assert.equal(absolute("..\\x", "C:\\a\\b"), "C:\\a/x");
    assert.equal(absolute("D:\\y", "C:\\a"), "D:\\y");
  });
});

Deno.test("Windows homes (simulated): USERPROFILE when HOME is unset", async (t) => {
  const profile = env({ USERPROFILE: "C:\\Users\\Me" });
  await t.step("Claude Code's user settings and transcripts", () => {
    assert.equal(claudeHome(profile), "C:\\Users\\Me/.claude");
    assert.equal(claudeTranscripts(profile), "C:\\Users\\Me/.claude/projects");
    assert.equal(
      CLAUDE.settingsPath("user", { root: ROOT, env: profile }),
      "C:\\Users\\Me/.claude/settings.json",
    );
    assert.equal(
      CODEX.settingsPath("user", { root: ROOT, env: profile }),
      "C:\\Users\\Me/.codex/hooks.json",
    );
  });
  await t.step("a drive-letter settings path is absolute (no usage error for it)", () => {
    const problem = userSettingsProblem("claude", "C:\\Users\\Me/.claude/settings.json", profile);
    // The home is checked to be a directory, which C:\Users\Me is not on this machine.
    assert.doesNotMatch(problem ?? "", /needs a home directory/);
  });
  await t.step("Claude Code's transcript folder for a drive-letter project", () => {
    assert.equal(encodeProjectDir(ROOT), "C--Users-Me-My-Project");
    assert.equal(
      projectFolder({ root: ROOT, home: "C:\\Users\\Me" }),
      "C:\\Users\\Me/.claude/projects/C--Users-Me-My-Project",
    );
  });
});
