/**
 * `dump [name] [--force]`: writes the handover from the agent's sections on stdin and the
 * evidence (lib/handover/write.ts), then LATEST; prints the path, the counts, the size, the
 * `## Confidence` block its points make (lib/handover/checks.ts holds the rules), the next step and
 * `/clear`. The agent's text is redacted here, the evidence as it is collected
 * (lib/handover/evidence/collect.ts): no credential reaches the handover, and stderr says how many
 * of which kinds were taken out.
 * @module
 */

import { EXIT, UsageError } from "../errors.ts";
import {
  CAP,
  capTokens,
  countItems,
  findSection,
  largestSections,
  listItems,
  measure,
  orderSections,
  overage,
  parseSections,
  type Section,
  type Size,
} from "../handover/document.ts";
import { type Backing, backing, concreteMention, hasWhy, kindName } from "../handover/checks.ts";
import { codeSpan, fileKey } from "../handover/files_table.ts";
import { sweptAt, UNLANDED_REL } from "../handover/unlanded.ts";
import { join } from "../fs/path.ts";
import { formatAgo, spanWords, WINDOW_MS } from "../store/time.ts";
import { count, type Point, point, renderConfidence } from "./confidence.ts";
import { collectRedacted } from "../handover/evidence/collect.ts";
import { type Dumped, writeHandover } from "../handover/write.ts";
import { splitFrontMatter } from "../store/front_matter.ts";
import { refusal } from "../store/slug.ts";
import { redactionNoteLazily, redactLazily } from "../secrets/lazy.ts";
import { modeSpec, parseOrHelp } from "./args.ts";
import { agentSession, type Context, inWritableStore } from "./run_context.ts";
import { restoredSlug } from "../store/latest.ts";
import { evidenceOptions, SESSION_FLAG, SINCE_FLAG, TRANSCRIPT_FLAG } from "./flags.ts";

/** Arguments and help of `dump`. */
export const SPEC = modeSpec({
  mode: "dump",
  usage:
    "dump [name] [--force] [--since SPEC] [--transcript PATH] [--session ID] [--dir DIR] < sections.md",
  summary:
    "Writes a handover from the agent's sections (markdown on stdin) and points LATEST at it.",
  flags: {
    force: {
      type: "boolean",
      help: "overwrite an existing handover of that name (else -2, -3, …)",
    },
    since: SINCE_FLAG,
    transcript: TRANSCRIPT_FLAG,
    session: SESSION_FLAG,
  },
  maxPositionals: 1,
  notes: [
    "Sections: ## Goal, ## Decisions, ## Lessons / corrections, ## Standing instructions,",
    "## Files touched, ## Outstanding, ## Artifacts, ## Next step, ## Dropped deliberately",
    "(a default line when you give none). The files table is filled from git where you give",
    "none; open parked items are copied into ## Outstanding. The output ends with a",
    "## Confidence block: fix each ⚠ and rerun once with --force (docs/CLI.md).",
    "Example: session.ts dump auth-refactor < handover.md",
  ],
});

/** The agent's markdown from stdin: refused when empty or binary; a pasted front matter dropped. */
export function agentMarkdown(stdin: string): string {
  const text = stdin.replace(/^\uFEFF/, "");
  const body = splitFrontMatter(text)?.body ?? text;
  if (body.trim() === "") {
    throw new UsageError(
      "nothing on stdin. Pipe the handover's sections, e.g. " +
        `"printf '## Goal\\n\\n…\\n' | session.ts dump". Nothing was written`,
    );
  }
  return body;
}

