import assert from "node:assert/strict";
import { denoFinding, lacksCodeRead, scriptOf, shellWords } from "../lib/cli/doctor.ts";
import { hookCommand, PROJECT_DIR_VAR, shellQuoteExpanding } from "../lib/command.ts";

Deno.test("doctor: reading a hook command back", async (t) => {
  await t.step("finds the script path in every quoting install writes", () => {
    for (const script of ["/opt/session/session_restore.ts", "/a b/it's/session_restore.ts"]) {
      assert.equal(scriptOf(hookCommand(script, "/p")), script);
    }
    assert.equal(
      scriptOf(hookCommand("${CLAUDE_PLUGIN_ROOT}/session_restore.ts", PROJECT_DIR_VAR)),
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
      assert.equal(lacksCodeRead(hookCommand(script, "/p")), false, script);
    }
    assert.equal(
      lacksCodeRead(hookCommand("${CLAUDE_PLUGIN_ROOT}/session_restore.ts", PROJECT_DIR_VAR)),
      false,
    );
    const before = "deno run --no-config --no-prompt --allow-read=/p --allow-write=/p/.claude/" +
      "state/session --allow-env=CLAUDE_PROJECT_DIR /opt/s/session_restore.ts";
    assert.equal(lacksCodeRead(before), true);
    assert.equal(lacksCodeRead("deno run --allow-read --allow-write /s/session_restore.ts"), false);
  });
  await t.step("Deno 2 or later passes; 1.x is a fix", () => {
    assert.equal(denoFinding("2.0.0").status, "ok");
    assert.equal(denoFinding("3.1.4").status, "ok");
    const old = denoFinding("1.46.3");
    assert.equal(old.status, "fix");
    assert.match(old.text, /install Deno 2/);
  });
  await t.step("variables stay live inside double quotes; other specials are escaped", () => {
    assert.equal(shellQuoteExpanding("--allow-read=$X"), '"--allow-read=$X"');
    assert.equal(shellQuoteExpanding('a"b`c\\$X'), '"a\\"b\\`c\\\\$X"');
    assert.equal(shellQuoteExpanding("/plain/path"), "/plain/path");
  });
});
