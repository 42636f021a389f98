/**
 * `drop <query…>`: removes the one parked item the query names best, logging its full bullet to
 * dropped.jsonl. No match: exit 1 and the list. A tie at the top: exit 3 and the closest four.
 * The matching rule (Fuse.js Bitap per word, integer edit distance) is lib/match.ts.
 * @module
 */

import { type ModeSpec, parseOrHelp } from "./args.ts";
import { type Context, EXIT, storeFor, UsageError } from "./context.ts";
import { ioFailure, itemLine } from "./parked_io.ts";
import { matchDoc, type MatchResult } from "../match.ts";
import { type ParkedItem, removeParked } from "../parked.ts";
import { droppedLine, editParked } from "../parked_store.ts";
import { exists } from "../store.ts";
import { isoStamp } from "../time.ts";

/** Arguments and help of `drop`. */
export const SPEC: ModeSpec = {
  mode: "drop",
  usage: "drop <query…> [--dir DIR]",
  summary: "Drops the one parked item the query names (slug or summary words, typos forgiven).",
  flags: {},
  payload: true,
  notes: [
    "Every word but --dir (and a leading --help) is the query; -- ends options.",
    "An exact slug always wins. Otherwise every query word must be found in the item's slug or",
    "summary with at most one edit per three letters (none in words of up to three letters);",
    "the item needing the fewest edits in total",
    "is dropped. Two or more items equally close: nothing is dropped, exit 3 lists them.",
    "",
    "Example: session.ts drop flaky upload",
  ],
};

type Outcome =
  | { kind: "dropped"; item: ParkedItem; open: number }
  | { kind: "empty" }
  | { kind: "none"; items: ParkedItem[] }
  | { kind: "ambiguous"; match: Extract<MatchResult, { kind: "ambiguous" }> };

/** Runs `drop`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = await parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const query = a.positionals.join(" ").trim();
  if (query === "") {
    throw new UsageError(
      `give words of the item's slug or summary, e.g. "session.ts drop flaky upload"; ` +
        `"session.ts list" shows the parked items`,
    );
  }
  const store = storeFor(ctx, a.dir);
  let outcome: Outcome;
  try {
    // No PARKED.md: nothing to drop, and no store is created just to say so.
    const present = exists(store.parked);
    outcome = !present ? { kind: "empty" } : await editParked<Outcome>(store, async (doc) => {
      if (doc.count === 0) return { result: { kind: "empty" } };
      const match = await matchDoc(doc, query);
      if (match.kind === "none") return { result: { kind: "none", items: doc.items } };
      if (match.kind === "ambiguous") return { result: { kind: "ambiguous", match } };
      const { doc: next, removed } = removeParked(doc, match.best.item);
      const item = removed ?? match.best.item;
      return {
        doc: next,
        log: [droppedLine(item, isoStamp(ctx.now))],
        result: { kind: "dropped", item, open: next.count },
      };
    });
  } catch (err) {
    return ioFailure(ctx, err);
  }
  switch (outcome.kind) {
    case "dropped":
      ctx.out(`Dropped: ${outcome.item.slug} (${outcome.open} open)`);
      return EXIT.ok;
    case "empty":
      ctx.err(`No parked items, so nothing matches "${query}".`);
      return EXIT.notFound;
    case "none":
      ctx.err(`No parked item matches "${query}". Parked items:`);
      for (const item of outcome.items) ctx.out(`  ${itemLine(item)}`);
      return EXIT.notFound;
    case "ambiguous": {
      const { closest, tied } = outcome.match;
      ctx.err(
        `${tied} parked items match "${query}" equally closely; nothing was dropped. ` +
          `Give more words or the exact slug. Closest:`,
      );
      closest.forEach((r, i) => {
        const how = r.exact ? "exact slug" : `${r.distance} edit${r.distance === 1 ? "" : "s"}`;
        ctx.out(`  ${i + 1}. ${itemLine(r.item)} [${how}]`);
      });
      return EXIT.ambiguous;
    }
  }
}
