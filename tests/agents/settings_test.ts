import assert from "node:assert/strict";
import { CLAUDE } from "../../lib/agents/targets.ts";
import {
  addHook,
  findHooks,
  lineColumn,
  removeHooks,
  SettingsError,
} from "../../lib/agents/settings.ts";

const CMD = "deno run --no-prompt /opt/session/session_restore.ts";
const OTHER = { type: "command", command: "echo other" };

/** Settings files as people write them: comments, trailing commas, tabs, CRLF, other hooks. */
const FIXTURES: Record<string, string> = {
  "comments and trailing commas": `{
  // who may run what
  "permissions": {
    "allow": ["Bash(ls:*)",],
  },
  /* block */ "model": "opus", // trailing
}
`,
  "tabs": '{\n\t"model": "opus"\n}\n',
  "CRLF": '{\r\n    "model": "opus"\r\n}\r\n',
  "other SessionStart hooks": JSON.stringify(
    { hooks: { SessionStart: [{ matcher: "startup", hooks: [OTHER] }], Stop: [] } },
    null,
    2,
  ) + "\n",
  "no final newline": '{\n  "a": 1\n}',
};

Deno.test("settings: add and remove our SessionStart hook", async (t) => {
  await t.step("a missing file becomes a minimal one", () => {
    const out = addHook("", CLAUDE, CMD);
    assert.deepEqual(JSON.parse(out), {
      hooks: {
        SessionStart: [{
          matcher: "clear|compact",
          hooks: [{ type: "command", command: CMD, timeout: 10 }],
        }],
      },
    });
    assert.ok(out.endsWith("}\n"));
    assert.equal(removeHooks(out, CLAUDE), "", "left empty: the caller deletes the file");
  });

  for (const [name, text] of Object.entries(FIXTURES)) {
    await t.step(`${name}: install keeps the rest; uninstall restores it byte for byte`, () => {
      const added = addHook(text, CLAUDE, CMD);
      assert.notEqual(added, text);
      assert.deepEqual(findHooks(added, CLAUDE), [
        { matcher: "clear|compact", command: CMD, timeout: 10 },
      ]);
      for (const line of text.split(/\r?\n/).filter((l) => l.includes("//"))) {
        assert.ok(added.includes(line.trim().split("//")[1]), `comment kept: ${line}`);
      }
      assert.equal(addHook(added, CLAUDE, CMD), added, "idempotent");
      assert.equal(removeHooks(added, CLAUDE), text);
    });
  }

  await t.step("an empty object: back to empty (the caller deletes the file)", () => {
    assert.equal(removeHooks(addHook("{}\n", CLAUDE, CMD), CLAUDE), "");
  });

  await t.step("a one-line file is expanded, its values kept", () => {
    const text = '{ "a": 1, "b": { "c": [1, 2] } }';
    const round = removeHooks(addHook(text, CLAUDE, CMD), CLAUDE);
    assert.deepEqual(JSON.parse(round), JSON.parse(text));
  });

  await t.step("CRLF files keep CRLF in what install inserts", () => {
    const added = addHook(FIXTURES.CRLF, CLAUDE, CMD);
    assert.equal(added.replaceAll("\r\n", "").includes("\n"), false);
  });

  await t.step("tabs stay tabs", () => {
    assert.match(addHook(FIXTURES.tabs, CLAUDE, CMD), /\n\t"hooks"/);
  });

  await t.step("a moved checkout: the old entry is replaced, not duplicated", () => {
    const old = addHook("{}\n", CLAUDE, "deno run /old/place/session_restore.ts");
    const updated = addHook(old, CLAUDE, CMD);
    assert.deepEqual(findHooks(updated, CLAUDE).map((h) => h.command), [CMD]);
  });

  await t.step("a group shared with someone else's hook: only ours is removed", () => {
    const shared = JSON.stringify(
      {
        hooks: {
          SessionStart: [{
            matcher: "clear",
            hooks: [OTHER, { type: "command", command: CMD }],
          }],
        },
      },
      null,
      2,
    );
    const out = removeHooks(shared, CLAUDE);
    assert.deepEqual(JSON.parse(out), {
      hooks: { SessionStart: [{ matcher: "clear", hooks: [OTHER] }] },
    });
  });

  await t.step("nothing of ours: remove returns the text unchanged", () => {
    for (const text of Object.values(FIXTURES)) assert.equal(removeHooks(text, CLAUDE), text);
  });

  await t.step("bad JSON: refused with line and column", () => {
    assert.throws(
      () => addHook('{\n  "a": 1,\n  "b": [1 2]\n}\n', CLAUDE, CMD),
      (err: Error) => err instanceof SettingsError && /line 3, column 11/.test(err.message),
    );
    assert.throws(() => removeHooks('{ "a": ', CLAUDE), SettingsError);
  });

  await t.step("shapes we must not edit are refused", () => {
    for (const text of ["[]", '"x"', '{ "hooks": [] }', '{ "hooks": { "SessionStart": {} } }']) {
      assert.throws(() => addHook(text, CLAUDE, CMD), SettingsError, text);
    }
  });

  await t.step("hostile input never throws anything but SettingsError", () => {
    const bytes = new Uint8Array(2000).map((_, i) => (i * 7919) % 256);
    for (const text of [new TextDecoder().decode(bytes), "{".repeat(5000), "\u0000{}"]) {
      try {
        addHook(text, CLAUDE, CMD);
      } catch (err) {
        assert.ok(err instanceof SettingsError, String(err));
      }
    }
  });

  await t.step("lineColumn is 1-based", () => {
    assert.deepEqual(lineColumn("ab\ncd", 0), { line: 1, column: 1 });
    assert.deepEqual(lineColumn("ab\ncd", 4), { line: 2, column: 2 });
  });
});