/** Runs `dump`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const name = a.positionals[0];
  const why = name === undefined ? undefined : refusal(name);
  if (why) throw new UsageError(`${why}. Nothing was written`);
  const body = await redactLazily(agentMarkdown(await ctx.readStdin()));
  const options = evidenceOptions(ctx, {
    since: a.flags.since,
    dir: a.dir,
    transcript: a.flags.transcript,
    session: a.flags.session,
  });
  const { evidence: ev, redacted } = await collectRedacted(options);
  // Which session this is, so its SessionEnd knows it dumped (lib/continuity/session_end.ts), and
  // the handover it started from, which this one continues (`parent:`).
  const session = agentSession(ctx);
  const parent = restoredSlug(options.store, session);
  const dumped = await inWritableStore(
    ctx,
    "dump",
    options.store,
    (s) =>
      writeHandover(body.text, { ...ev, store: s.dir }, {
        store: s,
        now: ctx.now,
        name,
        force: a.flags.force === true,
        session,
        parent,
      }),
  );
  const note = await redactionNoteLazily(body.counts, redacted);
  if (note) ctx.err(note);
  const agentFiles = findSection(orderSections(parseSections(body.text)), "Files touched");
  report(
    dumped,
    dumpPoints({
      backing: backing(agentFiles, ev.files),
      rows: dumped.files,
      transcript: ev.transcript !== undefined,
      sections: dumped.sections,
      size: measure(dumped.text),
      since: ev.since,
      swept: sweptAt(readText(join(ev.root, UNLANDED_REL)) ?? ""),
      now: ctx.now,
    }),
    ctx,
  );
  return EXIT.ok;
}

/** A file's text, or undefined when it cannot be read. */
function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** What a dump did, as its points are computed from it. */
export interface DumpFacts {
  /** The agent's files table against the evidence. */
  backing: Backing;
  /** Rows in the written files table (grouped files counted). */
  rows: number;
  /** Whether a transcript was merged into the evidence. */
  transcript: boolean;
  /** The written document's sections. */
  sections: Section[];
  size: Size;
  /** When the session started (ISO 8601): a sweep before it is not this session's. */
  since: string;
  /** When sweep last wrote its table (its stamp), if it did. */
  swept?: string;
  now: Date;
}

/** A few file names for a point's fact: the first three, then how many more. */
function someOf(files: string[]): string {
  const shown = files.slice(0, 3).map((f) => codeSpan(fileKey(f)));
  return files.length > 3 ? `${shown.join(", ")} and ${files.length - 3} more` : shown.join(", ");
}

/** A decision's first words, quoted, for a point's fact. */
function firstWords(item: string): string {
  const text = item.replace(/^ ?(?:[-*+]|\d+[.)])[ \t]+/, "").split("\n")[0];
  return `"${text.length > 40 ? `${text.slice(0, 39).trimEnd()}…` : text}"`;
}

/**
 * The points of a dump (pure): the files table backed by evidence, every decision with its why,
 * sweep run this session, the next step concrete, the size within the cap. The rules of "backed"
 * and "concrete" are lib/handover/checks.ts; a weak point says how to fix it.
 */
export function dumpPoints(f: DumpFacts): Point[] {
  return [filesPoint(f), decisionsPoint(f), sweepPoint(f), nextStepPoint(f), sizePoint(f)];
}

/** The files table against the evidence: every row backed, no changed file left out. */
function filesPoint(f: DumpFacts): Point {
  const b = f.backing;
  const from = f.transcript
    ? `${b.inTranscript} in the transcript, ${b.gitOnly} from git only`
    : `${b.gitOnly} from git (no transcript read)`;
  const given = b.agentRows ? `, ${b.agentRows} given by you` : "";
  const weakFiles = [
    b.unbacked.length
      ? `${b.unbacked.length} you gave that no evidence shows: ${someOf(b.unbacked)}`
      : "",
    b.omitted.length
      ? `${b.omitted.length} the evidence shows that your table left out (added from it): ${
        someOf(b.omitted)
      }`
      : "",
  ].filter(Boolean);
  return weakFiles.length
    ? point(
      "files",
      false,
      `${count(f.rows, "row")}; ${weakFiles.join("; ")}`,
      [
        b.unbacked.length ? "remove or correct the rows no evidence shows" : "",
        b.omitted.length ? "give the left-out files their rows" : "",
      ].filter(Boolean).join("; "),
    )
    : point(
      "files",
      true,
      f.rows ? `${count(f.rows, "row")}, ${from}${given}` : "no files changed",
    );
}

