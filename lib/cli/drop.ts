/**
 * `drop <query…>`: removes the one parked item the query names best, logging its full bullet to
 * dropped.jsonl. No match: exit 1 and the list. A tie at the top: exit 3 and the closest four.
 * The matching rule (Fuse.js Bitap per word, integer edit distance) is lib/parked/match.ts.
 * @module
 */

import { modeSpec, parseOrHelp } from "./args.ts";
import { type Context, storeFor } from "./run_context.ts";
import {
  AmbiguousError,
  EXIT,
  failedLeaving,
  FailureError,
  NotFoundError,
  UsageError,
} from "../errors.ts";
import { itemLine } from "../parked/grammar.ts";
import { MATCH_BUDGET_MS, QUERY_LIMITS, queryProblem } from "../parked/match.ts";
import { dropMatching, type DropOutcome } from "../parked/drop.ts";
import { readParked } from "../parked/file.ts";
import { holdsBullet } from "../parked/lookup.ts";
import { type Point, point, renderConfidence } from "./confidence.ts";
import { isoStamp } from "../store/time.ts";
import { redactionNoteLazily } from "../secrets/lazy.ts";

/** Arguments and help of `drop`. */
export const SPEC = modeSpec({
  mode: "drop",
  usage: "drop <query…> [--dir DIR]",
  summary: "Drops the one parked item the query names (slug or summary words, typos forgiven).",
  flags: {},
  payload: true,
  notes: [
    "Every word but --dir (and a leading --help) is the query; -- ends options. A query has",
    `at most ${QUERY_LIMITS.words} words of at most ${QUERY_LIMITS.wordChars} letters ` +
    `(${QUERY_LIMITS.chars} characters).`,
    "An exact slug always wins. Otherwise every query word must be found in the item's slug or",
    "summary with at most one edit per three letters (none in words of up to three letters);",
    "the item needing the fewest edits in total",
    "is dropped. Two or more items equally close: nothing is dropped, exit 3 lists them.",
    "",
    "Example: session.ts drop flaky upload",
  ],
});

/** The query the words make; a usage error when there is none or it is over the limits. */
function queryOf(words: string[]): string {
  const query = words.join(" ").trim();
  if (query === "") {
    throw new UsageError(
      `give words of the item's slug or summary, e.g. "session.ts drop flaky upload"; ` +
        `"session.ts list" shows the parked items`,
    );
  }
  const problem = queryProblem(query);
  if (problem) {
    throw new UsageError(
      `${problem}: give the item's slug or a few words of its summary ` +
        `("session.ts list" shows them)`,
    );
  }
  return query;
}

/** What a drop did, as its points are computed from it. */
export interface DropFacts {
  outcome: DropOutcome;
  query: string;
  /** PARKED.md re-read after a drop: its open count, and whether the dropped bullet is gone. */
  after?: { open: number; gone: boolean };
  /** The last line of dropped.jsonl after a drop, parsed (undefined: missing or not JSON). */
  logged?: { item?: unknown; action?: unknown; ts?: unknown };
  /** The stamp this drop logged with. */
  ts: string;
}

/**
 * The points of a drop (pure): the match unambiguous, only the matched bullet removed (PARKED.md
 * re-read: the bullet gone, the open count the drop left), the audit line appended (the last line
 * of dropped.jsonl is this drop's).
 */
