/**
 * `install --mcp`, `uninstall --mcp` and `doctor --mcp`: the MCP server (`session.ts mcp`)
 * registered where each client reads its MCP servers, under the name `session`, started through
 * the launcher like the hooks (lib/agents/command.ts). Which file per client and scope, the entry
 * in each client's shape, adding and removing exactly that entry (JSONC through
 * lib/agents/settings.ts's editors, comments and formatting kept; Codex's TOML as one table of
 * its own), and what `doctor` finds. An entry named `session` that does not run `session.ts mcp`
 * is somebody else's: never changed, never removed.
 * @module
 */

import { findNodeAtLocation, getNodeValue, type JSONPath } from "jsonc-parser";
import { writeFileAtomic } from "../fs/atomic.ts";
import { exists, join, parentDir } from "../fs/path.ts";
import { FailureError, UsageError } from "../errors.ts";
import { CLI_FLAGS, LAUNCHER, projectFile } from "./command.ts";
import type { Finding } from "./finding.ts";
import { codexHome, geminiHome, home, opencodeConfig, qwenHome } from "./homes.ts";
import { linkTarget, readIfExists } from "./registration.ts";
import { formatting, insert, parseSettings, remove, replace, SettingsError } from "./settings.ts";

/** The name the server is registered under in every client. */
export const SERVER = "session";

/** Where a registration goes: the project's file, the user's, or (Claude Code) this project's entry in the user's. */
export type McpScope = "project" | "local" | "user";

type Env = (name: string) => string | undefined;

/** One MCP client: its files and the shape of its entry. */
export interface McpClient {
  name: string;
  label: string;
  scopes: readonly McpScope[];
  /** The file read for `scope` in the project at `root`. */
  file: (scope: McpScope, root: string, env: Env) => string;
  /** `json`: JSON with comments; `toml`: Codex's config.toml. */
  format: "json" | "toml";
  /** JSON: the path of the object holding the servers by name. */
  servers: (scope: McpScope, root: string) => JSONPath;
  /** The entry that runs `words`. */
  entry: (words: string[]) => Record<string, unknown>;
}

/** `{command, args}` as most clients take it; `type` when the client names it. */
function commandArgs(type?: string) {
  return (words: string[]) => ({
    ...(type ? { type } : {}),
    command: words[0],
    args: words.slice(1),
  });
}

/** Claude Code's user file (`~/.claude.json`, or in `CLAUDE_CONFIG_DIR`). */
function claudeJson(env: Env): string {
  return join(env("CLAUDE_CONFIG_DIR") || home(env), ".claude.json");
}

/** Every client `--mcp` registers with, by `--agent` name. */
export const MCP_CLIENTS: Readonly<Record<string, McpClient>> = {
  claude: {
    name: "claude",
    label: "Claude Code",
    scopes: ["project", "local", "user"],
    file: (scope, root, env) => scope === "project" ? join(root, ".mcp.json") : claudeJson(env),
    format: "json",
    servers: (scope, root) => scope === "local" ? ["projects", root, "mcpServers"] : ["mcpServers"],
    entry: commandArgs("stdio"),
  },
  codex: {
    name: "codex",
    label: "Codex CLI",
    scopes: ["project", "user"],
    file: (scope, root, env) =>
      scope === "user" ? join(codexHome(env), "config.toml") : join(root, ".codex", "config.toml"),
    format: "toml",
    servers: () => ["mcp_servers"],
    entry: commandArgs(),
  },
  gemini: {
    name: "gemini",
    label: "Gemini CLI",
    scopes: ["project", "user"],
    file: (scope, root, env) =>
      join(scope === "user" ? geminiHome(env) : join(root, ".gemini"), "settings.json"),
    format: "json",
    servers: () => ["mcpServers"],
    entry: commandArgs(),
  },
  qwen: {
    name: "qwen",
    label: "Qwen Code",
    scopes: ["project", "user"],
    file: (scope, root, env) =>
      join(scope === "user" ? qwenHome(env) : join(root, ".qwen"), "settings.json"),
    format: "json",
    servers: () => ["mcpServers"],
    entry: commandArgs(),
  },
  opencode: {
    name: "opencode",
    label: "opencode",
    scopes: ["project", "user"],
    file: (scope, root, env) => {
      const dir = scope === "user" ? opencodeConfig(env) : root;
      // A project that keeps its config as opencode.jsonc is edited there.
      const jsonc = join(dir, "opencode.jsonc");
      return exists(jsonc) ? jsonc : join(dir, "opencode.json");
    },
    format: "json",
    servers: () => ["mcp"],
    entry: (words) => ({ type: "local", command: words, enabled: true }),
  },
  cursor: {
    name: "cursor",
    label: "Cursor",
    scopes: ["project", "user"],
    file: (scope, root, env) =>
      join(scope === "user" ? join(home(env), ".cursor") : join(root, ".cursor"), "mcp.json"),
    format: "json",
    servers: () => ["mcpServers"],
    entry: commandArgs(),
  },
  vscode: {
    name: "vscode",
    label: "VS Code",
    // Its user file sits in the editor's profile folder, which differs per platform and profile.
    scopes: ["project"],
    file: (_scope, root) => join(root, ".vscode", "mcp.json"),
    format: "json",
    servers: () => ["servers"],
    entry: commandArgs("stdio"),
  },
};

