/**
 * opencode's plugin file (lib/agents/plugin_file.ts): the text install writes, the command read
 * back from it, and that nothing else reads as ours.
 */
import assert from "node:assert/strict";
import { opencodePluginCommand, opencodePluginText } from "../../lib/agents/plugin_file.ts";

const COMMAND =
  "deno run '--allow-read=/home/me/my app' /opt/session/session_restore.ts --agent opencode";

Deno.test("opencode plugin file", async (t) => {
  await t.step("imports the checkout's module and hands it the command; reads it back", () => {
    const text = opencodePluginText(COMMAND, "/opt/session/hooks/opencode.ts");
    assert.match(
      text,
      /^import \{ sessionRestore \} from "\/opt\/session\/hooks\/opencode\.ts";$/m,
    );
    assert.match(text, /^export const SessionRestore = sessionRestore\(/m);
    assert.equal(opencodePluginCommand(text), COMMAND);
  });
  await t.step("a command with quotes, backslashes and newlines survives the round trip", () => {
    const odd = `deno run '--allow-read=/a"b\\c\nd' /x/session_restore.ts`;
    assert.equal(opencodePluginCommand(opencodePluginText(odd)), odd);
  });
  await t.step("a file install did not write is not ours", () => {
    assert.equal(opencodePluginCommand(""), undefined);
    assert.equal(opencodePluginCommand("export const Mine = async () => ({});\n"), undefined);
    // The user's own plugin quoting our call, without our header.
    const text = opencodePluginText(COMMAND);
    assert.equal(opencodePluginCommand(text.slice(text.indexOf("import"))), undefined);
    // Our header, but the call edited into something that is not a string.
    assert.equal(
      opencodePluginCommand(text.replace(/sessionRestore\(".*"\)/, "sessionRestore(42)")),
      undefined,
    );
  });
});
