/**
 * Registering the restore hook with an agent, as IO around the pure editors: read the settings
 * file, edit it (lib/agents/settings.ts), write it atomically; keep `.claude/state/` git-ignored.
 * @module
 */

import { writeFileAtomic } from "../fs/atomic.ts";
import { clientCommand, hookCommand, projectFile } from "./command.ts";
import { ignoresState, STATE_IGNORE, withStateIgnored } from "./gitignore.ts";
import {
  AGENTS,
  CLAUDE,
  type EntryOptions,
  eventOf,
  type HookTarget,
  nudgeFlags,
  type PathInputs,
  restoreFlags,
  type Scope,
  SCOPES,
  userSettingsProblem,
} from "./targets.ts";
import {
  addHook,
  addStatusLine,
  isOurStatusLine,
  removeHooks,
  removeStatusLine,
  statusLineOf,
} from "./settings.ts";
import type { Agent } from "../frame/budget.ts";
import { absolute, join, parentDir } from "../fs/path.ts";
import { findGitTop } from "../store/store.ts";

/** Reads a text file; undefined when it does not exist. */
export async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** What shapes a registered command beyond the scope: the event, the opt-ins, the environment. */
export interface CommandOptions extends EntryOptions {
  /** The event's target (default: the agent's first, its SessionStart). */
  target?: HookTarget;
  /** Environment lookup, for the agent's transcript folder (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME). */
  env?: (name: string) => string | undefined;
}

/**
 * The hook command `install` registers for `scope` in the project at `root`, for `agent` and
 * one event. A project's hook reads what the root rule walks (from any launch directory up to
 * the git top-level) and writes that project's store; SessionEnd and PreCompact also read the
 * agent's transcripts; a user-wide hook serves every project, and the store it finds may sit above
 * the launch directory, so it is not confined by path (lib/agents/command.ts `hookFlags`). The
 * restoring events carry `--source startup` and `--no-notice` when asked for.
 */
export function commandFor(
  scope: Scope,
  root: string,
  agent: Agent = "claude",
  options: CommandOptions = {},
): string {
  const script = projectFile("session_restore.ts");
  const target = options.target ?? AGENTS[agent].targets[0];
  const transcripts = target.transcripts?.(options.env ?? (() => undefined));
  const grant = scope === "user"
    ? undefined
    : { root, top: findGitTop(root) ?? root, also: transcripts ? [transcripts] : [] };
  const words = [
    ...(agent === "claude" ? [] : ["--agent", agent]),
    ...(target.restores ? restoreFlags(options) : []),
    ...(target.nudges ? nudgeFlags(options) : []),
  ];
  return [hookCommand(script, grant, eventOf(target)), ...words].join(" ");
}

/**
 * The file `path` stands for: a symlink (settings kept in a dotfiles repository) is followed, so
 * an edit writes its target and the link stays a link.
 */
export async function linkTarget(path: string): Promise<string> {
  let p = path;
  for (let hops = 0; hops < 40; hops++) {
    let info;
    try {
      info = await Deno.lstat(p);
    } catch {
      return p;
    }
    if (!info.isSymlink) return p;
    p = absolute(await Deno.readLink(p), parentDir(p) ?? "/");
  }
  return p;
}

/** What changed: "added", "updated" or "unchanged". */
export type Change = "added" | "updated" | "unchanged";

/** Registers the hook in `path`; throws SettingsError (changing nothing) on a bad file. */
export async function register(
  settings: string,
  target: HookTarget,
  command: string,
  options: EntryOptions = {},
): Promise<Change> {
  const path = await linkTarget(settings);
  const before = await readIfExists(path);
  const after = addHook(before ?? "", target, command, options);
  if (after === (before ?? "")) return "unchanged";
  const dir = parentDir(path);
  if (dir) await Deno.mkdir(dir, { recursive: true });
  await writeFileAtomic(path, after);
  return before !== undefined && removeHooks(before, target) !== before ? "updated" : "added";
}

