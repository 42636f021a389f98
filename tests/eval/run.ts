/**
 * The evaluation set, run: each label's transcript (or the first `lines` of it) read as SessionEnd
 * and `recover` read one, its draft (lib/handover/recover.ts) and its compaction card
 * (lib/continuity/card.ts) made, and the label's points checked (./score.ts). Used by
 * tests/eval/eval_test.ts and by `deno task bench`, which prints the score.
 * @module
 */

import { posix } from "node:path";
import { recoverMarkdown } from "../../lib/handover/recover.ts";
import { transcriptSections } from "../../lib/continuity/material.ts";
import { buildCard } from "../../lib/continuity/card.ts";
import { BUDGETS } from "../../lib/frame/budget.ts";
import { readAnyTranscript } from "../../lib/transcript/read.ts";
import { exists, isDir } from "../../lib/fs/path.ts";
import { type Label, labelProblems, misses } from "./score.ts";

const PROJECT = decodeURIComponent(new URL("../../", import.meta.url).pathname);
/** The real corpus beside the project (not part of this repository). */
export const CORPUS = posix.resolve(PROJECT, "../shared/corpus/claude-code-log/projects");
const FIXTURES = posix.resolve(PROJECT, "tests/fixtures");
const LABELS = posix.resolve(PROJECT, "tests/eval/labels");

/** One label's outcome. */
export interface Result {
  name: string;
  label: Label;
  /** The points missed (empty: met), or why the label could not be run. */
  missed: string[];
  /** The corpus is absent: the label was not run. */
  skipped?: boolean;
}

/** The labels' file names, sorted. */
export function labelNames(): string[] {
  return [...Deno.readDirSync(LABELS)].filter((e) => e.isFile && e.name.endsWith(".json"))
    .map((e) => e.name).sort();
}

/** The transcript a label names, as a path. */
function transcriptPath(ref: string): string {
  const [kind, rest] = [ref.slice(0, ref.indexOf(":")), ref.slice(ref.indexOf(":") + 1)];
  return kind === "corpus" ? posix.join(CORPUS, rest) : posix.join(FIXTURES, rest);
}

/** The draft and the card of a label's session. */
async function outputs(path: string, lines: number | undefined, scratch: string) {
  let read = path;
  if (lines !== undefined) {
    const text = await Deno.readTextFile(path);
    read = posix.join(scratch, posix.basename(path));
    await Deno.writeTextFile(read, text.split("\n").slice(0, lines).join("\n") + "\n");
  }
  const first = await readAnyTranscript(read, { root: "/" });
  const facts = first.cwd ? await readAnyTranscript(read, { root: first.cwd }) : first;
  const draft = recoverMarkdown(facts);
  const card = buildCard(
    { sections: transcriptSections(facts) },
    undefined,
    undefined,
    BUDGETS.claude,
  );
  return { draft, card };
}

/** Runs one label. */
export async function runLabel(name: string): Promise<Result> {
  const raw = JSON.parse(await Deno.readTextFile(posix.join(LABELS, name)));
  const problems = labelProblems(raw);
  const label = raw as Label;
  if (problems.length) return { name, label, missed: problems.map((p) => `label: ${p}`) };
  const path = transcriptPath(label.transcript);
  if (label.transcript.startsWith("corpus:") && !isDir(CORPUS)) {
    return { name, label, missed: [], skipped: true };
  }
  if (!exists(path)) return { name, label, missed: [`no such transcript: ${path}`] };
  const scratch = await Deno.makeTempDir({ prefix: "session-eval-" });
  try {
    return { name, label, missed: misses(label, await outputs(path, label.lines, scratch)) };
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

/** Runs every label. */
export async function runAll(): Promise<Result[]> {
  const out: Result[] = [];
  for (const name of labelNames()) out.push(await runLabel(name));
  return out;
}

/** `N/M labels met` (skipped ones not counted), for the bench's table. */
export function scoreLine(results: Result[]): string {
  const ran = results.filter((r) => !r.skipped);
  const met = ran.filter((r) => r.missed.length === 0).length;
  const skipped = results.length - ran.length;
  return `${met}/${ran.length} labels met${skipped ? ` (${skipped} skipped: no corpus)` : ""}`;
}

if (import.meta.main) {
  const results = await runAll();
  for (const r of results) {
    if (r.missed.length) console.log(`✗ ${r.name} (${r.label.state}):\n  ${r.missed.join("\n  ")}`);
  }
  console.log(scoreLine(results));
}
