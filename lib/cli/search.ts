/**
 * `search <words…> [--json]`: every handover section, parked item and dropped item that holds
 * every word (lib/search/: exact words ranked before fuzzy matches), best first, each with its
 * slug or item, section, matching line and age. Nothing matching: the Confidence block, then
 * exit 1. Its output goes through the CLI's redaction funnel like every mode's (lib/cli/main.ts).
 * @module
 */

import { EXIT, NotFoundError, UsageError } from "../errors.ts";
import { queryProblem, queryWords } from "../parked/match.ts";
import { type Corpus, gatherCorpus } from "../search/corpus.ts";
import { type Hit, rankUnits } from "../search/rank.ts";
import { formatAge, formatAgo } from "../store/time.ts";
import { modeSpec, parseOrHelp } from "./args.ts";
import { count, names, type Point, point, renderConfidence } from "./confidence.ts";
import { type Context, storeFor } from "./run_context.ts";

/** Matches the text lists; `--json` lists every one. */
export const SHOWN = 50;

/** Arguments and help of `search`. */
export const SPEC = modeSpec({
  mode: "search",
  usage: "search <words…> [--json] [--dir DIR]",
  summary: "Finds handover sections, parked items and dropped items holding every word.",
  flags: { json: { type: "boolean", help: "print one JSON object (shape: docs/CLI.md)" } },
  maxPositionals: 64,
  notes: [
    "Exact words rank before fuzzy matches (a word within a third of its letters' edits, or",
    `inside a longer word); then fewer edits, then newest. The text shows the first ${SHOWN} matches; --json lists every one.`,
    "Example: session.ts search retry policy",
  ],
});

/** One match as `--json` prints it. */
export interface MatchJson {
  kind: "handover" | "parked" | "dropped";
  slug: string;
  section: string;
  line: string;
  match: "exact" | "fuzzy";
  distance: number;
  date: string | null;
  age: string;
  ageMs: number | null;
}

/** What `search --json` prints (besides `confidence`). */
export interface SearchResult {
  query: string;
  words: string[];
  searched: { handovers: number; parked: number; dropped: number };
  matches: MatchJson[];
}

function matchJson(h: Hit, now: Date): MatchJson {
  const u = h.unit;
  const ageMs = u.dateMs === undefined ? null : now.getTime() - u.dateMs;
  return {
    kind: u.kind,
    slug: u.slug,
    section: u.section,
    line: h.line,
    match: h.exact ? "exact" : "fuzzy",
    distance: h.distance,
    date: u.date ?? null,
    age: formatAge(ageMs ?? undefined),
    ageMs,
  };
}

/** The matches as text: a heading, then two lines a match. */
export function renderMatches(r: SearchResult): string {
  const exact = r.matches.filter((m) => m.match === "exact").length;
  const out = [
    `Search "${r.query}": ${count(r.matches.length, "match", "matches")} (${exact} exact, ${
      r.matches.length - exact
    } fuzzy) in ${count(r.searched.handovers, "handover")}, ${
      count(r.searched.parked, "parked item")
    } and ${count(r.searched.dropped, "dropped item")}, best first:`,
    "",
  ];
  r.matches.slice(0, SHOWN).forEach((m, i) => {
    const where = m.kind === "handover" ? m.slug : `${m.kind} item ${m.slug}`;
    const section = m.kind === "handover" ? ` · ${m.section}` : "";
    const fuzzy = m.match === "fuzzy" ? ` · fuzzy (${count(m.distance, "edit")})` : "";
    out.push(
      `${i + 1}. ${where}${section} · ${formatAgo(m.ageMs ?? undefined)}${fuzzy}`,
      `   ${m.line}`,
    );
  });
  const more = r.matches.length - SHOWN;
  if (more > 0) out.push("", `… and ${more} more: add --json to list every match.`);
  return out.join("\n");
}

/** The points of a search (pure): every document read, front matter parsed, the ranking. */
export function searchPoints(c: Corpus, r: SearchResult): Point[] {
  const read = c.handovers - c.unreadable.length;
  const docs = c.unreadable.length
    ? point(
      "documents",
      false,
      `${read} of ${count(c.handovers, "handover")} read; unreadable: ${names(c.unreadable)}`,
      "check those files (UTF-8 text, regular files inside the store)",
    )
    : point("documents", true, `every one of ${count(c.handovers, "handover")} read`);
  const frontMatter = c.noFrontMatter.length
    ? point(
      "front matter",
      false,
      `${c.noFrontMatter.length} without one (searched whole, age unknown): ${
        names(c.noFrontMatter)
      }`,
      "give them a front matter with `created:`",
    )
    : point("front matter", true, read ? "every one parsed; ages from `created`" : "none to parse");
  const items = c.parkedUnreadable || c.droppedUnreadable
    ? point(
      "items",
      false,
      [
        c.parkedUnreadable ? "PARKED.md unreadable: not searched" : "",
        c.droppedUnreadable
          ? `${count(c.droppedUnreadable, "dropped.jsonl line")} not an entry`
          : "",
      ].filter(Boolean).join("; "),
      "fix the file named",
    )
    : point(
      "items",
      true,
      `${count(c.parked, "parked item")} and ${count(c.dropped, "dropped item")} read`,
    );
  const exact = r.matches.filter((m) => m.match === "exact").length;
  const fuzzy = r.matches.length - exact;
  const ranking = r.matches.length && !exact
    ? point(
      "ranking",
      false,
      `no exact match: ${count(fuzzy, "fuzzy one")} only`,
      "check the spelling, or search other words",
    )
    : point(
      "ranking",
      true,
      r.matches.length
        ? `${exact} exact (every word whole) before ${fuzzy} fuzzy, then fewer edits, then newest`
        : "nothing matched every word, exactly or fuzzily",
    );
  return [docs, frontMatter, items, ranking];
}

/** Runs `search`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const query = a.positionals.join(" ").trim();
  const words = queryWords(query);
  if (words.length === 0) {
    throw new UsageError('give the words to search for, e.g. "session.ts search retry policy"');
  }
  const problem = queryProblem(query);
  if (problem) throw new UsageError(`${problem}; search fewer, shorter words`);
  const corpus = gatherCorpus(storeFor(ctx, a.dir));
  const hits = await rankUnits(corpus.units, words);
  const result: SearchResult = {
    query,
    words,
    searched: { handovers: corpus.handovers, parked: corpus.parked, dropped: corpus.dropped },
    matches: hits.map((h) => matchJson(h, ctx.now)),
  };
  const points = searchPoints(corpus, result);
  if (a.flags.json) ctx.out(JSON.stringify({ ...result, confidence: points }, null, 2));
  else if (hits.length) ctx.out(`${renderMatches(result)}\n${renderConfidence(points)}`);
  else ctx.out(renderConfidence(points));
  if (hits.length) return EXIT.ok;
  throw new NotFoundError(
    `nothing matches "${query}" in ${count(corpus.handovers, "handover")}, ${
      count(corpus.parked, "parked item")
    } and ${count(corpus.dropped, "dropped item")}; try fewer or other words`,
  );
}