export function dropPoints(f: DropFacts): Point[] {
  const o = f.outcome;
  if (o.kind !== "dropped") {
    const why = {
      empty: "no parked items",
      none: `no item matches "${f.query}"`,
      ambiguous: o.kind === "ambiguous" ? `${o.match.tied} items equally close` : "",
      slow: "the search ran out of time",
      changed: "the matching item kept changing",
    }[o.kind];
    return [
      point("match", false, `${why}: nothing dropped`, "give the exact slug (session.ts list)"),
      point("removed", true, "nothing: PARKED.md unchanged"),
      point("audit", true, "nothing to log"),
    ];
  }
  const slug = o.item.slug;
  const match = point(
    "match",
    true,
    f.query.trim() === slug ? `\`${slug}\`, its exact slug` : `\`${slug}\`, the one closest item`,
  );
  const a = f.after;
  const removed = a !== undefined && a.gone && a.open === o.open
    ? point("removed", true, `only \`${slug}\`: PARKED.md re-read, ${a.open} open`)
    : point(
      "removed",
      false,
      a === undefined
        ? "PARKED.md could not be re-read"
        : !a.gone
        ? `\`${slug}\`'s bullet is still in PARKED.md`
        : `PARKED.md re-read: ${a.open} open, not the ${o.open} the drop left (another edit since)`,
      "run session.ts list and check the parked items",
    );
  const l = f.logged;
  const audit = l?.item === slug && l.action === "dropped" && l.ts === f.ts
    ? point("audit", true, `dropped.jsonl ends with \`${slug}\`'s entry, full text kept`)
    : point(
      "audit",
      false,
      l === undefined
        ? "dropped.jsonl's last line is missing or not JSON"
        : "dropped.jsonl's last line is not this drop's",
      "check dropped.jsonl",
    );
  return [match, removed, audit];
}

/** The last line of a file that ends in a newline, read from its end, parsed as JSON. */
function lastEntry(path: string): DropFacts["logged"] {
  try {
    using file = Deno.openSync(path, { read: true });
    const size = file.statSync().size;
    const take = Math.min(size, 1 << 16);
    const buf = new Uint8Array(take);
    file.seekSync(size - take, Deno.SeekMode.Start);
    let n = 0;
    while (n < take) n += file.readSync(buf.subarray(n)) ?? take;
    const lines = new TextDecoder().decode(buf).trimEnd().split("\n");
    const entry = JSON.parse(lines.at(-1) ?? "");
    return typeof entry === "object" && entry !== null ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `drop`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const query = queryOf(a.positionals);
  const store = storeFor(ctx, a.dir);
  const ts = isoStamp(ctx.now);
  // A refused write or a busy lock changed nothing (the edit is locked and atomic): say so.
  const outcome = await dropMatching(store, query, ts)
    .catch((err) => failedLeaving(err, "PARKED.md is unchanged"));
  const block = (facts: Partial<DropFacts> = {}) =>
    ctx.out(renderConfidence(dropPoints({ outcome, query, ts, ...facts })));
  switch (outcome.kind) {
    case "dropped": {
      const note = await redactionNoteLazily(outcome.redacted);
      if (note) ctx.err(note);
      ctx.out(`Dropped: ${outcome.item.slug} (${outcome.open} open)`);
      const doc = readParked(store);
      block({
        after: { open: doc.count, gone: !holdsBullet(doc, outcome.item) },
        logged: lastEntry(store.dropped),
      });
      return EXIT.ok;
    }
    case "empty":
      block();
      throw new NotFoundError(`No parked items, so nothing matches "${query}"`);
    case "none":
      // The list is the answer (stdout); the error, on stderr after it, says what it is.
      for (const item of outcome.items) ctx.out(`  ${itemLine(item)}`);
      block();
      throw new NotFoundError(
        `No parked item matches "${query}"; the parked items are listed above`,
      );
    case "slow":
      block();
      throw new FailureError(
        `Matching "${query}" took over ${MATCH_BUDGET_MS / 1000} s; nothing was dropped. ` +
          `Give fewer or shorter words, or the exact slug`,
      );
    case "changed":
      block();
      throw new FailureError(
        `The matching item kept changing while "${query}" was matched (another session is ` +
          `editing PARKED.md); nothing was dropped. Try again`,
      );
    case "ambiguous": {
      // The closest are listed first (stdout), then the error says why nothing was dropped.
      const { closest, tied } = outcome.match;
      closest.forEach((r, i) => {
        const how = r.exact ? "exact slug" : `${r.distance} edit${r.distance === 1 ? "" : "s"}`;
        ctx.out(`  ${i + 1}. ${itemLine(r.item)} [${how}]`);
      });
      block();
      throw new AmbiguousError(
        `${tied} parked items match "${query}" equally closely; nothing was dropped. ` +
          `Give more words or the exact slug (the closest ${closest.length} are listed above)`,
      );
    }
  }
}
