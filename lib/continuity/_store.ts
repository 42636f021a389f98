/**
 * The store SessionEnd writes to, by the root rule (lib/store/store.ts `findRoot`), refused when it leads
 * outside its project. The CLI's rule, so SessionEnd
 * finds the store the CLI writes.
 * @module
 */

import { findGitTop, findRoot, type Store, storeAt, storeOutside } from "../store/store.ts";

/** The project's store and git top-level, or why nothing may be written there. */
export function projectStore(
  projectDir: string | undefined,
  cwd: string,
): { store: Store; top?: string } | { refused: string } {
  const store = storeAt(findRoot({ projectDir, cwd }));
  if (storeOutside(store) !== undefined) {
    return { refused: "the store leads outside the project; nothing written" };
  }
  return { store, top: findGitTop(store.root) };
}
