/**
 * `push` and `pull` of many handovers: a first push of N handovers (everything new) from one
 * clone, and a first pull of them into another, each through a bare remote on this machine, timed
 * in-process (no runtime start in the figure) at two sizes; the growth exponent between them says
 * whether the cost is linear. Past ~1,600 handovers git's pipes fill both ways, so any size above
 * that also proves a sync ends.
 *
 *   deno run --allow-all bench/sync.ts [--small 1000] [--large 10000] [--runs 3]
 *
 * `bench/run.ts` adds its rows with {@link syncRows}.
 * @module
 */

import { growthExponent, median } from "./harness.ts";
import { BENCH_NOW, handoverDoc, parkedFile } from "./fixtures.ts";
import { gitText } from "../lib/sync/git.ts";
import { pull } from "../lib/sync/sync.ts";
import { push } from "../lib/sync/push.ts";
import { storeAt } from "../lib/store/store.ts";

const WHO = { user: "bench", host: "bench-host" };

/** A bare remote and two clones, the first with `docs` handovers and 100 parked items. */
async function world(base: string, docs: number): Promise<{ a: string; b: string }> {
  const root = await Deno.makeTempDir({ dir: base, prefix: `sync-${docs}-` });
  const remote = `${root}/remote.git`;
  const [a, b] = [`${root}/a`, `${root}/b`];
  const env = {
    GIT_AUTHOR_NAME: "Bench",
    GIT_AUTHOR_EMAIL: "bench@example.com",
    GIT_COMMITTER_NAME: "Bench",
    GIT_COMMITTER_EMAIL: "bench@example.com",
  };
  await gitText(root, ["init", "-q", "--bare", "-b", "main", remote]);
  await gitText(root, ["init", "-q", "-b", "main", a]);
  Deno.writeTextFileSync(`${a}/.gitignore`, ".claude/state/\n");
  await gitText(a, ["add", "-A"]);
  await gitText(a, ["commit", "-q", "-m", "init"], { env });
  await gitText(a, ["remote", "add", "origin", remote]);
  await gitText(a, ["push", "-q", "-u", "origin", "main"]);
  await gitText(root, ["clone", "-q", remote, b]);
  const store = storeAt(a).dir;
  Deno.mkdirSync(store, { recursive: true });
  const created = new Date(BENCH_NOW.getTime() - 3_600_000);
  for (let i = 0; i < docs; i++) {
    const slug = `handover-${String(i).padStart(5, "0")}`;
    Deno.writeTextFileSync(`${store}/${slug}.md`, handoverDoc(slug, created, false));
  }
  Deno.writeTextFileSync(`${store}/PARKED.md`, parkedFile(100, created));
  return { a, b };
}

/** Milliseconds of one first push of `docs` handovers and one first pull of them. */
async function once(base: string, docs: number): Promise<{ push: number; pull: number }> {
  const { a, b } = await world(base, docs);
  const opts = { now: BENCH_NOW, who: WHO };
  let t = performance.now();
  const pushed = await push(storeAt(a), opts);
  const pushMs = performance.now() - t;
  if (pushed.docsOut.length !== docs) {
    throw new Error(`push sent ${pushed.docsOut.length} of ${docs}`);
  }
  t = performance.now();
  const pulled = await pull(storeAt(b), opts);
  const pullMs = performance.now() - t;
  if (pulled.docsIn.length !== docs) {
    throw new Error(`pull brought ${pulled.docsIn.length} of ${docs}`);
  }
  return { push: pushMs, pull: pullMs };
}

/** Median push and pull milliseconds at `small` and `large` handovers, `runs` fresh worlds each. */
export async function benchSync(
  o: { base: string; small: number; large: number; runs: number },
): Promise<Record<"push" | "pull", { small: number; large: number }>> {
  const at = async (docs: number) => {
    const runs: { push: number; pull: number }[] = [];
    for (let i = 0; i < o.runs; i++) runs.push(await once(o.base, docs));
    return { push: median(runs.map((r) => r.push)), pull: median(runs.map((r) => r.pull)) };
  };
  const small = await at(o.small);
  const large = await at(o.large);
  return {
    push: { small: small.push, large: large.push },
    pull: { small: small.pull, large: large.pull },
  };
}

/** What `bench/run.ts`'s `row` takes (declared here: run.ts is a script, not a module to import). */
type Row = (
  name: string,
  size: string,
  unit: "ms" | "exp",
  goal: number | undefined,
  measure: () => Promise<number | undefined>,
) => Promise<void>;

/**
 * The sync rows of `bench/run.ts`: push and pull times at both sizes (for reference: absolute, on
 * a shared machine) and their growth exponents (linear: ≤ n^1.1). Measured once, on the first row
 * that is wanted.
 */
export async function syncRows(row: Row, o: { base: string; full: boolean; runs: number }) {
  const small = o.full ? 1_000 : 200;
  const large = o.full ? 10_000 : 2_000;
  let result: ReturnType<typeof benchSync> | undefined;
  const measured = () => result ??= benchSync({ base: o.base, small, large, runs: o.runs });
  const n = (x: number) => x.toLocaleString("en-US");
  for (const mode of ["push", "pull"] as const) {
    for (const [size, key] of [[small, "small"], [large, "large"]] as const) {
      await row(
        `sync: ${mode}`,
        `${n(size)} handovers`,
        "ms",
        undefined,
        async () => (await measured())[mode][key],
      );
    }
    await row(
      `sync: ${mode} growth`,
      `${n(small)} → ${n(large)} handovers`,
      "exp",
      1.1,
      async () => {
        const r = (await measured())[mode];
        return growthExponent({ n: small, ms: r.small }, { n: large, ms: r.large });
      },
    );
  }
}

if (import.meta.main) {
  const arg = (flag: string, d: number) => {
    const i = Deno.args.indexOf(flag);
    return i >= 0 ? Number(Deno.args[i + 1]) : d;
  };
  const base = Deno.makeTempDirSync({ prefix: "session-bench-sync-" });
  try {
    const o = {
      base,
      small: arg("--small", 1_000),
      large: arg("--large", 10_000),
      runs: arg("--runs", 1),
    };
    const r = await benchSync(o);
    for (const mode of ["push", "pull"] as const) {
      const { small, large } = r[mode];
      const k = growthExponent({ n: o.small, ms: small }, { n: o.large, ms: large });
      console.log(
        `${mode}: ${o.small} handovers ${small.toFixed(0)} ms, ${o.large} ${
          large.toFixed(0)
        } ms, ` +
          `growth n^${k.toFixed(2)}`,
      );
    }
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
}
