/**
 * `drop <query…>`: removes the one parked item the query names best, logging its full bullet to
 * dropped.jsonl. No match: exit 1 and the list. A tie at the top: exit 3 and the closest four.
 * The matching rule (Fuse.js Bitap per word, integer edit distance) is lib/parked/match.ts.
 * @module
 */

import { type ModeSpec, parseOrHelp } from "./args.ts";
import { type Context, storeFor } from "./context.ts";
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
import { dropMatching } from "../parked/drop.ts";
import { isoStamp } from "../store/time.ts";
import { redactionNoteLazily } from "../secrets/lazy.ts";

/** Arguments and help of `drop`. */
export const SPEC: ModeSpec = {
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
};

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

/** Runs `drop`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const query = queryOf(a.positionals);
  const store = storeFor(ctx, a.dir);
  // A refused write or a busy lock changed nothing (the edit is locked and atomic): say so.
  const outcome = await dropMatching(store, query, isoStamp(ctx.now))
    .catch((err) => failedLeaving(err, "PARKED.md is unchanged"));
  switch (outcome.kind) {
    case "dropped": {
      const note = await redactionNoteLazily(outcome.redacted);
      if (note) ctx.err(note);
      ctx.out(`Dropped: ${outcome.item.slug} (${outcome.open} open)`);
      return EXIT.ok;
    }
    case "empty":
      throw new NotFoundError(`No parked items, so nothing matches "${query}"`);
    case "none":
      // The list is the answer (stdout); the error, on stderr after it, says what it is.
      for (const item of outcome.items) ctx.out(`  ${itemLine(item)}`);
      throw new NotFoundError(
        `No parked item matches "${query}"; the parked items are listed above`,
      );
    case "slow":
      throw new FailureError(
        `Matching "${query}" took over ${MATCH_BUDGET_MS / 1000} s; nothing was dropped. ` +
          `Give fewer or shorter words, or the exact slug`,
      );
    case "changed":
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
      throw new AmbiguousError(
        `${tied} parked items match "${query}" equally closely; nothing was dropped. ` +
          `Give more words or the exact slug (the closest ${closest.length} are listed above)`,
      );
    }
  }
}
