/**
 * Transcripts line by line: streamed from a file in fixed-size chunks ({@link forEachLine}), so
 * memory holds one chunk plus the longest line however long the file is; or split from text held
 * in memory. {@link fileReader} and {@link textReader} run a reader class either way.
 * @module
 */

import type { ReaderOptions } from "./facts.ts";
import { openTranscript } from "./open.ts";

/** A transcript reader: folds lines one at a time, then gives what it found. */
export interface LineReader<T> {
  line(text: string): void;
  facts(): T;
}

/** Size of each read from the file. */
const CHUNK = 1 << 20;

/**
 * Calls `onLine` for each line of the file at `path`, streaming fixed-size chunks: memory holds
 * one chunk plus the longest line, never the file. Invalid UTF-8 decodes to U+FFFD. Only a
 * regular file in its transcripts folder is read (open.ts); anything else rejects.
 */
export async function forEachLine(path: string, onLine: (line: string) => void): Promise<void> {
  using file = openTranscript(path);
  const decoder = new TextDecoder("utf-8");
  const buf = new Uint8Array(CHUNK);
  let carry = "";
  for (;;) {
    const n = await file.read(buf);
    if (n === null) break;
    const text = carry + decoder.decode(buf.subarray(0, n), { stream: true });
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      onLine(text.slice(start, end));
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  carry += decoder.decode();
  if (carry !== "") onLine(carry.endsWith("\r") ? carry.slice(0, -1) : carry);
}

/** A reader class: made from the options, then fed the transcript line by line. */
export type ReaderClass<T> = new (opts: ReaderOptions) => LineReader<T>;

/** Runs a whole transcript held in memory through a new `Reader` (tests, small inputs). */
export function textReader<T>(Reader: ReaderClass<T>): (text: string, opts: ReaderOptions) => T {
  return (text, opts) => {
    const reader = new Reader(opts);
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    for (const l of lines) reader.line(l.endsWith("\r") ? l.slice(0, -1) : l);
    return reader.facts();
  };
}

/**
 * Streams the file at `path` through a new `Reader`, which reports `path` in its facts. The
 * result rejects only when the file cannot be opened.
 */
export function fileReader<T>(
  Reader: ReaderClass<T>,
): (path: string, opts: ReaderOptions) => Promise<T> {
  return async (path, opts) => {
    const reader = new Reader({ ...opts, path });
    await forEachLine(path, (l) => reader.line(l));
    return reader.facts();
  };
}
