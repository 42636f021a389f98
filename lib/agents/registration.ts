/**
 * Registering the restore hook with an agent, as IO around the pure editors: read the settings
 * file, edit it (lib/agents/settings.ts), write it atomically; keep `.claude/state/` git-ignored.
 * @module
 */

import { writeFileAtomic } from "../fs/atomic.ts";
import { clientCommand, FLAT_ANSWER, hookCommand, type HookGrant, projectFile } from "./command.ts";
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
} from "./targets.ts";
import { userSettingsProblem } from "./homes.ts";
import {
  addHook,
  addStatusLine,
  isOurStatusLine,
  removeHooks,
  removeStatusLine,
  statusLineOf,
} from "./settings.ts";
import type { Agent } from "../frame/budget.ts";
import { absolute, isDir, join, parentDir } from "../fs/path.ts";
import { findGitTop, findStore } from "../store/store.ts";
import { findCheckout, linkedWorktrees } from "../store/repository.ts";

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
  const grant = scope === "user" ? undefined : projectGrant(root, transcripts ? [transcripts] : []);
  const words = [
    ...(agent === "claude" ? [] : ["--agent", agent]),
    ...(target.restores ? restoreFlags(options) : []),
    ...(target.nudges ? nudgeFlags(options) : []),
  ];
  const flat = FLAT_ANSWER.includes(agent);
  return [hookCommand(script, grant, eventOf(target), flat), ...words].join(" ");
}

/**
 * What a project's hook may read and write, the same from every worktree of its repository: read
 * the main worktree (where the root rule walks, `.claude/worktrees/*` included), the common git
 * dir and every linked worktree git knows of when outside it, and `also` (the transcripts); write
 * the repository's store and the stores older versions left inside linked worktrees (to move
 * them). A worktree added outside the main one later is not named: `doctor` there says so.
 */
export function projectGrant(root: string, also: string[]): HookGrant {
  const store = findStore({ dir: root, cwd: root });
  const checkout = findCheckout(root);
  if (checkout === undefined) return { root, top: root, also };
  const rel = root.slice(checkout.top.length);
  const bare = checkout.home === checkout.common;
  const top = bare ? checkout.common : checkout.home;
  const worktrees = linkedWorktrees(checkout.common).map((w) => w.top);
  const inside = (p: string) => p === top || p.startsWith(`${top}/`);
  return {
    root: store.home ?? root,
    top,
    store: store.dir,
    also: [
      ...(inside(checkout.common) ? [] : [checkout.common]),
      ...worktrees.filter((w) => !inside(w)),
      ...also,
    ],
    writes: worktrees.map((w) => `${w}${rel}/.claude/state/session`),
  };
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

/** The line that keeps a project's local settings out of git. */
export const LOCAL_SETTINGS_IGNORE = ".claude/settings.local.json";

/**
 * Keeps `file` (a settings file `install --local` wrote, under `root`) out of git, as Claude Code
 * does when it creates one: in the repository's `info/exclude`, which every worktree shares —
 * a `.gitignore` line would be a change in the worktree (Claude Code then asks whether to keep it
 * at exit instead of removing it) and would not reach worktrees made from the last commit. Returns
 * the exclude file when it wrote; nothing outside git or when git already ignores the file.
 */
export async function ignoreLocalSettings(root: string, file: string): Promise<string | undefined> {
  const checkout = findCheckout(root);
  if (checkout === undefined || !file.startsWith(`${root}/`)) return undefined;
  try {
    const out = await new Deno.Command("git", {
      args: ["check-ignore", "-q", file.slice(root.length + 1)],
      cwd: root,
      stdout: "null",
      stderr: "null",
    }).output();
    if (out.code === 0) return undefined;
  } catch { /* no git: write the line */ }
  const exclude = await linkTarget(join(checkout.common, "info", "exclude"));
  const before = await readIfExists(exclude) ?? "";
  if (before.split(/\r?\n/).includes(LOCAL_SETTINGS_IGNORE)) return undefined;
  const sep = before === "" || before.endsWith("\n") ? "" : "\n";
  await Deno.mkdir(join(checkout.common, "info"), { recursive: true });
  await writeFileAtomic(exclude, `${before}${sep}${LOCAL_SETTINGS_IGNORE}\n`);
  return exclude;
}

/**
 * Where `install` writes a project's settings for `scope`: the project root; with `--local` in a
 * repository with linked worktrees, the same project in the main worktree and in every linked
 * worktree git knows of — Claude Code 2.1.332 reads the main checkout's local settings in a
 * worktree, 2.1.197 the worktree's own (copied from the main checkout's when it makes one).
 * A tracked file (project scope) is each branch's own business: only the root's.
 */
export function settingsRoots(scope: Scope, root: string): string[] {
  const checkout = scope === "local" ? findCheckout(root) : undefined;
  if (checkout === undefined) return [root];
  const rel = root.slice(checkout.top.length);
  const tops = checkout.home === checkout.common ? [] : [checkout.home];
  tops.push(...linkedWorktrees(checkout.common).map((w) => w.top));
  const roots = tops.map((t) => `${t}${rel}`).filter((r) => r === root || isDir(r));
  return [...new Set([root, ...roots])];
}
