/**
 * `park <summary…> [--why T] [--next T] [--slug S]`: adds an open loop to PARKED.md, or updates
 * the bullet that already has its slug. Every word is payload except the named options.
 * @module
 */

import { modeSpec, parseOrHelp } from "./args.ts";
import { type Context, inWritableStore, storeFor } from "./run_context.ts";
import { EXIT, failedLeaving, UsageError } from "../errors.ts";
import { type ParkedDoc, type ParkedFields, slugFromSummary } from "../parked/grammar.ts";
import { findParked, holdsBullet, slugFamily } from "../parked/lookup.ts";
import { appendParked, upsertParked } from "../parked/edit.ts";
import { editParked, readParked } from "../parked/file.ts";
import { type Point, point, renderConfidence } from "./confidence.ts";
import { refusal, slugify } from "../store/slug.ts";
import { join } from "../fs/path.ts";
import { dayStamp, isoStamp } from "../store/time.ts";
import { loadRedaction, redactionNoteLazily, redactLazily } from "../secrets/lazy.ts";
import type { RedactionCounts } from "../secrets/redact.ts";

/** Arguments and help of `park`. */
export const SPEC = modeSpec({
  mode: "park",
  usage: "park <summary…> [--why T] [--next T] [--slug S] [--dir DIR]",
  summary: "Parks an open loop in PARKED.md (the same slug updates that bullet).",
  flags: {
    why: { type: "string", value: "T", help: "why it is open (the bullet's Why:)" },
    next: { type: "string", value: "T", help: "the next action (the bullet's Next:)" },
    slug: {
      type: "string",
      value: "S",
      help: "the item's slug (default: from the summary); an existing slug is updated",
    },
  },
  payload: true,
  notes: [
    "Every word is part of the summary except --why, --next, --slug, --dir and a leading",
    "--help; other words that look like flags (--no-verify) stay in the summary. Put words",
    "after -- to keep even those literally: park -- explain --why in the docs",
    "",
    'Example: session.ts park retry the flaky upload test --why "fails 1 in 20" --next "add seed"',
  ],
});

/** Normalised for "is this the same summary": case, spacing and the final period ignored. */
function sameText(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim().replace(/[.]$/, "");
  return norm(a) === norm(b);
}

/** Where a park goes: its slug, and the index of the bullet it updates (-1: a new bullet). */
export interface ParkTarget {
  slug: string;
  at: number;
}

/**
 * The slug to write: `--slug` as given (updating that bullet if present); else one derived from
 * the summary, reusing the bullet that already has this summary, and taking `-2`, `-3`, … when
 * a different item already holds the derived slug (parking never overwrites another loop).
 * One pass over the file either way.
 */
