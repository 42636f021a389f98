/**
 * The plugin file of opencode and Kilo Code CLI (lib/agents/plugin_file.ts): the text install
 * writes, the command read back from it, and that nothing else reads as ours, nor one agent's
 * file as the other's.
 */
import assert from "node:assert/strict";
import { pluginCommand, pluginText } from "../../lib/agents/plugin_file.ts";

const COMMAND =
  "deno run '--allow-read=/home/me/my app' /opt/session/session_restore.ts --agent opencode";

Deno.test("opencode plugin file", async (t) => {
  await t.step("imports the checkout's module and hands it the command; reads it back", () => {
    const text = pluginText("opencode", COMMAND, "/opt/session/hooks/opencode.ts");
    assert.match(
      text,
      /^import \{ sessionRestore \} from "\/opt\/session\/hooks\/opencode\.ts";$/m,
    );
    assert.match(text, /^export const SessionRestore = sessionRestore\(/m);
    assert.equal(pluginCommand("opencode", text), COMMAND);
  });
  await t.step("a command with quotes, backslashes and newlines survives the round trip", () => {
    const odd = `deno run '--allow-read=/a"b\\c\nd' /x/session_restore.ts`;
    assert.equal(pluginCommand("opencode", pluginText("opencode", odd)), odd);
  });
  await t.step("a file install did not write is not ours", () => {
    assert.equal(pluginCommand("opencode", ""), undefined);
    assert.equal(pluginCommand("opencode", "export const Mine = async () => ({});\n"), undefined);
    // The user's own plugin quoting our call, without our header.
    const text = pluginText("opencode", COMMAND);
    assert.equal(pluginCommand("opencode", text.slice(text.indexOf("import"))), undefined);
    // Our header, but the call edited into something that is not a string.
    assert.equal(
      pluginCommand("opencode", text.replace(/sessionRestore\(".*"\)/, "sessionRestore(42)")),
      undefined,
    );
  });
  await t.step("each agent's file names its agent, and reads back only as that agent's", () => {
    const kilo = pluginText("kilo", COMMAND);
    assert.match(kilo, /^\/\/ session: the restore hook for kilo, .*install --agent kilo/);
    assert.equal(pluginCommand("kilo", kilo), COMMAND);
    assert.equal(pluginCommand("opencode", kilo), undefined);
    assert.equal(pluginCommand("kilo", pluginText("opencode", COMMAND)), undefined);
  });
});
