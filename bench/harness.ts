/**
 * Side-by-side timing: a subject and its floor run interleaved in the same loop (after a warmup),
 * and only the ratio of their medians is reported. Absolute times on shared, noisy machines say
 * little; a ratio measured in the same minute says a lot.
 * @module
 */

/** One process to time: argv, optional stdin, and a setup run untimed before each start. */
export interface Proc {
  cmd: string;
  args: string[];
  cwd?: string;
  stdin?: string;
  env?: Record<string, string>;
  /** Runs before each timed start (untimed): restores the state the subject consumes. */
  setup?: () => void | Promise<void>;
  /** Checked after each run (untimed): a benchmark of a broken run measures nothing. */
  check?: (r: { code: number; stdout: string; stderr: string }) => void;
}

/** Wall time of one process run in milliseconds (spawn to exit, stdout/stderr drained). */
export async function timeOnce(p: Proc): Promise<number> {
  if (p.setup) await p.setup();
  const child = new Deno.Command(p.cmd, {
    args: p.args,
    cwd: p.cwd,
    env: p.env,
    stdin: p.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const t0 = performance.now();
  const proc = child.spawn();
  if (p.stdin !== undefined) {
    const w = proc.stdin.getWriter();
    // A subject that exits without reading stdin closes the pipe: that is its business.
    await w.write(new TextEncoder().encode(p.stdin)).catch(() => {});
    await w.close().catch(() => {});
  }
  const out = await proc.output();
  const ms = performance.now() - t0;
  if (p.check) {
    const dec = new TextDecoder();
    p.check({ code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) });
  }
  return ms;
}

/** The median of a non-empty list. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * min(subject) / min(floor) of the last {@link compare}: the best runs of each, what the ratio
 * tends to on a machine with no neighbours (contention only ever adds time). A diagnostic beside
 * the median ratio, which is the one the goals are about.
 */
let lastBest = NaN;

/** Returns the best-of ratio of the last {@link compare} (undefined when none ran) and clears it. */
export function takeBest(): number | undefined {
  const best = lastBest;
  lastBest = NaN;
  return Number.isFinite(best) ? best : undefined;
}

/** Options of a side-by-side comparison. */
export interface CompareOptions {
  runs: number;
  warmup: number;
}

/**
 * Times `subject` against `floor` interleaved (alternating which goes first each round, so
 * neither always runs on a warmer cache) and returns median(subject) / median(floor).
 */
export async function compare(
  floor: Proc,
  subject: Proc,
  opts: CompareOptions,
): Promise<number> {
  for (let i = 0; i < opts.warmup; i++) {
    await timeOnce(floor);
    await timeOnce(subject);
  }
  const f: number[] = [];
  const s: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    if (i % 2 === 0) {
      f.push(await timeOnce(floor));
      s.push(await timeOnce(subject));
    } else {
      s.push(await timeOnce(subject));
      f.push(await timeOnce(floor));
    }
  }
  lastBest = Math.min(...s) / Math.min(...f);
  return median(s) / median(f);
}

/** Times an in-process function: median milliseconds over `runs` after `warmup` calls. */
export async function timeFn(
  fn: () => unknown | Promise<unknown>,
  opts: CompareOptions,
  setup?: () => void | Promise<void>,
): Promise<number> {
  for (let i = 0; i < opts.warmup; i++) {
    if (setup) await setup();
    await fn();
  }
  const xs: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    if (setup) await setup();
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

/**
 * Growth exponent k in cost ∝ n^k between two sizes: 1 is linear, 2 quadratic. Costs below
 * `noise` ms are clamped to it so a near-zero small case cannot fake a steep curve.
 */
export function growthExponent(
  small: { n: number; ms: number },
  large: { n: number; ms: number },
  noise = 0.05,
): number {
  const a = Math.max(small.ms, noise);
  const b = Math.max(large.ms, noise);
  return Math.log(b / a) / Math.log(large.n / small.n);
}
