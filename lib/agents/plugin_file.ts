/**
 * opencode's registration: not an entry in a settings file but a plugin file of its own in
 * opencode's plugins folder, which opencode loads at start. The file is thin: it imports the
 * checkout's `hooks/opencode.ts` (which maps opencode's events to the hook's payloads) and hands
 * it the registered command, so the restore rules stay in `session_restore.ts`. Pure: the text
 * `install` writes, and the command read back from it (what `uninstall` and `doctor` recognise).
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

/** The plugin file's name in opencode's plugins folder. */
export const OPENCODE_PLUGIN_FILE = "session-restore.ts";

const HEAD = "// session: the restore hook for opencode, written by `session.ts install --agent " +
  "opencode`;\n// `session.ts uninstall --agent opencode` removes this file.\n";

const CALL = /^export const SessionRestore = sessionRestore\((".*")\);$/m;

/** The plugin file for `command`, importing the checkout's opencode module at `module`. */
export function opencodePluginText(
  command: string,
  module = projectFile("hooks/opencode.ts"),
): string {
  return `${HEAD}import { sessionRestore } from ${JSON.stringify(module)};\n\n` +
    `export const SessionRestore = sessionRestore(${JSON.stringify(command)});\n`;
}

/** The command of a plugin file {@link opencodePluginText} wrote; undefined for any other text. */
export function opencodePluginCommand(text: string): string | undefined {
  if (!text.startsWith(HEAD)) return undefined;
  const call = CALL.exec(text);
  if (!call) return undefined;
  try {
    const command = JSON.parse(call[1]);
    return typeof command === "string" ? command : undefined;
  } catch {
    return undefined;
  }
}

/** opencode's plugin file as a registration. */
export const OPENCODE_PLUGIN: FileFormat = {
  render: (command) => opencodePluginText(command),
  read: opencodePluginCommand,
};
