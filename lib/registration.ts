/**
 * Registering the restore hook with an agent, as IO around the pure editors: read the settings
 * file, edit it (lib/settings.ts), write it atomically; keep `.claude/state/` git-ignored.
 * @module
 */

import { writeFileAtomic } from "./atomic.ts";
import { HOOK_ENV, hookCommand, PROJECT_DIR_VAR, projectFile, shellQuote } from "./command.ts";
import { ignoresState, STATE_IGNORE, withStateIgnored } from "./gitignore.ts";
import type { HookTarget, Scope } from "./hook_target.ts";
import { addHook, removeHooks } from "./settings.ts";
import { findGitTop, join, parentDir } from "./store.ts";

/** Reads a text file; undefined when it does not exist. */
export async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** The hook command `install` registers for `scope` in the project at `root`, for `agent`. */
export function commandFor(scope: Scope, root: string, agent = "claude"): string {
  const script = projectFile("session_restore.ts");
  // A user-wide hook serves every project: Claude Code's shell supplies the root at run time.
  if (agent === "claude") return hookCommand(script, scope === "user" ? PROJECT_DIR_VAR : root);
  // Codex and Gemini hand the hook's shell no usable project root (Codex has none; Gemini's
  // $CLAUDE_PROJECT_DIR is its launch directory, which may sit below the store), so a user-wide
  // hook may read and write where the walk-up from the payload's cwd leads.
  const base = scope === "user"
    ? [
      "deno run --no-prompt --allow-read --allow-write",
      `--allow-env=${HOOK_ENV.join(",")}`,
      shellQuote(script),
    ].join(" ")
    : hookCommand(script, root);
  return `${base} --agent ${agent}`;
}

/** What changed: "added", "updated" or "unchanged". */
export type Change = "added" | "updated" | "unchanged";

/** Registers the hook in `path`; throws SettingsError (changing nothing) on a bad file. */
export async function register(path: string, target: HookTarget, command: string): Promise<Change> {
  const before = await readIfExists(path);
  const after = addHook(before ?? "", target, command);
  if (after === (before ?? "")) return "unchanged";
  const dir = parentDir(path);
  if (dir) await Deno.mkdir(dir, { recursive: true });
  await writeFileAtomic(path, after);
  return before !== undefined && removeHooks(before, target) !== before ? "updated" : "added";
}

/** Removes our hook from `path`; a file left as `{}` is deleted. False when nothing was there. */
export async function unregister(path: string, target: HookTarget): Promise<boolean> {
  const before = await readIfExists(path);
  if (before === undefined) return false;
  const after = removeHooks(before, target);
  if (after === before) return false;
  if (after === "") await Deno.remove(path);
  else await writeFileAtomic(path, after);
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
  const path = join(root, ".gitignore");
  const before = await readIfExists(path) ?? "";
  await writeFileAtomic(path, withStateIgnored(before));
  return true;
}
