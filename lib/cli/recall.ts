/**
 * `recall [name] [--chain]`: prints a handover (named, or LATEST's) without front matter under a
 * banner — with `--chain`, the story of its chain instead (lib/handover/chain.ts) — marks it
 * consumed, clears LATEST only when LATEST named this one, and records it as the handover this
 * agent session started from (its next dump's `parent:`). A miss says so, lists what exists, and
 * exits 1.
 * @module
 */

import { splitFrontMatter } from "../store/front_matter.ts";
import { slugify } from "../store/slug.ts";
import { docPath, isSafeSlug, readDoc, type Store } from "../store/store.ts";
import { exists } from "../fs/path.ts";
import { consume, markRestored, pendingSlug } from "../store/lifecycle.ts";
import { type ChainEnd, walkChain } from "../store/lineage.ts";
import { chainStory, type Story } from "../handover/chain.ts";
import { BUDGETS } from "../frame/budget.ts";
import { ageMs, formatAge, formatAgo } from "../store/time.ts";
import { modeSpec, parseOrHelp } from "./args.ts";
import { EXIT, NotFoundError, UsageError } from "../errors.ts";
import { agentSession, type Context, storeFor } from "./run_context.ts";
import { count, type Point, point, renderConfidence } from "./confidence.ts";
import { parseSections } from "../handover/document.ts";

/** Arguments and help of `recall`. */
export const SPEC = modeSpec({
  mode: "recall",
  usage: "recall [name] [--chain] [--dir DIR]",
  summary: "Prints a handover (named, or the one LATEST points to) and marks it consumed.",
  flags: {
    chain: {
      type: "boolean",
      help: "print the Goal, Decisions and Lessons of it and its ancestors (parent:), newest " +
        "first, each once, within the restore's budget; only it is marked consumed",
    },
  },
  maxPositionals: 1,
  notes: ["Examples: session.ts recall auth-refactor", "          session.ts recall --chain"],
});

/** The slug a recall name means: the name itself when stored, else its slugified form. */
export function resolveSlug(store: Store, name: string): string {
  if (isSafeSlug(name) && exists(docPath(store, name))) return name;
  return slugify(name);
}

/**
 * What the store holds, for a miss: one line per document, newest first. The catalog is loaded
 * only here, by a computed specifier: a recall that finds its document never reads it.
 */
export async function whatExists(store: Store, now: Date): Promise<string> {
  const { catalog }: typeof import("../store/catalog.ts") = await import(
    import.meta.resolve("../store/catalog.ts")
  );
  const docs = catalog(store, now);
  if (!docs.length) return `The store (${store.dir}) holds no handovers.`;
  return [
    `Stored handovers (${docs.length}), newest first:`,
    ...docs.map((d) => `  ${d.slug}  (${formatAge(d.ageMs)}${d.consumed ? ", consumed" : ""})`),
  ].join("\n");
}

/** The banner above a recalled document. */
export function banner(slug: string, fields: Record<string, string>, now: Date): string {
  const when = formatAgo(ageMs(fields.created, now));
  const was = fields.consumed === "true" ? "; recalled before" : "";
  // A handover pulled from another machine says whose it is and when it travelled (lib/sync/).
  const from = fields.from ? `; from ${fields.from}` : "";
  return `[session] Handover "${slug}" (dumped ${when}, branch ${
    fields.branch || "none"
  }${from}${was})`;
}

/** Why nothing could be recalled: LATEST empty or dangling, no such name, or unreadable. */
function missMessage(store: Store, name: string | undefined, slug: string | undefined): string {
  if (slug === undefined) {
    return "No pending handover: LATEST is empty. Name one: session.ts recall <slug>";
  }
  const path = docPath(store, slug);
  if (isSafeSlug(slug) && exists(path)) {
    return `Handover "${slug}" exists but cannot be read (not UTF-8 text, or not a regular file ` +
      `inside the store): ${path}`;
  }
  return name === undefined
    ? `LATEST names "${slug}", but the store has no such document (looked for ${path}).`
    : `No handover "${name}" (looked for ${path}).`;
}

/** How a recall found its document, and what else the name could have meant. */
export interface Target {
  slug: string;
  /** `latest`: LATEST named it; `claim`: a claim a killed hook left; `name`: the name given. */
  via: "latest" | "claim" | "name";
  /** Later dumps of the same name (`<slug>-2`, `-3`, …) the store also holds. */
  siblings: string[];
}

/** What a recall did, as its points are computed from it. */
export interface RecallFacts {
  /** Undefined: nothing was found to recall. */
  target?: Target;
  /** The printed body's line and section counts, and whether the front matter parsed. */
  printed?: { lines: number; sections: number; frontMatter: boolean };
  /** With `--chain`: what the story printed and how the walk ended. */
  chain?: { story: Story; end: ChainEnd; limit: number };
  /** `written` (re-read as true), `before` (already true), `replaced` (a newer dump came
   * meanwhile: kept, not marked), `unmarked` (no `consumed: false` to flip), `unread` (written,
   * but did not re-read as true). */
  consumed?: "written" | "before" | "replaced" | "unmarked" | "unread";
}