export function parkTarget(doc: ParkedDoc, summary: string, explicit?: string): ParkTarget {
  if (explicit !== undefined) {
    const slug = slugify(explicit);
    return { slug, at: findParked(doc, slug) };
  }
  const base = slugFromSummary(summary) || "item";
  const family = slugFamily(doc, base);
  const same = family.find((i) => sameText(i.summary, summary));
  if (same) return { slug: same.slug, at: findParked(doc, same.slug) };
  const taken = new Set(family.map((i) => i.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return { slug, at: -1 };
}

/**
 * `park` with nothing to park: sweeps the project and offers what it found (but
 * what is parked already) as candidates, each with the command that parks it. Exit 1: nothing
 * was parked. Returned, not thrown: it is the mode's answer to no summary (a list of offers),
 * not a failure. The sweep's table is not written: this is a suggestion, not a sweep run.
 */
async function offerCandidates(ctx: Context, dir: string | undefined): Promise<number> {
  const store = storeFor(ctx, dir);
  // Loaded only here, by a computed specifier: a static import would make every `park` load the
  // sweep's sources (git, transcript readers), which a park with a summary never uses.
  const { sweepProject, UNLANDED_REL }: typeof import("../handover/sweep.ts") = await import(
    import.meta.resolve("../handover/sweep.ts")
  );
  const { transcriptEnv }: typeof import("../transcript/locate.ts") = await import(
    import.meta.resolve("../transcript/locate.ts")
  );
  const { cliCommand }: typeof import("../agents/command.ts") = await import(
    import.meta.resolve("../agents/command.ts")
  );
  const sweep = await sweepProject(store, isoStamp(ctx.now), join(store.root, UNLANDED_REL), {
    ...transcriptEnv(ctx.env),
    cwd: ctx.cwd,
  });
  // What sweep found came from git and the transcript: shown (and offered to park) clean.
  const { redactDeep, redactionNote } = await loadRedaction();
  const clean = redactDeep(sweep.candidates);
  const note = redactionNote(clean.counts);
  if (note) ctx.err(note);
  const offers = clean.value.filter((c) => c.kind !== "parked");
  if (offers.length === 0) {
    ctx.err(
      `Nothing parked: no summary given, and sweep found nothing unlanded to park. ` +
        `Park a loop with "session.ts park <summary…> [--why T] [--next T]".`,
    );
    return EXIT.notFound;
  }
  ctx.err(`Nothing parked: no summary given. Sweep found ${offers.length} candidate(s) to park:`);
  offers.forEach((c, i) => {
    ctx.out(`${i + 1}. [${c.kind}] ${c.what} (${c.where})`);
    // Transcript findings read as loops already; a git finding is named by its kind.
    const summary = c.kind === "task" || c.kind === "question" || c.kind === "deferral"
      ? c.what
      : `${c.kind}: ${c.what}`;
    ctx.out(`   ${cliCommand("park", "--", summary)}`);
  });
  return EXIT.notFound;
}

/** Runs `park`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const given = Object.values(a.flags).some((v) => v !== undefined);
  if (a.positionals.join("").trim() === "" && !given) return await offerCandidates(ctx, a.dir);
  // Every word the item keeps is redacted before it reaches PARKED.md (the slug too: it is
  // derived from the summary, or given). The rules load only for a text that may hold a secret.
  const counts: RedactionCounts[] = [];
  const clean = async (text: string | undefined) => {
    if (text === undefined) return undefined;
    const r = await redactLazily(text);
    counts.push(r.counts);
    return r.text;
  };
  const summary = (await clean(a.positionals.join(" ").replace(/\s+/g, " ").trim()))!;
  if (summary === "") {
    throw new UsageError(
      `nothing to park: give a summary, e.g. "session.ts park retry the flaky upload test ` +
        `--why 'fails 1 in 20'". To find open loops worth parking, run "session.ts sweep"`,
    );
  }
  const why = await clean(a.flags.why);
  const next = await clean(a.flags.next);
  const explicit = await clean(a.flags.slug);
  const refused = explicit === undefined ? undefined : refusal(explicit);
  if (refused) throw new UsageError(`--slug: ${refused}`);
  // A refused write or a busy lock changed nothing (the edit is locked and atomic): say so.
  let store = storeFor(ctx, a.dir);
  const outcome = await inWritableStore(
    ctx,
    "park",
    store,
    (s) => (store = s,
      editParked(s, (doc) => {
        const target = parkTarget(doc, summary, explicit);
        const fields: ParkedFields = {
          slug: target.slug,
          summary,
          raised: dayStamp(ctx.now),
          why,
          next,
        };
        const r = target.at < 0 ? appendParked(doc, fields) : upsertParked(doc, fields, target.at);
        const base = explicit === undefined ? slugFromSummary(summary) || "item" : target.slug;
        return {
          doc: r.doc,
          result: { slug: r.item.slug, open: r.doc.count, before: doc.count, base, ...r },
        };
      })),
  ).catch((err) => failedLeaving(err, "PARKED.md is unchanged"));
  const note = await redactionNoteLazily(...counts);
  if (note) ctx.err(note);
  ctx.out(`Parked: ${outcome.slug} (${outcome.open} open)`);
  if (outcome.updated) ctx.out(`Updated the existing bullet "${outcome.slug}" in ${store.parked}.`);
  const after = readParked(store);
  ctx.out(renderConfidence(parkPoints({
    ...outcome,
    reread: {
      open: after.count,
      found: holdsBullet(after, outcome.item),
    },
  })));
  return EXIT.ok;
}

/** What a park did, as its points are computed from it. */
export interface ParkFacts {
  slug: string;
  /** The slug the summary (or `--slug`) asked for; a different `slug` took a suffix. */
  base: string;
  updated: boolean;
  /** Open items under the lock before and after the edit. */
  before: number;
  open: number;
  /** PARKED.md read again after the write: its open count, and whether the bullet is there. */
  reread: { open: number; found: boolean };
}

/**
 * The points of a park (pure): the slug new or updated (and a suffix said, since a different
 * item held the slug asked for), the lock held (the count moved by exactly what the edit did),
 * the file re-read after the write (the bullet there as written).
 */
export function parkPoints(f: ParkFacts): Point[] {
  const slug = f.slug !== f.base
    ? point(
      "slug",
      false,
      `\`${f.slug}\`, new: \`${f.base}\` already holds a different item`,
      `if it is the same loop, park it again with --slug ${f.base} to update that one`,
    )
    : point("slug", true, `\`${f.slug}\`, ${f.updated ? "updated the existing bullet" : "new"}`);
  const expected = f.updated ? f.before : f.before + 1;
  const lock = point(
    "lock",
    f.open === expected,
    `PARKED.md edited under its lock: ${f.before} → ${f.open} open${
      f.open === expected ? "" : `, not ${expected}`
    }`,
    "run session.ts list and check the parked items",
  );
  const r = f.reread;
  const reread = r.found && r.open === f.open
    ? point("re-read", true, `\`${f.slug}\` is in PARKED.md as written, ${r.open} open`)
    : point(
      "re-read",
      false,
      r.found
        ? `PARKED.md now has ${r.open} open, not ${f.open} (another edit since)`
        : `\`${f.slug}\` is not in PARKED.md as written (another edit since)`,
      "run session.ts list and check the parked items",
    );
  return [slug, lock, reread];
}
