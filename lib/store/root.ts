/**
 * The spec's `<root>` rule: which project a command or the hook is about, so the CLI and the
 * hook always find the same store (docs/STORE.md); and the git top-level that rule stops at.
 * @module
 */

import { absolute, exists, isDir, join, parentDir } from "../fs/path.ts";
import { STORE_REL } from "./store.ts";

/** Inputs of the `<root>` rule. */
export interface RootInputs {
  /** `--dir DIR`, when given. */
  dir?: string;
  /** `CLAUDE_PROJECT_DIR`, when set. */
  projectDir?: string;
  /** The working directory (the hook: the payload's `cwd`). */
  cwd: string;
}

/**
 * The project root by the spec's rule: `--dir`; else, walking up from the start directory
 * (`CLAUDE_PROJECT_DIR` when set, else `cwd`) to the git top-level, the nearest directory that
 * already has a store; else the git top-level; else the start directory. `CLAUDE_PROJECT_DIR`
 * only starts the walk: Claude Code started in a subdirectory sets it to that subdirectory, while
 * its Bash tool (and so the CLI) starts there without it, and both must find the same store.
 * The git top-level is found by looking for `.git` (a directory, or a file in worktrees and
 * submodules) rather than by running git, which would cost the hook its budget.
 */
export function findRoot(inputs: RootInputs): string {
  const cwd = absolute(inputs.cwd, "/");
  if (inputs.dir) return absolute(inputs.dir, cwd);
  const start = inputs.projectDir ? absolute(inputs.projectDir, cwd) : cwd;
  let nearestStore: string | undefined;
  for (let d: string | undefined = start; d !== undefined; d = parentDir(d)) {
    if (nearestStore === undefined && isDir(join(d, STORE_REL))) nearestStore = d;
    if (exists(join(d, ".git"))) return nearestStore ?? d;
  }
  return start;
}

/** The git top-level above `cwd` (by `.git`), or undefined outside a repository. */
export function findGitTop(cwd: string): string | undefined {
  for (let d: string | undefined = absolute(cwd, "/"); d !== undefined; d = parentDir(d)) {
    if (exists(join(d, ".git"))) return d;
  }
  return undefined;
}
