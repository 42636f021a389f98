/**
 * The process's standard streams as the CLI and the hook use them: all of stdin as bytes, a line
 * to stdout or stderr.
 * @module
 */

/** What {@link readAll} reads: `Deno.stdin`, or a stand-in in tests. */
export interface ByteSource {
  readSync(p: Uint8Array): number | null;
  read(p: Uint8Array): Promise<number | null>;
}

/**
 * All of `source`'s bytes to its end. Synchronous reads, not `new Response(Deno.stdin.readable)`:
 * its first use loads Deno's fetch and stream code, a cost every `dump` would pay (docs/PERFORMANCE.md).
 * A descriptor left non-blocking fails a synchronous read with WouldBlock; it is read
 * asynchronously from there on.
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
 * without its formatting machinery, whose cost grows with the output (a `list` of 10,000 parked
 * items prints 800 KB: docs/PERFORMANCE.md). Like `console.log`, a reader that went away (a broken pipe) is not an error.
 */
export function writeLine(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = ENCODER.encode(text + "\n");
  try {
    for (let at = 0; at < bytes.length;) at += stream.writeSync(bytes.subarray(at));
  } catch (err) {
    if (!(err instanceof Deno.errors.BrokenPipe)) throw err;
  }
}