/** The client `--agent` names with `--mcp` (default Claude Code); an unknown one is a usage error. */
export function mcpClientOf(name: string | undefined): McpClient {
  const client = MCP_CLIENTS[name ?? "claude"];
  if (!Object.hasOwn(MCP_CLIENTS, name ?? "claude") || !client) {
    throw new UsageError(
      `unknown MCP client "${name}": with --mcp, --agent takes ${
        Object.keys(MCP_CLIENTS).join(", ")
      }.`,
    );
  }
  return client;
}

/** The scope `--user` / `--local` name for `client`; one it lacks is a usage error. */
export function mcpScopeOf(
  flags: { user?: boolean; local?: boolean },
  client: McpClient,
): McpScope {
  if (flags.user && flags.local) {
    throw new UsageError("--user and --local exclude each other: pick one.");
  }
  const scope = flags.user ? "user" : flags.local ? "local" : "project";
  if (!client.scopes.includes(scope)) {
    throw new UsageError(
      `--mcp --${scope} does not apply to ${client.label}: it has ${
        client.scopes.map((s) => s === "project" ? "the project (default)" : `--${s}`).join(" and ")
      }.`,
    );
  }
  return scope;
}

/** The words that start the server: through the launcher, with the CLI's Deno flags. */
export function serverWords(): string[] {
  return ["sh", projectFile(LAUNCHER), "run", ...CLI_FLAGS, projectFile("session.ts"), "mcp"];
}

/** The command words of a client's entry (`command` + `args`, or opencode's array). */
export function wordsOf(value: unknown): string[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as { command?: unknown; args?: unknown };
  const all = Array.isArray(v.command)
    ? v.command
    : typeof v.command === "string"
    ? [v.command, ...(Array.isArray(v.args) ? v.args : [])]
    : undefined;
  return all?.every((w) => typeof w === "string") ? all as string[] : undefined;
}

/** Whether words run this project's server: a `session.ts` script, then `mcp`. */
export function runsServer(words: readonly string[] | undefined): boolean {
  if (!words) return false;
  const script = words.findIndex((w) => /(^|[\/\\])session\.ts$/.test(w));
  return script >= 0 && words[script + 1] === "mcp";
}

/** What a file holds under our name. */
export interface Held {
  /** The entry's command words, when they read as words. */
  words?: string[];
  /** Whether it is ours (runs `session.ts mcp`). */
  ours: boolean;
}

// -------------------------------------------------------------------------------- JSON files

