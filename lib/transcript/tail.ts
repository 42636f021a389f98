/**
 * The ends of a transcript: its last bytes, read through the one gate (lib/transcript/open.ts), for
 * the hooks that look at how a session ended (SessionEnd's glance, the idle check) or how full its
 * context is (the nudge), and its first bytes, for where it began (a fork's parent), without
 * reading the whole file. Imports only the gate.
 * @module
 */

import { openTranscript } from "./open.ts";

/**
 * The last `max` bytes of a transcript, decoded, and the offset they start at (0: the whole file).
 * With `wholeOnly`, a longer file is not read: `text` is undefined. Throws when the file cannot
 * be read, or is no transcript to read (lib/transcript/open.ts: a FIFO, a symlink leading out of
 * the transcripts folder).
 *
 * The size comes from seeking to the end; a file within `max` is read whole. The bytes are read
 * from the handle that was checked, never by the path again.
 */
export function readTail(
  path: string,
  max: number,
  wholeOnly = false,
): { text: string | undefined; from: number } {
  const file = openTranscript(path);
  try {
    const size = file.seekSync(0, Deno.SeekMode.End);
    const from = Math.max(0, size - max);
    if (from > 0 && wholeOnly) return { text: undefined, from };
    file.seekSync(from, Deno.SeekMode.Start);
    return { text: readUpTo(file, size - from), from };
  } finally {
    file.close();
  }
}

/** The first `max` bytes of a transcript, decoded (the whole file when it is shorter). */
export function readHead(path: string, max: number): string {
  const file = openTranscript(path);
  try {
    return readUpTo(file, max);
  } finally {
    file.close();
  }
}

/** Up to `max` bytes from the handle's position, decoded. */
function readUpTo(file: Deno.FsFile, max: number): string {
  const buf = new Uint8Array(max);
  let at = 0;
  while (at < buf.length) {
    const n = file.readSync(buf.subarray(at));
    if (n === null) break;
    at += n;
  }
  return new TextDecoder().decode(buf.subarray(0, at));
}
