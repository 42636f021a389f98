/**
 * What a CLI mode gets from the outside world, injected so most tests run in-process with a
 * scratch directory, a pinned clock and captured output.
 * @module
 */

import { findStore, type Store, storeAt, storeOutside } from "../store/store.ts";
import { isDir } from "../fs/path.ts";

import { isUnwritable, NotFoundError, UsageError } from "../errors.ts";
import { notText } from "../text/utf8.ts";

/** The world a mode runs in. */
export interface Context {
  /** The working directory. */
  cwd: string;
  /** Environment lookup (denied permissions read as unset). */
  env: (name: string) => string | undefined;
  /** The current time (pinned in tests). */
  now: Date;
  /** Reads all of stdin as text. */
  readStdin: () => Promise<string>;
  /** Writes one line (or more) to stdout. */
  out: (text: string) => void;
  /** Writes one line (or more) to stderr. */
  err: (text: string) => void;
}

/**
 * The agent session the CLI runs in, from the agent's environment: Claude Code's id, else Codex's
 * thread id (its hooks' `session_id`); what `dump` records and `recall` marks the start of.
 */
export function agentSession(ctx: Context): string | undefined {
  return ctx.env("CLAUDE_CODE_SESSION_ID") || ctx.env("CODEX_THREAD_ID") || undefined;
}

/** The store for a mode: `--dir` first, then the `<root>` rule (docs/STORE.md). */
export function storeFor(ctx: Context, dir?: string): Store {
  const store = findStore({ dir, projectDir: ctx.env("CLAUDE_PROJECT_DIR"), cwd: ctx.cwd });
  if (dir !== undefined && !isDir(store.root)) {
    throw new UsageError(`--dir "${dir}" is not a directory; give the project's root directory`);
  }
  const outside = storeOutside(store);
  if (outside !== undefined) {
    throw new NotFoundError(
      `the store ${store.dir} leads outside the project (to ${outside}); session keeps its ` +
        `handovers inside the project, so nothing was read or written. Replace the symlink with ` +
        `a directory`,
    );
  }
  return store;
}

/**
 * Runs `write` against `store`; where that store cannot be written (an agent's sandbox confines
 * writes to the worktree) and the work is in a linked worktree, against the worktree's own store
 * instead, saying so in one line: the next command or hook there moves it into the repository's
 * (lib/sync/adopt.ts). Anything else that fails, fails.
 */
export async function inWritableStore<T>(
  ctx: Context,
  mode: string,
  store: Store,
  write: (store: Store) => Promise<T>,
): Promise<T> {
  try {
    return await write(store);
  } catch (err) {
    if ((store.home ?? store.root) === store.root || !isUnwritable(err)) throw err;
    const own = storeAt(store.root);
    const result = await write(own);
    ctx.err(
      `session ${mode}: the repository's store ${store.dir} cannot be written here (a sandbox?); ` +
        `wrote to this worktree's ${own.dir}, which the next hook moves into it`,
    );
    return result;
  }
}

/**
 * Stdin as text (lib/text/utf8.ts), refusing bytes that are not: decoding them would silently
 * turn the user's text into U+FFFD, and nothing a user wrote is silently rewritten.
 */
export function decodeStdin(bytes: Uint8Array): string {
  const why = notText(bytes);
  if (why?.startsWith("a NUL")) {
    throw new UsageError(
      `stdin looks binary (${why}); pipe the handover's markdown sections. Nothing was written`,
    );
  }
  if (why !== undefined) {
    throw new UsageError(
      "stdin is not UTF-8 text; convert it first, e.g. `iconv -f latin1 -t utf-8 notes.md | " +
        "session.ts dump`. Nothing was written",
    );
  }
  return new TextDecoder().decode(bytes);
}

export { type ByteSource, readAll, writeLine } from "../fs/stdio.ts";
