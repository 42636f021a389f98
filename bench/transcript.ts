/**
 * Transcript parsing speed: `readTranscript` on a generated transcript (100 MB by default)
 * against the floor any reader must pay ({@link bareLoop}: read the same file line by line and
 * JSON.parse the message lines), side by side in one run (order alternating each round, median of
 * the rounds). Also the peak RSS growth
 * while parsing, which must not grow with the file.
 *
 *   deno run --allow-all bench/transcript.ts [--mb 100] [--runs 5]
 *
 * `bench/run.ts` can call {@link benchTranscript} for its table.
 * @module
 */

import { readTranscript } from "../lib/transcript/claude.ts";
import { forEachLine } from "../lib/transcript/lines.ts";

const FIXTURE = new URL("../tests/fixtures/transcripts/real/interactive.jsonl", import.meta.url);

/**
 * Writes a transcript of about `bytes` bytes at `path`, streaming: the real fixture's records
 * repeated with fresh ids and paths, interleaved with the bulky records long sessions are made of
 * (large Read results, file-history snapshots, progress records), and with `garbageEvery`, hostile
 * lines every that many rounds. Returns how many bad lines it wrote.
 */
export async function makeTranscript(
  path: string,
  bytes: number,
  opts: { garbageEvery?: number } = {},
): Promise<{ garbage: number }> {
  let garbage = 0;
  const base = (await Deno.readTextFile(FIXTURE)).split("\n").filter((l) => l !== "");
  const bulk = "x".repeat(6_000);
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  let written = 0;
  for (let round = 0; written < bytes; round++) {
    const parts: string[] = [];
    for (const line of base) {
      parts.push(
        // Each round's records are new ones (a record seen twice, by uuid, is read once).
        line.replaceAll("toolu_fixture_", `toolu_${round}_`).replaceAll(
          "src/greet.ts",
          `src/greet_${round % 500}.ts`,
        ).replaceAll(/"(uuid|parentUuid)":"([0-9a-f-]{36})"/g, `"$1":"$2-${round}"`),
      );
    }
    for (let i = 0; i < 8; i++) {
      const id = `toolu_read_${round}_${i}`;
      parts.push(JSON.stringify({
        type: "assistant",
        message: {
          role: "assistant",
          content: [{ type: "tool_use", id, name: "Read", input: { file_path: "/x/y.ts" } }],
        },
      }));
      parts.push(JSON.stringify({
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: id, content: bulk }],
        },
        toolUseResult: { file: { filePath: "/x/y.ts", content: bulk } },
      }));
      parts.push(JSON.stringify({
        type: "file-history-snapshot",
        messageId: id,
        snapshot: { trackedFileBackups: { "/x/y.ts": { backupFileName: bulk.slice(0, 2000) } } },
      }));
      parts.push(JSON.stringify({
        type: "progress",
        data: { type: "bash_progress", output: bulk.slice(0, 3000) },
        toolUseID: id,
      }));
    }
    if (opts.garbageEvery && round % opts.garbageEvery === 0) {
      // Hostile lines: a truncated record, binary junk, a JSON array; each is one bad line.
      parts.push(
        '{"type":"assistant","message":{"content":[{"type":"text","text":"cut',
        "\u0000\u00ff{[",
        "[1,2]",
      );
      garbage += 3;
    }
    const chunk = enc.encode(parts.join("\n") + "\n");
    await file.write(chunk);
    written += chunk.length;
  }
  return { garbage };
}

/**
 * The floor: the least any reader of a transcript must do. Read the file line by line (the same
 * chunked reader, {@link forEachLine}) and JSON.parse only the lines that can carry a fact — a
 * user or assistant message, found by the same substring test the reader uses; every other line
 * (snapshots, progress, summaries: ~30 % of a real transcript) is skipped unparsed, as a reader
 * is free to. Parsing every line here would flatter the ratio: the floor would do work the reader
 * skips.
 */
export async function bareLoop(path: string): Promise<number> {
  let count = 0;
  await forEachLine(path, (line) => {
    if (!line.includes('"user"') && !line.includes('"assistant"')) return;
    try {
      if (JSON.parse(line)) count++;
    } catch { /* a bad line */ }
  });
  return count;
}

