/**
 * Whether an install names this project: one of its Claude Code settings files
 * (`.claude/settings.json`, `.claude/settings.local.json`, the project and local scopes of
 * `install`) registers our hook. A user-wide install names no project, so it does not count. The
 * status line asks this before it creates a store (lib/cli/statusline.ts): in a project that
 * installed the hooks it keeps its figures from the first prompt on; anywhere else it creates
 * nothing.
 * @module
 */

import { findHooks } from "./settings.ts";
import { CLAUDE, RESTORE_SCRIPT } from "./targets.ts";
import { readUtf8 } from "../fs/path.ts";
import type { Store } from "../store/store.ts";

/** The scopes whose settings file belongs to one project. */
const PROJECT_SCOPES = ["project", "local"] as const;

/**
 * True when a project or local settings file of the store's project (its root, and in a linked
 * worktree the main checkout's too, where `install --local` also writes) registers our Claude Code
 * hook. A file that cannot be read or parsed names nothing.
 */
export function installedIn(store: Store, env: (name: string) => string | undefined): boolean {
  const roots = [...new Set([store.root, store.home ?? store.root])];
  for (const root of roots) {
    for (const scope of PROJECT_SCOPES) {
      const text = readUtf8(CLAUDE.settingsPath(scope, { root, env }));
      // Most settings files never name the script: they are not parsed.
      if (text === undefined || !text.includes(RESTORE_SCRIPT)) continue;
      try {
        if (findHooks(text, CLAUDE).length > 0) return true;
      } catch { /* unreadable settings register nothing; doctor says why */ }
    }
  }
  return false;
}