/** The entry under our name in a JSON text (SettingsError for a file we cannot read safely). */
function heldJson(text: string, path: JSONPath): Held | undefined {
  const tree = parseSettings(text);
  if (!tree) return undefined;
  for (let i = 1; i <= path.length; i++) {
    const node = findNodeAtLocation(tree, path.slice(0, i));
    if (!node) return undefined;
    if (node.type !== "object") {
      throw new SettingsError(`"${path.slice(0, i).join(".")}" is not an object`);
    }
  }
  const node = findNodeAtLocation(tree, [...path, SERVER]);
  if (!node) return undefined;
  const words = wordsOf(getNodeValue(node));
  return { words, ours: runsServer(words) };
}

/** `value` nested under `path`, as a whole object. */
function nested(path: JSONPath, value: unknown): unknown {
  return path.reduceRight((inner, key) => ({ [String(key)]: inner }), value);
}

/** A JSON text with our entry at `path` running `words`. */
function addJson(text: string, path: JSONPath, entry: Record<string, unknown>): string {
  const at = [...path, SERVER];
  const held = heldJson(text, path);
  if (held && !held.ours) throw foreign();
  if (held) return replace(text, at, entry);
  const tree = parseSettings(text);
  if (!tree || (tree.children?.length === 0 && !/\/[/*]/.test(text))) {
    const f = formatting(text);
    const indent = f.insertSpaces ? " ".repeat(f.tabSize) : "\t";
    return JSON.stringify(nested(at, entry), null, indent).replaceAll("\n", f.eol) + f.eol;
  }
  return insert(text, at, entry);
}

/** A JSON text without our entry, and without the objects its removal left empty; "" when nothing is left. */
function removeJson(text: string, path: JSONPath): string {
  const held = heldJson(text, path);
  if (!held?.ours) return text;
  let out = remove(text, [...path, SERVER]);
  for (let i = path.length; i > 0; i--) {
    const node = findNodeAtLocation(parseSettings(out)!, path.slice(0, i));
    if (!node || (node.children?.length ?? 0) > 0) break;
    out = remove(out, path.slice(0, i));
  }
  return /^\s*\{\s*\}\s*$/.test(out) ? "" : out;
}

/** The refusal for a `session` entry somebody else wrote. */
function foreign(): SettingsError {
  return new SettingsError(
    `it holds an MCP server named "${SERVER}" that does not run session.ts mcp; rename or ` +
      "remove that entry first",
  );
}

// -------------------------------------------------------------------------------- Codex TOML

/** The header of our table, `[mcp_servers.session]` (quoted or not, a comment after). */
const TOML_HEADER =
  /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:session|"session"|'session')[ \t]*\][ \t]*(?:#.*)?$/;

/** Another way of writing our server (dotted keys, an inline table) that this editor leaves alone. */
const TOML_OTHER =
  /^[ \t]*(?:mcp_servers[ \t]*\.[ \t]*)?(?:session|"session")[ \t]*(?:\.|=[ \t]*\{)/;

/** Our table's lines in a TOML text: from its header to the next table that is not its own. */
export function tomlBlock(text: string): { start: number; end: number; body: string } | undefined {
  const lines = text.split(/(?<=\n)/);
  let offset = 0;
  let start = -1;
  let table = "";
  for (const line of lines) {
    const bare = line.replace(/\r?\n$/, "");
    const header = /^[ \t]*\[/.test(bare);
    if (
      start >= 0 && header &&
      !/^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*"?session"?[ \t]*\./.test(bare)
    ) {
      return { start, end: offset, body: text.slice(start, offset) };
    }
    if (start < 0 && TOML_HEADER.test(bare)) start = offset;
    else if (start < 0 && header) table = bare.trim();
    else if (start < 0 && (table === "" || table === "[mcp_servers]") && TOML_OTHER.test(bare)) {
      throw foreign();
    }
    offset += line.length;
  }
  return start < 0 ? undefined : { start, end: text.length, body: text.slice(start) };
}

/** Our table as this module writes it. */
function tomlTable(words: string[]): string {
  // A JSON string is a TOML basic string: the same escapes.
  return `[mcp_servers.${SERVER}]\ncommand = ${JSON.stringify(words[0])}\nargs = [${
    words.slice(1).map((w) => JSON.stringify(w)).join(", ")
  }]\n`;
}

/** What our table holds. */
function heldToml(text: string): Held | undefined {
  const block = tomlBlock(text);
  if (!block) return undefined;
  const command = /^[ \t]*command[ \t]*=[ \t]*("(?:[^"\\]|\\.)*")[ \t]*$/m.exec(block.body)?.[1];
  const args = /^[ \t]*args[ \t]*=[ \t]*(\[.*\])[ \t]*$/m.exec(block.body)?.[1];
  let words: string[] | undefined;
  try {
    words = command && args
      ? wordsOf({ command: JSON.parse(command), args: JSON.parse(args) })
      : undefined;
  } catch { /* written some other way: judged by its text */ }
  const ours = words
    ? runsServer(words)
    : /session\.ts/.test(block.body) && /"mcp"/.test(block.body);
  return { words, ours };
}

/** A TOML text with our table running `words`, appended or replaced in place. */
function addToml(text: string, words: string[]): string {
  const held = heldToml(text);
  if (held && !held.ours) throw foreign();
  const table = tomlTable(words);
  const block = tomlBlock(text);
  if (block) {
    const kept = block.body.slice(block.body.trimEnd().length).replace(/^\n/, "");
    return text.slice(0, block.start) + table + kept + text.slice(block.end);
  }
  const sep = text === "" ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  return text + sep + table;
}

/** A TOML text without our table (and the blank line added before it); "" when nothing is left. */
function removeToml(text: string): string {
  const held = heldToml(text);
  const block = tomlBlock(text);
  if (!held?.ours || !block) return text;
  let before = text.slice(0, block.start);
  const after = text.slice(block.end);
  if (after === "" && before.endsWith("\n\n")) before = before.slice(0, -1);
  const out = before + after;
  return out.trim() === "" ? "" : out;
}

// ------------------------------------------------------------------------------ pure, by format

/** What `text` of `client`'s file holds under our name. */
export function heldIn(
  text: string,
  client: McpClient,
  scope: McpScope,
  root: string,
): Held | undefined {
  return client.format === "toml" ? heldToml(text) : heldJson(text, client.servers(scope, root));
}

/** `text` with our entry running `words` (added, or updated in place). */
export function withServer(
  text: string,
  client: McpClient,
  scope: McpScope,
  root: string,
  words: string[],
): string {
  return client.format === "toml"
    ? addToml(text, words)
    : addJson(text, client.servers(scope, root), client.entry(words));
}

/** `text` without our entry; "" when the file would be left empty. */
export function withoutServer(
  text: string,
  client: McpClient,
  scope: McpScope,
  root: string,
): string {
  return client.format === "toml"
    ? removeToml(text)
    : removeJson(text, client.servers(scope, root));
}

// ----------------------------------------------------------------------------------------- IO

/** Where `install --mcp` writes for `client`, and the file it ends up editing (a symlink followed). */
export function mcpFile(client: McpClient, scope: McpScope, root: string, env: Env): string {
  return client.file(scope, root, env);
}

/** A file's bad content as the modes report it: path, reason, nothing changed. */
function refused(path: string, err: unknown): never {
  if (!(err instanceof SettingsError)) throw err;
  throw new FailureError(`${path}: ${err.message}. Nothing was changed.`, { cause: err });
}

/** Registers the server; the change made. */
export async function installMcp(
  client: McpClient,
  scope: McpScope,
  root: string,
  env: Env,
): Promise<{ path: string; change: "added" | "updated" | "unchanged" }> {
  const path = mcpFile(client, scope, root, env);
  const real = await linkTarget(path);
  const before = await readIfExists(real);
  let after: string;
  try {
    after = withServer(before ?? "", client, scope, root, serverWords());
  } catch (err) {
    refused(path, err);
  }
  if (after === (before ?? "")) return { path, change: "unchanged" };
  const dir = parentDir(real);
  if (dir) await Deno.mkdir(dir, { recursive: true });
  await writeFileAtomic(real, after);
  return {
    path,
    change: before !== undefined && heldIn(before, client, scope, root) ? "updated" : "added",
  };
}

/** Removes our entry; false when there was none. A file left empty is deleted (a symlink's target is emptied). */
export async function uninstallMcp(
  client: McpClient,
  scope: McpScope,
  root: string,
  env: Env,
): Promise<{ path: string; removed: boolean }> {
  const path = mcpFile(client, scope, root, env);
  const real = await linkTarget(path);
  const before = await readIfExists(real);
  if (before === undefined) return { path, removed: false };
  let after: string;
  try {
    after = withoutServer(before, client, scope, root);
  } catch (err) {
    refused(path, err);
  }
  if (after === before) return { path, removed: false };
  if (after === "" && real === path) await Deno.remove(path);
  else await writeFileAtomic(real, after === "" && client.format === "json" ? "{}\n" : after);
  return { path, removed: true };
}

/** Whether `client`'s file for `scope` holds our server, read back (for the modes' points). */
export async function mcpRegistered(
  client: McpClient,
  scope: McpScope,
  root: string,
  env: Env,
): Promise<boolean> {
  const text = await readIfExists(await linkTarget(mcpFile(client, scope, root, env)));
  try {
    return text !== undefined && heldIn(text, client, scope, root)?.ours === true;
  } catch {
    return false;
  }
}

/** What `doctor --mcp` finds for `client` in every scope it has: the entry, and what it runs. */
export async function mcpFindings(client: McpClient, root: string, env: Env): Promise<Finding[]> {
  const out: Finding[] = [];
  const fix = (scope: McpScope) =>
    `session.ts install --mcp${client.name === "claude" ? "" : ` --agent ${client.name}`}${
      scope === "project" ? "" : ` --${scope}`
    }`;
  const want = serverWords();
  let found = 0;
  for (const scope of client.scopes) {
    const path = mcpFile(client, scope, root, env);
    const text = await readIfExists(await linkTarget(path));
    if (text === undefined) continue;
    let held: Held | undefined;
    try {
      held = heldIn(text, client, scope, root);
    } catch (err) {
      if (!(err instanceof SettingsError)) throw err;
      out.push({
        status: "fix",
        text: `${path}: ${err.message} — fix the file, then run ${fix(scope)}`,
      });
      continue;
    }
    if (!held) continue;
    found++;
    if (!held.ours) {
      out.push({
        status: "fix",
        text: `${path} holds an MCP server "${SERVER}" that does not run session.ts mcp — fix: ` +
          "rename or remove that entry",
      });
      continue;
    }
    const words = held.words ?? [];
    const script = words.find((w) => /(^|[\/\\])session\.ts$/.test(w));
    const launcher = words[0] === "sh" ? words[1] : undefined;
    if (script === undefined || !exists(script)) {
      out.push({
        status: "fix",
        text: `${path}: the server's script ${script ?? "?"} is missing — fix: ${fix(scope)}`,
      });
    } else if (launcher === undefined || !exists(launcher)) {
      out.push({
        status: "fix",
        text: `${path}: the server does not start through bin/with-deno — fix: ${
          fix(scope)
        } updates it in place`,
      });
    } else if (JSON.stringify(words) !== JSON.stringify(want)) {
      out.push({
        status: "fix",
        text: `${path}: the server's command differs from this checkout's — fix: ${
          fix(scope)
        } updates it in place`,
      });
    } else {
      out.push({ status: "ok", text: `${client.label}: MCP server "${SERVER}" in ${path}` });
    }
  }
  if (found === 0) {
    out.push({
      status: "fix",
      text: `${client.label}: no MCP server "${SERVER}" registered (looked in ${
        client.scopes.map((s) => mcpFile(client, s, root, env)).join(", ")
      }) — fix: ${fix("project")}`,
    });
  }
  return out;
}