/** Result of one transcript bench. */
export interface TranscriptBench {
  bytes: number;
  /** Median wall time of the bare loop, ms. */
  bareMs: number;
  /** Median wall time of `readTranscript`, ms. */
  parseMs: number;
  /** parseMs / bareMs: the goal is at most 1.5. */
  ratio: number;
  /**
   * Peak RSS growth while parsing, MB, in a fresh process with a 32 MB heap cap (sampled every
   * 4,096 lines); NaN when the parse did not fit.
   */
  peakRssMb: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Generates a transcript of `mb` MB and times both loops `runs` times each, alternating. */
export async function benchTranscript(
  opts: { mb?: number; runs?: number; path?: string } = {},
): Promise<TranscriptBench> {
  const mb = opts.mb ?? 100;
  const runs = opts.runs ?? 5;
  const dir = await Deno.makeTempDir({ prefix: "session-transcript-bench-" });
  const path = opts.path ?? `${dir}/big.jsonl`;
  try {
    await makeTranscript(path, mb * 1024 * 1024);
    const bytes = (await Deno.stat(path)).size;
    const bare: number[] = [];
    const parse: number[] = [];
    await bareLoop(path); // warm the page cache and the JIT for both
    await readTranscript(path, { root: "/home/dev/demo-app" });
    // Alternate which goes first each round, so neither always runs on the warmer cache or heap.
    const timeBare = async () => {
      const t = performance.now();
      await bareLoop(path);
      bare.push(performance.now() - t);
    };
    const timeParse = async () => {
      const t = performance.now();
      await readTranscript(path, { root: "/home/dev/demo-app" });
      parse.push(performance.now() - t);
    };
    for (let i = 0; i < runs; i++) {
      for (const run of i % 2 ? [timeParse, timeBare] : [timeBare, timeParse]) await run();
    }
    const peakRssMb = await peakRssInProcess(path);
    const bareMs = median(bare);
    const parseMs = median(parse);
    return { bytes, bareMs, parseMs, ratio: parseMs / bareMs, peakRssMb };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Peak RSS growth (MB) over one parse of `path`, sampled as lines go by. */
export async function peakRssGrowth(path: string): Promise<number> {
  const { TranscriptReader } = await import("../lib/transcript/claude.ts");
  const before = Deno.memoryUsage().rss;
  let peak = before;
  let n = 0;
  const reader = new TranscriptReader({ root: "/home/dev/demo-app", path });
  await forEachLine(path, (l) => {
    reader.line(l);
    if ((++n & 4095) === 0) peak = Math.max(peak, Deno.memoryUsage().rss);
  });
  reader.facts();
  return (peak - before) / (1024 * 1024);
}

/** The V8 heap cap the memory check parses under: far below the file's size. */
export const HEAP_CAP_MB = 32;

/**
 * {@link peakRssGrowth} measured in a fresh Deno process whose heap is capped at
 * {@link HEAP_CAP_MB} (so V8 cannot simply defer collection); NaN when the parse ran out of
 * memory, i.e. memory grew with the file.
 */
export async function peakRssInProcess(path: string): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      `--v8-flags=--max-old-space-size=${HEAP_CAP_MB}`,
      new URL(import.meta.url).pathname,
      "--rss",
      path,
    ],
    stdout: "piped",
    stderr: "null",
  }).output();
  return out.success ? Number(new TextDecoder().decode(out.stdout).trim()) : NaN;
}

if (import.meta.main && Deno.args[0] === "--rss") {
  console.log((await peakRssGrowth(Deno.args[1])).toFixed(1));
} else if (import.meta.main) {
  const arg = (flag: string) => {
    const i = Deno.args.indexOf(flag);
    return i >= 0 ? Number(Deno.args[i + 1]) : undefined;
  };
  const r = await benchTranscript({ mb: arg("--mb"), runs: arg("--runs") });
  const mb = (r.bytes / 1024 / 1024).toFixed(0);
  console.log(
    `transcript ${mb} MB: bare loop ${r.bareMs.toFixed(0)} ms, readTranscript ` +
      `${r.parseMs.toFixed(0)} ms, ratio ${r.ratio.toFixed(2)}× (goal ≤ 1.5×) ` +
      `${r.ratio <= 1.5 ? "✓" : "✗"}; with a ${HEAP_CAP_MB} MB heap cap: ` +
      (Number.isNaN(r.peakRssMb)
        ? "out of memory ✗"
        : `fits, peak RSS growth ${r.peakRssMb.toFixed(0)} MB ✓`),
  );
}