/** Removes our hook from `path`; a file left as `{}` is deleted. False when nothing was there. */
export async function unregister(settings: string, target: HookTarget): Promise<boolean> {
  const path = await linkTarget(settings);
  const before = await readIfExists(path);
  if (before === undefined) return false;
  const after = removeHooks(before, target);
  if (after === before) return false;
  // A linked file stays, emptied: deleting its target would leave the link dangling.
  if (after === "" && path === settings) await Deno.remove(path);
  else await writeFileAtomic(path, after === "" ? "{}\n" : after);
  return true;
}

/** True when git (or, without git, the root's `.gitignore`) ignores the store. */
export async function stateIgnored(root: string): Promise<boolean> {
  try {
    const out = await new Deno.Command("git", {
      args: ["check-ignore", "-q", "--no-index", `${STATE_IGNORE}session/LATEST`],
      cwd: root,
      stdout: "null",
      stderr: "null",
    }).output();
    if (out.code === 0) return true;
    if (out.code === 1) return false;
  } catch {
    // no git (or not allowed to run it): read the file ourselves
  }
  return ignoresState(await readIfExists(join(root, ".gitignore")) ?? "");
}

/** Adds `.claude/state/` to the root's `.gitignore` in a git project; true when it wrote. */
export async function ignoreState(root: string): Promise<boolean> {
  if (findGitTop(root) === undefined || await stateIgnored(root)) return false;
  const path = await linkTarget(join(root, ".gitignore"));
  const before = await readIfExists(path) ?? "";
  // git says the store is not ignored: a line appended last wins over anything before it.
  await writeFileAtomic(path, withStateIgnored(before, true));
  return true;
}

/** Edits the settings file `settings` stands for with `edit`, atomically; false when unchanged. */
async function editSettings(settings: string, edit: (text: string) => string): Promise<boolean> {
  const path = await linkTarget(settings);
  const before = await readIfExists(path);
  const after = edit(before ?? "");
  if (after === (before ?? "")) return false;
  if (after === "" && path === settings) {
    await Deno.remove(path);
    return true;
  }
  const dir = parentDir(path);
  if (dir) await Deno.mkdir(dir, { recursive: true });
  await writeFileAtomic(path, after === "" ? "{}\n" : after);
  return true;
}

/**
 * The command `install --statusline` sets: the CLI's `statusline` mode, silent where there is no
 * Deno (Claude Code runs it on every refresh of its status line).
 */
export function statusLineCommand(): string {
  return clientCommand("StatusLine", "statusline");
}

/**
 * `install --statusline`: our status line in the `scope` settings file, only when no settings
 * file Claude Code reads for the project (user, project, local) sets one; never replacing one.
 * One line saying what was done.
 */
export async function installStatusLine(scope: Scope, inputs: PathInputs): Promise<string> {
  const target = CLAUDE.settingsPath(scope, inputs);
  for (const s of SCOPES) {
    const path = CLAUDE.settingsPath(s, inputs);
    if (s === "user" && userSettingsProblem("claude", path, inputs.env)) continue;
    const text = await readIfExists(await linkTarget(path));
    const value = text === undefined ? undefined : statusLineOf(text);
    if (value === undefined) continue;
    if (!isOurStatusLine(value)) return `Status line: not set, ${path} has one of its own (kept)`;
    if (path !== target) return `Status line: already set in ${path}`;
  }
  const changed = await editSettings(target, (t) => addStatusLine(t, statusLineCommand()));
  return changed
    ? `Installed: status line in ${target}`
    : `Already installed: status line in ${target}`;
}

/** `uninstall`: our status line out of `path` (another one is kept); true when one was removed. */
export async function uninstallStatusLine(path: string): Promise<boolean> {
  if (await readIfExists(await linkTarget(path)) === undefined) return false;
  return await editSettings(path, removeStatusLine);
}