/** The points of a recall (pure): target unambiguous, doc printed intact, consumed written. */
export function recallPoints(f: RecallFacts): Point[] {
  const t = f.target;
  if (t === undefined || f.printed === undefined) {
    return [
      point("target", false, "nothing found to recall", "name one of the handovers listed"),
      point("doc", false, "nothing printed"),
      point("consumed", false, "nothing marked"),
    ];
  }
  const how = t.via === "latest"
    ? "named by LATEST"
    : t.via === "claim"
    ? "recovered from a claim a killed hook left"
    : "by its name";
  const target = t.siblings.length
    ? point(
      "target",
      false,
      `\`${t.slug}\` ${how}; the store also holds ${t.siblings.map((s) => `\`${s}\``).join(", ")}`,
      `recall \`${t.siblings.at(-1)}\` if that is the one you meant`,
    )
    : point("target", true, `\`${t.slug}\`, ${how}, the only one of that name`);
  const p = f.printed;
  const doc = f.chain ? chainPoint(f.chain) : p.frontMatter
    ? point(
      "doc",
      true,
      `${count(p.lines, "line")}, ${count(p.sections, "section")}, printed whole`,
    )
    : point("doc", false, `no front matter: printed whole as stored (${count(p.lines, "line")})`);
  const consumed = {
    written: point("consumed", true, "marked consumed, and re-read so"),
    before: point("consumed", true, "marked consumed already (recalled before)"),
    replaced: point(
      "consumed",
      false,
      "not marked: a newer dump replaced the document meanwhile",
      `recall \`${t.slug}\` again for the newer one`,
    ),
    unmarked: point(
      "consumed",
      false,
      "no consumed field to flip; the document is unchanged",
    ),
    unread: point("consumed", false, "marked, but the document does not read back as consumed"),
  }[f.consumed ?? "unread"];
  return [target, doc, consumed];
}

/** The `--chain` point: how many handovers the story holds, and how it fit the budget. */
function chainPoint(c: NonNullable<RecallFacts["chain"]>): Point {
  const s = c.story;
  const total = s.whole + s.digested + s.omitted;
  const ends = c.end.kind === "root"
    ? "back to its first"
    : c.end.kind === "missing"
    ? `up to \`${c.end.parent}\`, not in this store`
    : `stopped at a cycle (\`${c.end.parent}\` again)`;
  const repeats = s.repeats ? `, ${count(s.repeats, "repeated item")} once` : "";
  const fit = s.digested + s.omitted
    ? `; over ${c.limit.toLocaleString("en-US")} characters: ${s.whole} whole, ${s.digested} ` +
      `in one line${s.omitted ? `, ${s.omitted} only named` : ""}`
    : ", all whole";
  return point(
    "chain",
    c.end.kind !== "cycle",
    `${count(total, "handover")} read, ${ends}${repeats}${fit}`,
    "fix the `parent:` lines that loop",
  );
}

/** Later dumps of the same name: `<slug>-2`, `-3`, … in the store, oldest first. */
async function siblingsOf(store: Store, slug: string): Promise<string[]> {
  const { listSlugs }: typeof import("../store/catalog.ts") = await import(
    import.meta.resolve("../store/catalog.ts")
  );
  const suffix = (s: string) => Number(s.slice(slug.length + 1));
  return listSlugs(store)
    .filter((s) => s.startsWith(`${slug}-`) && /^[1-9]\d*$/.test(s.slice(slug.length + 1)))
    .sort((a, b) => suffix(a) - suffix(b));
}

/** The story of the chain `slug` heads, within the restore's budget. */
function tellChain(store: Store, slug: string, text: string, now: Date) {
  const limit = BUDGETS.claude.limit;
  const { links, end } = walkChain(slug, text, (s) => readDoc(store, s));
  return { story: chainStory(links, end, now, limit), end, limit };
}

/** Runs `recall`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const store = storeFor(ctx, a.dir);
  const name = a.positionals[0];
  if (name !== undefined && (/[\/\\]/.test(name) || name.includes(".."))) {
    throw new UsageError(
      `"${name}" is not a handover name (no "/", "\\" or ".."); see "session.ts list"`,
    );
  }
  const pending = name === undefined ? await pendingSlug(store) : undefined;
  const slug = name === undefined ? pending?.slug : resolveSlug(store, name);
  const text = slug === undefined ? undefined : readDoc(store, slug);
  if (slug === undefined || text === undefined) {
    const message = `${missMessage(store, name, slug)}\n${await whatExists(store, ctx.now)}`;
    ctx.out(renderConfidence(recallPoints({})));
    throw new NotFoundError(message);
  }
  const split = splitFrontMatter(text);
  const body = (split?.body ?? text).replace(/\r\n?/g, "\n").trim();
  const chain = a.flags.chain ? tellChain(store, slug, text, ctx.now) : undefined;
  ctx.out(chain?.story.text ?? `${banner(slug, split?.fields ?? {}, ctx.now)}\n\n${body}`);
  // The session that printed it started from it (first record stands): its next dump's parent.
  try {
    markRestored(store, agentSession(ctx), slug);
  } catch { /* a record that cannot be written costs the next dump its parent, never the recall */ }
  const facts: RecallFacts = {
    chain,
    target: {
      slug,
      via: pending?.via ?? "name",
      // A named recall may mean a later dump of that name; LATEST names exactly one.
      siblings: name === undefined ? [] : await siblingsOf(store, slug),
    },
    printed: {
      lines: body === "" ? 0 : body.split("\n").length,
      sections: parseSections(body).filter((s) => s.title).length,
      frontMatter: split !== undefined,
    },
  };
  // Printed already: LATEST naming it is cleared even when there was nothing to flip.
  facts.consumed = await consume(store, { slug, text, viaLatest: false, shown: true });
  ctx.out(renderConfidence(recallPoints(facts)));
  return EXIT.ok;
}