/** Every decision with its why. */
function decisionsPoint(f: DumpFacts): Point {
  const items = listItems(findSection(f.sections, "Decisions"));
  const bare = items.filter((i) => !hasWhy(i));
  return point(
    "decisions",
    bare.length === 0,
    items.length === 0
      ? "none given"
      : bare.length
      ? `${items.length}, ${bare.length} without a why: ${
        bare.slice(0, 2).map(firstWords).join(", ")
      }`
      : `${items.length}, each with its why`,
    'add "— why: <reason>" to each',
  );
}

/** Sweep run in this session, before the dump. */
function sweepPoint(f: DumpFacts): Point {
  const sweptMs = f.swept === undefined ? NaN : Date.parse(f.swept);
  return Number.isNaN(sweptMs)
    ? point("sweep", false, `not run (no ${UNLANDED_REL})`, SWEEP_FIX)
    : sweptMs < Date.parse(f.since)
    ? point(
      "sweep",
      false,
      `last run ${formatAgo(f.now.getTime() - sweptMs)}, before this session`,
      SWEEP_FIX,
    )
    : point("sweep", true, `run ${formatAgo(f.now.getTime() - sweptMs)}, before this dump`);
}

/** A next step that names something concrete to start from (lib/handover/checks.ts). */
function nextStepPoint(f: DumpFacts): Point {
  const next = findSection(f.sections, "Next step");
  const named = next === undefined ? undefined : concreteMention(next);
  return next === undefined
    ? point("next step", false, "missing", "add ## Next step: the one next action")
    : named
    ? point("next step", true, `names ${codeSpan(named.what)} (${kindName(named.kind)})`)
    : point(
      "next step",
      false,
      `names nothing concrete: "${firstLine(next)}"`,
      "name the file, command, test, identifier or issue to start from",
    );
}

/** The size within the cap. */
function sizePoint(f: DumpFacts): Point {
  const over = overage(f.size);
  return point(
    "size",
    over === undefined,
    `${f.size.lines} lines, ~${f.size.tokens.toLocaleString("en-US")} tokens${
      over ? `: ${over}` : ` (cap ${CAP.lines} / ~${capTokens()})`
    }`,
    "tighten the largest sections named above; keep every decision",
  );
}

const SWEEP_FIX = "run `session.ts sweep`, park what is real";

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim())?.trim() ?? "";
  return line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line;
}

/**
 * Prints what was written, then the `## Confidence` block and the next step; `/clear` is always
 * the very last line. A weak point never stops the write: the block says what to fix, and how to
 * rewrite this handover once it is fixed.
 */
export function report(d: Dumped, points: Point[], ctx: Context): void {
  const size = measure(d.text);
  const decisions = countItems(findSection(d.sections, "Decisions"));
  const outstanding = countItems(findSection(d.sections, "Outstanding"));
  const lines = [
    `Wrote ${d.path}`,
    `LATEST → ${d.slug}`,
    `Counts: ${d.files} file${d.files === 1 ? "" : "s"}, ${decisions} decision${
      decisions === 1 ? "" : "s"
    }, ${outstanding} outstanding`,
    `Size: ${size.lines} lines, ~${size.tokens} tokens (cap ${CAP.lines} lines / ~${capTokens()} tokens)`,
  ];
  const over = overage(size);
  if (over) {
    const largest = largestSections(d.sections).map((s) =>
      `${s.title} (${s.lines} lines, ~${s.tokens} tokens)`
    );
    lines.push(`Over the cap: ${over}. Written anyway; largest sections: ${largest.join(", ")}.`);
  }
  const missing = ["Goal", "Next step"].filter((t) => !findSection(d.sections, t));
  if (missing.length) {
    lines.push(
      `Missing: ${missing.map((t) => `## ${t}`).join(", ")} (the next session will want it)`,
    );
  }
  lines.push(
    renderConfidence(points, [
      "Written anyway. Fix what is flagged and rerun once, the fixed sections on stdin: " +
      `session.ts dump ${d.slug} --force`,
    ]),
  );
  const next = findSection(d.sections, "Next step");
  if (next) lines.push(`Next step: ${next.split("\n").find((l) => l.trim())!.trim()}`);
  lines.push(
    "Now clear the context: the SessionStart hook restores this handover once, within " +
      `${spanWords(WINDOW_MS)}.`,
    "/clear",
  );
  ctx.out(lines.join("\n"));
}
