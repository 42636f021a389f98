/**
 * `deno task bench`: one table of ratios, each measured side by side in the same run against its
 * floor (see bench/harness.ts). Never an absolute time as a result.
 *
 *   deno task bench            CI sizes, the default (about a minute on a busy 2-core machine);
 *                              --quick says so explicitly
 *   deno task bench --full     the full sizes (also: SESSION_BENCH_FULL=1)
 *   deno task bench --runs N   rounds per row (default 15 CI, 31 full)
 *   deno task bench --only hook,list   only rows whose name starts with one of these
 *
 * A missed goal is reported (✗), not fatal: the exit code is non-zero only when a row errors.
 * @module
 */

import { compare, growthExponent, type Proc, takeBest, timeFn, timeOnce } from "./harness.ts";
import { BENCH_NOW, handoverDoc, makeProject } from "./fixtures.ts";
import { MODES } from "../lib/cli/main.ts";
import type { Context } from "../lib/cli/run_context.ts";
import { CLI_FLAGS, hookFlags, LAUNCHER, projectFile } from "../lib/agents/command.ts";
import { isoStamp } from "../lib/store/time.ts";

/** One line of the table. */
export interface Row {
  name: string;
  size: string;
  /** The measured figure, or undefined when the mode is not built. */
  value?: number;
  /** For ratios: best run over best run (harness.ts `takeBest`), when measured by `compare`. */
  best?: number;
  /** What the figure is: a ratio to the floor, or a growth exponent. */
  unit: "×" | "exp" | "MB" | "ms";
  /** The goal; undefined for a reference row, which shows what a goal is measured against. */
  goal?: number;
  note?: string;
}

