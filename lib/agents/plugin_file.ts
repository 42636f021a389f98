/**
 * The registration of the agents that load plugins instead of running shell hooks (opencode, its
 * fork Kilo Code CLI, and Cline CLI): not an entry in a settings file but a plugin file of its own
 * in the agent's plugins folder, which the agent loads at start. The file is thin: it imports the
 * checkout's plugin module (`hooks/opencode.ts`, which maps the plugin events opencode and Kilo
 * share to the hook's payloads; `hooks/cline.ts` for Cline) and hands it the registered command,
 * so the restore rules stay in `session_restore.ts`. Pure:
 * the text `install` writes, and the command read back from it (what `uninstall` and `doctor`
 * recognise).
 * @module
 */

import { projectFile } from "./command.ts";

/** A registration that is a whole file: its text for a command, and the command read back. */
export interface FileFormat {
  /** The file's text for `command`. */
  render: (command: string) => string;
  /** The command of a file `render` wrote; undefined for any other text. */
  read: (text: string) => string | undefined;
}

/** The plugin file's name in the agent's plugins folder. */
export const PLUGIN_FILE = "session-restore.ts";

/** The header naming the agent whose `install` wrote the file and the `uninstall` that removes it. */
function head(agent: string): string {
  return `// session: the restore hook for ${agent}, written by \`session.ts install --agent ` +
    `${agent}\`;\n// \`session.ts uninstall --agent ${agent}\` removes this file.\n`;
}

const CALL = /^export const (\w+) = sessionRestore\((".*")\);$/m;

/**
 * The name the plugin is exported under: opencode loads every export; Cline loads the default
 * export or the one named `plugin`.
 */
export type Binding = "SessionRestore" | "plugin";

/**
 * The plugin file of `agent` for `command`, importing the checkout's plugin module at `module` and
 * exporting the plugin as `binding`.
 */
export function pluginText(
  agent: string,
  command: string,
  module = projectFile("hooks/opencode.ts"),
  binding: Binding = "SessionRestore",
): string {
  return `${head(agent)}import { sessionRestore } from ${JSON.stringify(module)};\n\n` +
    `export const ${binding} = sessionRestore(${JSON.stringify(command)});\n`;
}

/**
 * The command of a plugin file {@link pluginText} wrote for `agent` (exporting `binding`);
 * undefined for any other text.
 */
export function pluginCommand(
  agent: string,
  text: string,
  binding: Binding = "SessionRestore",
): string | undefined {
  if (!text.startsWith(head(agent))) return undefined;
  const call = CALL.exec(text);
  if (!call || call[1] !== binding) return undefined;
  try {
    const command = JSON.parse(call[2]);
    return typeof command === "string" ? command : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `agent`'s plugin file as a registration: importing the checkout's `module` (a path inside the
 * checkout, default `hooks/opencode.ts`), exporting `binding`.
 */
export function pluginFormat(
  agent: string,
  module = "hooks/opencode.ts",
  binding: Binding = "SessionRestore",
): FileFormat {
  return {
    render: (command) => pluginText(agent, command, projectFile(module), binding),
    read: (text) => pluginCommand(agent, text, binding),
  };
}
