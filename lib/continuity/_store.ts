/**
 * The store SessionEnd writes to, by the root rule (lib/store/store.ts `findStore`), refused when
 * it leads outside its project. The CLI's rule, so SessionEnd finds the store the CLI writes.
 * @module
 */

import { exists } from "../fs/path.ts";
import { labelOf } from "../store/repository.ts";
import { findGitTop, findStore, type Store, storeOutside } from "../store/store.ts";

/** The project's store and git top-level, or why nothing may be written there. */
export function projectStore(
  projectDir: string | undefined,
  cwd: string,
): { store: Store; top?: string } | { refused: string } {
  const store = findStore({ projectDir, cwd });
  if (storeOutside(store) !== undefined) {
    return { refused: "the store leads outside the project; nothing written" };
  }
  // A project directory gone by now is a worktree the agent removed before its SessionEnd (Claude
  // Code's clean-up at exit): the draft still says where the session worked.
  if (store.worktree === undefined && projectDir !== undefined && !exists(projectDir)) {
    store.worktree = labelOf(store.home ?? store.root, projectDir);
  }
  return { store, top: findGitTop(store.root) };
}
