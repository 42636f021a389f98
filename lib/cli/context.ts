/**
 * What a CLI mode gets from the outside world, injected so most tests run in-process with a
 * scratch directory, a pinned clock and captured output.
 * @module
 */

import { findRoot, type Store, storeAt, storeOutside } from "../store/store.ts";
import { isDir } from "../fs/path.ts";

import { NotFoundError, UsageError } from "../errors.ts";

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

/** The store for a mode: `--dir` first, then the spec's `<root>` rule. */
export function storeFor(ctx: Context, dir?: string): Store {
  const store = storeAt(findRoot({ dir, projectDir: ctx.env("CLAUDE_PROJECT_DIR"), cwd: ctx.cwd }));
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
 * Stdin as text, refusing bytes that are not UTF-8: decoding them would silently turn the user's
 * text into U+FFFD, and nothing a user wrote is silently rewritten.
 */
export function decodeStdin(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(
      "stdin is not UTF-8 text; convert it first, e.g. `iconv -f latin1 -t utf-8 notes.md | " +
        "session.ts dump`. Nothing was written",
    );
  }
}

/** What {@link readAll} reads: `Deno.stdin`, or a stand-in in tests. */
export interface ByteSource {
  readSync(p: Uint8Array): number | null;
  read(p: Uint8Array): Promise<number | null>;
}

/**
 * All of `source`'s bytes to its end. Synchronous reads, not `new Response(Deno.stdin.readable)`:
 * its first use loads Deno's fetch and stream code, ~5–8 ms of every `dump` (docs/PERFORMANCE.md).
 * A descriptor left non-blocking fails a synchronous read with WouldBlock; it is read
 * asynchronously from there on. The hook has its own copy (lib/hook/fast.ts `readStdin`): its
 * fast path imports nothing, by design (docs/HOOK.md).
 */
export async function readAll(source: ByteSource): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(1 << 16);
  let total = 0;
  let sync = true;
  for (;;) {
    let n: number | null;
    try {
      n = sync ? source.readSync(buf) : await source.read(buf);
    } catch (err) {
      if (!sync || !(err instanceof Deno.errors.WouldBlock)) throw err;
      sync = false;
      continue;
    }
    if (n === null || n === 0) break;
    chunks.push(buf.slice(0, n));
    total += n;
  }
  if (chunks.length === 1) return chunks[0];
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

const ENCODER = new TextEncoder();

/**
 * Writes `text` and a newline to `stream` (stdout, stderr): what `console.log` does for a string,
 * without its formatting machinery, which costs ~1 ms per 40 KB (a `list` of 10,000 parked items
 * prints 800 KB). Like `console.log`, a reader that went away (a broken pipe) is not an error.
 */
export function writeLine(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = ENCODER.encode(text + "\n");
  try {
    for (let at = 0; at < bytes.length;) at += stream.writeSync(bytes.subarray(at));
  } catch (err) {
    if (!(err instanceof Deno.errors.BrokenPipe)) throw err;
  }
}
