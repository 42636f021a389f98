/**
 * Test support: scratch git repositories with real linked worktrees (`git worktree add`), bare
 * ones and submodules. Tests may run git; the hook may not.
 * @module
 */

import { absolute, join } from "../../lib/fs/path.ts";
import { git, put, type ScratchDir, scratchDir } from "./scratch.ts";

/** A scratch folder holding a repository `main/` with one commit and `.claude/state/` ignored. */
export interface ScratchRepo extends AsyncDisposable {
  /** The scratch folder (siblings of the main worktree go here). */
  base: string;
  /** The main worktree. */
  main: string;
}

/** A repository with one commit on `main`, in a fresh scratch folder. */
export async function scratchRepo(): Promise<ScratchRepo> {
  const dir: ScratchDir = await scratchDir("session-wt-");
  const main = join(dir.path, "main");
  await Deno.mkdir(main);
  await git(main, ["init", "-q", "-b", "main"]);
  await put(main, ".gitignore", ".claude/state/\n.claude/worktrees/\n");
  await put(main, "README.md", "hello\n");
  await git(main, ["add", "-A"]);
  await git(main, ["commit", "-q", "-m", "init"]);
  return { base: dir.path, main, [Symbol.asyncDispose]: dir[Symbol.asyncDispose] };
}

/** `git worktree add -b <branch> <path>` from `repo` (path relative to `repo`); its top-level. */
export async function addWorktree(repo: string, path: string, branch: string): Promise<string> {
  await git(repo, ["worktree", "add", "-q", "-b", branch, path]);
  return absolute(path, repo);
}