const args = new Set(Deno.args);
const argValue = (flag: string) => {
  const i = Deno.args.indexOf(flag);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
const FULL = !args.has("--quick") &&
  (args.has("--full") || Deno.env.get("SESSION_BENCH_FULL") === "1");
const RUNS = Number(argValue("--runs") ?? (FULL ? 31 : 15));
const ONLY = argValue("--only")?.split(",");
const OPTS = { runs: RUNS, warmup: 3 };
const DENO = Deno.execPath();
const NOW_ENV = { SESSION_NOW: isoStamp(BENCH_NOW), NO_COLOR: "1" };

const base = Deno.makeTempDirSync({ prefix: "session-bench-" });
const empty = `${base}/empty.ts`;
Deno.writeTextFileSync(empty, "");

const rows: Row[] = [];
let errors = 0;

function wanted(name: string): boolean {
  return !ONLY || ONLY.some((o) => name.startsWith(o));
}

async function row(
  name: string,
  size: string,
  unit: Row["unit"],
  goal: number | undefined,
  measure: () => Promise<number | undefined>,
): Promise<void> {
  if (!wanted(name)) return;
  const r: Row = { name, size, unit, goal };
  try {
    takeBest();
    r.value = await measure();
    if (r.value === undefined) r.note = "n/a (not built)";
    else if (unit === "×") r.best = takeBest();
  } catch (err) {
    errors++;
    r.note = `error: ${err instanceof Error ? err.message : err}`.slice(0, 160);
  }
  rows.push(r);
  console.error(`  ${name} ${size}: ${r.value?.toFixed(2) ?? r.note}`);
}

function expectExit(code: number) {
  return (r: { code: number; stderr: string }) => {
    if (r.code !== code) throw new Error(`exit ${r.code} (wanted ${code}): ${r.stderr.trim()}`);
  };
}

// ---------------------------------------------------------------- the hook

/**
 * Runs a hook row's subject once, untimed, with SESSION_DEBUG=1 (its stderr costs start-up time,
 * so the timed runs go without) and checks that it takes the path its row names: what it says on
 * stderr must be exactly `stderr`.
 */
async function takesPath(p: Proc, stderr: string): Promise<void> {
  await timeOnce({
    ...p,
    env: { ...p.env, SESSION_DEBUG: "1" },
    check: (r) => {
      p.check?.({ ...r, stderr: "" });
      if (r.stderr !== stderr) {
        throw new Error(`not the path this row names: stderr ${JSON.stringify(r.stderr)}`);
      }
    },
  });
}

async function hookRows(): Promise<void> {
  const p = makeProject(base, 0, 0);
  const flags = hookFlags({ root: p.root }, projectFile("lib"));
  const payload = JSON.stringify({
    session_id: "bench",
    transcript_path: `${p.root}/t.jsonl`,
    cwd: p.root,
    hook_event_name: "SessionStart",
    source: "clear",
  });
  const floor: Proc = {
    cmd: DENO,
    args: ["run", ...flags, empty],
    cwd: p.root,
    stdin: payload,
    env: NOW_ENV,
  };
  // A hook run is ~20 ms: many more rounds cost little and steady the medians.
  const opts = { runs: Math.max(RUNS * 4, 61), warmup: 5 };
  const hook = projectFile("session_restore.ts");
  const silent: Proc = {
    cmd: DENO,
    args: ["run", ...flags, hook],
    cwd: p.root,
    stdin: payload,
    env: NOW_ENV,
    check: (r) => {
      // A crash is silent on stdout too, but says so on stderr.
      if (r.stdout !== "" || r.stderr !== "") {
        throw new Error(`the no-pointer path printed: ${r.stdout}${r.stderr}`);
      }
    },
  };
  await row("hook: no pointer", "-", "×", 1.4, async () => {
    await takesPath(silent, "session_restore: no LATEST pointer\n");
    return compare(floor, silent, opts);
  });
  // The launcher every registration starts Deno through (bin/with-deno): one `sh` more, which
  // finds Deno on PATH and reads its cached version check; no other process.
  const launched: Proc = {
    ...floor,
    cmd: "sh",
    args: [projectFile(LAUNCHER), "--event", "SessionStart", ...floor.args],
  };
  await row("hook: launcher, empty script", "-", "×", undefined, () => {
    return compare(floor, launched, opts);
  });
  const slug = "bench-inject";
  const doc = handoverDoc(slug, new Date(BENCH_NOW.getTime() - 60_000), false);
  /** A run of `script` that injects the handover its setup puts back before each start. */
  const injecting = (script: string): Proc => ({
    cmd: DENO,
    args: ["run", ...flags, script],
    cwd: p.root,
    stdin: payload,
    env: NOW_ENV,
    setup: () => {
      Deno.writeTextFileSync(`${p.store}/${slug}.md`, doc);
      Deno.writeTextFileSync(`${p.store}/LATEST`, slug + "\n");
      // A real `/clear` starts a new session, whose marker (LATEST renamed to
      // `.restored-<session id>`) cannot exist yet; this payload's id is the same every round.
      // Replacing a file costs more than creating one (ext4 writes the renamed file's data first).
      try {
        Deno.removeSync(`${p.store}/.restored-bench`);
      } catch { /* the first round */ }
    },
    check: (r) => {
      if (!r.stdout.includes("additionalContext")) {
        throw new Error(`${script} did not inject: ${r.stderr.trim()}`);
      }
    },
  });
  await row("hook: inject", "-", "×", 1.7, async () => {
    await takesPath(injecting(hook), `session_restore: injected "${slug}"\n`);
    return compare(floor, injecting(hook), opts);
  });
  // What the inject path cannot avoid, without the hook's code: the least any hook could measure.
  await row(
    "hook: inject, required work only",
    "-",
    "×",
    undefined,
    () => compare(floor, injecting(projectFile("bench/hook_work.ts")), opts),
  );
}

// ---------------------------------------------------------------- SessionEnd

async function sessionEndRows(): Promise<void> {
  const names = [
    "session end: dumped, nothing after",
    "session end: did nothing",
    "session end: draft",
  ];
  if (!names.some(wanted)) return;
  const { endProject } = await import("./session_end.ts");
  const e = await endProject(base, BENCH_NOW);
  const opts = { runs: Math.max(RUNS * 4, 61), warmup: 5 };
  const floorFor = (transcript: string): Proc => ({
    cmd: DENO,
    args: ["run", ...e.flags, empty],
    cwd: e.root,
    stdin: e.payload(transcript),
    env: NOW_ENV,
  });
  const hook = projectFile("session_restore.ts");
  const ending = (transcript: string, setup?: () => void): Proc => ({
    cmd: DENO,
    args: ["run", ...e.flags, hook],
    cwd: e.root,
    stdin: e.payload(transcript),
    env: NOW_ENV,
    setup,
    check: (r) => {
      if (r.code !== 0 || r.stdout !== "" || r.stderr !== "") {
        throw new Error(`SessionEnd printed: ${r.stdout}${r.stderr}`);
      }
    },
  });
  // The session dumped (a document with its `session:`) and stopped.
  await row("session end: dumped, nothing after", "-", "×", 1.5, async () => {
    e.dumped();
    await takesPath(
      ending(e.small),
      `session_restore: the session dumped "bench-dump" and did no work after\n`,
    );
    return compare(floorFor(e.small), ending(e.small), opts);
  });
  // A session that said hello and nothing else: no draft.
  await row("session end: did nothing", "-", "×", 1.5, async () => {
    e.reset();
    await takesPath(
      ending(e.empty),
      "session_restore: nothing worth carrying (no request, no file touched, no unfinished task)\n",
    );
    return compare(floorFor(e.empty), ending(e.empty), opts);
  });
  // Drafting from a 10 MB transcript, against the floor plus a bare line-by-line JSON.parse of it.
  let wall: number[] = [];
  await row("session end: draft", `${e.mb} MB`, "×", 1.5, async () => {
    const floor: Proc = {
      ...floorFor(e.big),
      args: ["run", ...e.flags, projectFile("bench/parse_floor.ts"), e.big],
    };
    const subject = ending(e.big, () => e.reset());
    const timed: Proc = {
      ...subject,
      check: (r) => {
        subject.check!(r);
        if (!e.drafted()) throw new Error("no draft was written");
      },
    };
    // A 10 MB parse takes ~100 ms and its time is bimodal here (a garbage collection more or
    // less): a few rounds let floor and subject land on different modes. At least 31 (~10 s):
    // with 15, two consecutive runs read this row 1.20× and 1.41× (docs/PERFORMANCE.md).
    const ratio = await compare(floor, timed, { runs: Math.max(31, RUNS), warmup: 2 });
    wall = [];
    for (let i = 0; i < 5; i++) wall.push(await timeOnce(subject));
    return ratio;
  });
  await row("session end: draft wall time", `${e.mb} MB`, "ms", 1500, () => {
    const sorted = [...wall].sort((a, b) => a - b);
    return Promise.resolve(sorted.length ? sorted[sorted.length >> 1] : undefined);
  });
}

// ---------------------------------------------------------------- list / park / drop / recall

const QUICK_MODES: { mode: string; name?: string; args: (i: number) => string[]; code: number }[] =
  [
    { mode: "list", args: () => ["list"], code: 0 },
    { mode: "list", name: "list --tree", args: () => ["list", "--tree"], code: 0 },
    { mode: "park", args: (i) => ["park", `bench parked thing ${i}`, "--why", "bench"], code: 0 },
    // Each round drops a different, exactly named item, so every run does a real drop.
    { mode: "drop", args: (i) => ["drop", `item-${String(i).padStart(5, "0")}`], code: 0 },
    { mode: "recall", args: () => ["recall", "handover-00007"], code: 0 },
  ];

/** A mode's in-process context in `root`, at the bench's pinned time, its output discarded. */
function quietContext(root: string): Context {
  return {
    cwd: root,
    env: (k) => k === "CLAUDE_PROJECT_DIR" ? undefined : Deno.env.get(k),
    now: BENCH_NOW,
    readStdin: () => Promise.resolve(""),
    out: () => {},
    err: () => {},
  };
}

function built(mode: string): boolean {
  return Object.hasOwn(MODES, mode);
}

async function cliRows(): Promise<void> {
  const docs = 1_000;
  const items = 10_000;
  const p = makeProject(base, docs, items);
  const cli = projectFile("session.ts");
  const floor: Proc = { cmd: DENO, args: ["run", ...CLI_FLAGS, empty], cwd: p.root, env: NOW_ENV };
  for (const q of QUICK_MODES) {
    let i = 0;
    await row(q.name ?? q.mode, `${docs} docs, ${items} parked`, "×", 3, async () => {
      if (!built(q.mode)) return undefined;
      return await compare(floor, {
        cmd: DENO,
        get args() {
          return ["run", ...CLI_FLAGS, cli, ...q.args(i++)];
        },
        cwd: p.root,
        env: NOW_ENV,
        check: expectExit(q.code),
      }, OPTS);
    });
  }
  // Growth: the mode's own work in-process (no runtime start to drown it), 100 → 10,000 items.
  for (const q of QUICK_MODES) {
    await row(`${q.name ?? q.mode} growth`, "100 → 10,000 items", "exp", 1.1, async () => {
      if (!built(q.mode)) return undefined;
      const run = await MODES[q.mode].run();
      const cost = async (n: number) => {
        const proj = makeProject(base, Math.max(10, n / 10), n);
        let i = 0;
        const ctx = quietContext(proj.root);
        return await timeFn(async () => {
          const code = await run(q.args(i++).slice(1), ctx);
          if (code !== q.code) throw new Error(`${q.mode} exited ${code}`);
        }, { runs: Math.max(5, Math.floor(RUNS / 2)), warmup: 2 });
      };
      const small = await cost(100);
      const large = await cost(10_000);
      return growthExponent({ n: 100, ms: small }, { n: 10_000, ms: large });
    });
  }
}

// ---------------------------------------------------------------- search

/** What the search rows ask: one exact word and one misspelt, held by every fixture handover. */
const SEARCH_ARGS = ["search", "lock", "synchronus"];

/**
 * `search` over 1,000 and 10,000 handovers (and 1,000 / 10,000 parked items): the mode's own work
 * in-process, and how it grows (goal: at most linear). No floor: nothing else reads every document.
 */
async function searchRows(): Promise<void> {
  const ms = new Map<number, number>();
  for (const docs of [1_000, 10_000]) {
    await row("search", `${docs.toLocaleString("en-US")} docs`, "ms", undefined, async () => {
      if (!built("search")) return undefined;
      const run = await MODES.search.run();
      const ctx = quietContext(makeProject(base, docs, docs).root);
      const t = await timeFn(async () => {
        const code = await run(SEARCH_ARGS.slice(1), ctx);
        if (code !== 0) throw new Error(`search exited ${code}`);
      }, { runs: docs > 1_000 ? 3 : Math.max(5, Math.floor(RUNS / 3)), warmup: 1 });
      ms.set(docs, t);
      return t;
    });
  }
  await row("search growth", "1,000 → 10,000 docs", "exp", 1.1, () => {
    const small = ms.get(1_000);
    const large = ms.get(10_000);
    return Promise.resolve(
      small === undefined || large === undefined
        ? undefined
        : growthExponent({ n: 1_000, ms: small }, { n: 10_000, ms: large }),
    );
  });
}

// ---------------------------------------------------------------- evidence / dump, transcript

/** Runs git in `cwd` with a pinned identity and dates; throws on failure. */
async function git(cwd: string, args: string[], stdin?: string): Promise<string> {
  const stamp = isoStamp(new Date(BENCH_NOW.getTime() - 3_600_000));
  const child = new Deno.Command("git", {
    args: ["-c", "user.name=Bench", "-c", "user.email=bench@example.com", ...args],
    cwd,
    env: { GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp },
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  if (!out.success) throw new Error(`git ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/** A repository with `files` tracked files (in 100 directories), a tenth of them changed. */
async function makeRepo(files: number): Promise<string> {
  const root = `${base}/repo-${files}`;
  Deno.mkdirSync(root);
  await git(root, ["init", "-q", "-b", "main"]);
  for (let i = 0; i < files; i++) {
    const dir = `${root}/src/d${i % 100}`;
    if (i < 100) Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(`${dir}/f${i}.ts`, `export const v${i} = ${i};\n`.repeat(20));
  }
  await git(root, ["add", "-A"]);
  await git(root, ["commit", "-q", "-m", "initial"]);
  for (let i = 0; i < files; i += 10) {
    Deno.writeTextFileSync(`${root}/src/d${i % 100}/f${i}.ts`, `export const v${i} = -1;\n`);
  }
  return root;
}

/**
 * A PATH directory whose `git` records every call to `log` (NUL-separated: argument count, cwd,
 * arguments), then runs the real git.
 */
function gitRecorder(log: string): string {
  const bin = `${base}/bin`;
  Deno.mkdirSync(bin, { recursive: true });
  const real = new TextDecoder().decode(
    new Deno.Command("sh", { args: ["-c", "command -v git"], stdout: "piped" }).outputSync()
      .stdout,
  ).trim();
  Deno.writeTextFileSync(
    `${bin}/git`,
    `#!/bin/sh\nprintf '%s\\0' "$#" "$PWD" "$@" >> '${log}'\nexec '${real}' "$@"\n`,
    { mode: 0o755 },
  );
  return bin;
}

const DUMP_INPUT = [
  "## Goal",
  "",
  "Measure dump against the git commands it needs.",
  "",
  "## Next step",
  "",
  "Read the table.",
  "",
].join("\n");

async function gitRows(): Promise<void> {
  const files = FULL ? 20_000 : 2_000;
  const size = `${files} files, ${files / 10} changed`;
  if (!wanted("evidence") && !wanted("dump")) return;
  const root = await makeRepo(files);
  const cli = projectFile("session.ts");
  const env = { ...NOW_ENV, HOME: `${base}/home` };
  for (const mode of ["evidence", "dump"]) {
    await row(mode, size, "×", 1.2, async () => {
      if (!built(mode)) return undefined;
      const args = [
        "run",
        ...CLI_FLAGS,
        cli,
        mode,
        ...(mode === "dump" ? ["bench", "--force"] : []),
      ];
      const stdin = mode === "dump" ? DUMP_INPUT : undefined;
      // Record the git calls of one run, then time the mode against replaying just those.
      const log = `${base}/git-${mode}.log`;
      const bin = gitRecorder(log);
      await timeOnce({
        cmd: DENO,
        args,
        cwd: root,
        stdin,
        env: { ...env, PATH: `${bin}:${Deno.env.get("PATH")}` },
        check: expectExit(0),
      });
      const floor: Proc = {
        cmd: DENO,
        args: ["run", ...CLI_FLAGS, projectFile("bench/git_floor.ts"), log],
        cwd: root,
        env,
        check: expectExit(0),
      };
      return await compare(
        floor,
        { cmd: DENO, args, cwd: root, stdin, env, check: expectExit(0) },
        {
          runs: Math.max(5, Math.floor(RUNS / 2)),
          warmup: 2,
        },
      );
    });
  }
}

async function transcriptRows(): Promise<void> {
  const mb = FULL ? 100 : 10;
  if (!wanted("transcript")) return;
  // The side-by-side transcript bench (bench/transcript.ts): readTranscript against a
  // bare line-by-line JSON.parse loop over the same generated file, plus peak RSS growth.
  const { benchTranscript } = await import("./transcript.ts");
  let result: Awaited<ReturnType<typeof benchTranscript>> | undefined;
  await row("transcript parse", `${mb} MB`, "×", 1.5, async () => {
    result = await benchTranscript({ mb, runs: Math.max(3, Math.floor(RUNS / 3)) });
    return result.ratio;
  });
  // Measured in a fresh process with a 32 MB V8 heap cap: a parser whose memory grew with the
  // file would run out (NaN, shown as an error). RSS plateaus near 62 MB from 100 MB up (10 MB:
  // ~28, 300 MB: ~62), the runtime and the capped heap, so the goal is 64 MB at any size.
  await row("transcript peak RSS growth", `${mb} MB`, "MB", 64, () => {
    const v = result?.peakRssMb;
    if (v !== undefined && Number.isNaN(v)) throw new Error("ran out of a 32 MB heap");
    return Promise.resolve(v);
  });
}

// ---------------------------------------------------------------- table

function verdict(r: Row): string {
  if (r.value === undefined || r.goal === undefined) return "";
  return Math.round(r.value * 100) / 100 <= r.goal ? "✓" : "✗"; // as printed
}

function table(): string {
  const lines = [
    "| row | size | measured | best-of | goal | |",
    "| --- | --- | ---: | ---: | ---: | --- |",
  ];
  for (const r of rows) {
    const v = r.value === undefined
      ? r.note ?? ""
      : r.unit === "×"
      ? `${r.value.toFixed(2)}×`
      : r.unit === "MB"
      ? `${r.value.toFixed(1)} MB`
      : r.unit === "ms"
      ? `${r.value.toFixed(0)} ms`
      : `n^${r.value.toFixed(2)}`;
    const g = r.goal === undefined
      ? "reference"
      : r.unit === "×"
      ? `≤ ${r.goal}×`
      : r.unit === "MB"
      ? `≤ ${r.goal} MB`
      : r.unit === "ms"
      ? `≤ ${r.goal} ms`
      : `≤ n^${r.goal.toFixed(1)}`;
    const best = r.best === undefined ? "" : `${r.best.toFixed(2)}×`;
    lines.push(`| ${r.name} | ${r.size} | ${v} | ${best} | ${g} | ${verdict(r)} |`);
  }
  return lines.join("\n");
}

try {
  console.error(`session bench: ${FULL ? "full" : "CI"} sizes, ${RUNS} rounds per row`);
  await hookRows();
  await sessionEndRows();
  const pressure = ["prompt hook: nothing to say", "prompt hook: big transcript", "statusline"];
  if (pressure.some(wanted)) {
    await (await import("./pressure.ts")).pressureRows(row, {
      base,
      empty,
      mb: FULL ? 200 : 20,
      runs: RUNS,
      env: NOW_ENV,
    });
  }
  await cliRows();
  if (wanted("mcp")) {
    await (await import("./mcp.ts")).mcpRows(row, { base, empty, runs: RUNS, env: NOW_ENV });
  }
  await searchRows();
  await gitRows();
  await transcriptRows();
  await (await import("./sync.ts")).syncRows(row, { base, full: FULL, runs: FULL ? 3 : 2 });
} finally {
  if (!Deno.env.get("SESSION_BENCH_KEEP")) Deno.removeSync(base, { recursive: true });
}
/** The machine's load average, when the OS tells (ratios inflate on an oversubscribed machine). */
function loadAverage(): string {
  try {
    return `, load average ${
      Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ")
    }`;
  } catch {
    return "";
  }
}

console.log(table());
console.log(
  `\n${FULL ? "full" : "CI"} sizes, ${RUNS} interleaved rounds per row, medians; ` +
    `deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cpus${loadAverage()}.`,
);
if (wanted("secrets")) await import("./secrets.ts");
if (wanted("eval")) {
  // The evaluation set's score: reported, like every figure here; tests/eval/eval_test.ts fails on a miss.
  const { runAll, scoreLine } = await import("../tests/eval/run.ts");
  console.log(
    `\neval: ${
      scoreLine(await runAll())
    } (tests/eval/labels/: drafts and cards against hand-written labels)`,
  );
}
if (errors) {
  console.error(`session bench: ${errors} row(s) failed to run`);
  Deno.exit(1);
}
