/**
 * `list [--json] [--tree]`: removes expired handovers (over 30 days by `created`), then shows the
 * stored handovers (with `--tree`, in the chains their `parent:` makes: ./tree.ts) and the parked
 * items, stale ones flagged; and when the project's newest Claude Code
 * transcript has no handover (a session killed before its SessionEnd could draft one), the
 * `recover` command for it. That check stats one folder and parses nothing (lib/transcript/newest.ts).
 * @module
 */

import { catalog, type DocEntry, entryOf, readHead } from "../store/catalog.ts";
import type { ParkedItem } from "../parked/grammar.ts";
import { readParked } from "../parked/file.ts";
import { docPath, type Store } from "../store/store.ts";
import { type Tidied, tidy } from "../store/lifecycle.ts";
import { findCheckout, linkedWorktrees } from "../store/repository.ts";
import {
  ageMs,
  EXPIRY_MS,
  formatAge,
  formatAgo,
  spanWords,
  STALE_MARK,
  STALE_MS,
} from "../store/time.ts";
import { modeSpec, parseOrHelp } from "./args.ts";
import { EXIT, FailureError } from "../errors.ts";
import { type Context, storeFor } from "./run_context.ts";
import { count, names, type Point, point, renderConfidence } from "./confidence.ts";
import { chainForest } from "../store/lineage.ts";
import { type ChainJson, chainsJson, treeLines } from "./tree.ts";
import {
  newestTranscript,
  type TranscriptFile,
  type TranscriptPlace,
} from "../transcript/newest.ts";

/** Arguments and help of `list`. */
export const SPEC = modeSpec({
  mode: "list",
  usage: "list [--json] [--tree] [--dir DIR]",
  summary: `Removes expired handovers (over ${
    spanWords(EXPIRY_MS)
  }), then lists handovers and parked items.`,
  flags: {
    json: { type: "boolean", help: "print one JSON object (shape: docs/CLI.md)" },
    tree: {
      type: "boolean",
      help: "show the handovers in chains (parent:): a child under its parent, newest first",
    },
  },
  notes: [
    `Stale (over ${spanWords(STALE_MS)}) handovers and parked items are marked "${STALE_MARK}".`,
  ],
});

/** A parked item as `list` shows it. */
export interface ParkedRow {
  slug: string;
  summary: string;
  raised: string | null;
  why: string | null;
  next: string | null;
  stale: boolean;
}

/** What `list --json` prints. */
export interface Listing {
  store: string;
  latest: string | null;
  removed: string[];
  /** Expired documents that could not be removed (still listed below), with the reason. */
  notRemoved: { slug: string; reason: string }[];
  handovers: {
    slug: string;
    created: string | null;
    age: string;
    ageMs: number | null;
    branch: string | null;
    /** The linked worktree it was written in (null: the main worktree, or not recorded). */
    worktree?: string;
    consumed: boolean | null;
    stale: boolean;
    latest: boolean;
    /** The handover the writing session started from (`parent:`), if any. */
    parent: string | null;
  }[];
  parked: ParkedRow[];
  /** With `--tree`: the chains, newest first (./tree.ts). */
  chains?: ChainJson[];
  /**
   * Set when the table shows the worktree column: the repository has more than one worktree, or
   * a handover was written in a linked one.
   */
  worktrees?: boolean;
  /**
   * Present only when the project's newest transcript (not the running session's) has no
   * handover: no document names its session, and it was written after the newest document.
   */
  unsaved?: Unsaved;
}

/** A session that ended without a handover, and the command that drafts one from it. */
export interface Unsaved {
  session: string;
  transcript: string;
  /** When the transcript was last written (ISO 8601). */
  modified: string;
  command: string;
}

/**
 * Whether `transcript` is a session without a handover (pure): no document carries its session
 * id, and none was created after it was last written (a `recover`ed draft, or a document from
 * before `session:` existed written during that session, covers it).
 */
export function isUnsaved(
  transcript: TranscriptFile | undefined,
  entries: DocEntry[],
  now: Date,
): transcript is TranscriptFile {
  if (transcript === undefined) return false;
  const since = transcript.birthtimeMs ?? Infinity;
  for (const e of entries) {
    if (e.session === transcript.session) return false;
    if (e.ageMs === undefined) continue;
    const created = now.getTime() - e.ageMs;
    if (created >= transcript.mtimeMs) return false;
    if (e.session === undefined && created >= since) return false;
  }
  return true;
}

/**
 * The `recover` command for an unsaved session (`--dir` when `list` was given one). The command
 * builder is loaded only here, by a computed specifier: most listings have no unsaved session.
 */
export async function recoverCommand(t: TranscriptFile, dir?: string): Promise<string> {
  const { cliCommand }: typeof import("../agents/command.ts") = await import(
    import.meta.resolve("../agents/command.ts")
  );
  const which = /^[A-Za-z0-9_-]+$/.test(t.session)
    ? ["--session", t.session]
    : ["--transcript", t.path];
  return cliCommand("recover", ...which, ...(dir === undefined ? [] : ["--dir", dir]));
}

/** The parked items of a PARKED.md text at `now`; stale from `Raised:` (pure). */
export function parkedRows(items: ParkedItem[], now: Date): ParkedRow[] {
  // Thousands of items share a few dozen dates: judge each `Raised:` value once.
  const staleByRaised = new Map<string, boolean>();
  const isStale = (raised: string | undefined) => {
    if (raised === undefined) return false;
    let stale = staleByRaised.get(raised);
    if (stale === undefined) {
      const day = raised.match(/^\d{4}-\d{2}-\d{2}/)?.[0];
      const age = day ? ageMs(`${day}T00:00:00Z`, now) : undefined;
      stale = age !== undefined && age > STALE_MS;
      staleByRaised.set(raised, stale);
    }
    return stale;
  };
  return items.map((item) => {
    const raised = item.raised;
    return {
      slug: item.slug,
      summary: item.summary,
      raised: raised ?? null,
      why: item.why ?? null,
      next: item.next ?? null,
      stale: isStale(raised),
    };
  });
}

/**
 * Removes expired documents and clears a dangling LATEST (lib/store/lifecycle.ts `tidy`). The
 * entries may come from the catalog's cache, which an in-place hand edit can leave behind: a
 * removal is decided again from the document itself, so nothing is deleted on cached word alone.
 * A document that cannot be removed (a read-only store) is reported, not hidden.
 */
export async function expire(
  store: Store,
  entries: DocEntry[],
  now: Date,
  remove?: (path: string) => void,
): Promise<Tidied> {
  const stillExpired = (slug: string) => {
    const fields = readHead(docPath(store, slug));
    return fields !== undefined && entryOf(slug, fields, now).expired;
  };
  return await tidy(
    store,
    entries.filter((e) => e.expired).map((e) => e.slug),
    stillExpired,
    remove,
  );
}

/**
 * Gathers the listing (removing expired documents on the way); with `place`, also whether the
 * project's newest transcript has no handover.
 */
export async function listing(
  store: Store,
  now: Date,
  place?: TranscriptPlace & { dir?: string },
): Promise<Listing> {
  const entries = catalog(store, now);
  const tidied = await expire(store, entries, now);
  const { removed, notRemoved } = tidied;
  const latest = tidied.latest ?? null;
  const gone = new Set(removed);
  const parked = (await readParked(store)).items;
  const newest = place === undefined ? undefined : newestTranscript(place);
  const unsaved = isUnsaved(newest, entries, now)
    ? {
      unsaved: {
        session: newest.session,
        transcript: newest.path,
        modified: new Date(newest.mtimeMs).toISOString(),
        command: await recoverCommand(newest, place?.dir),
      },
    }
    : {};
  return {
    store: store.dir,
    latest,
    removed,
    notRemoved,
    handovers: entries.filter((e) => !gone.has(e.slug)).map((e) => ({
      slug: e.slug,
      created: e.created ?? null,
      age: formatAge(e.ageMs),
      ageMs: e.ageMs ?? null,
      branch: e.branch ?? null,
      ...(e.worktree === undefined ? {} : { worktree: e.worktree }),
      consumed: e.consumed ?? null,
      stale: e.stale,
      latest: e.slug === latest,
      parent: e.parent ?? null,
    })),
    parked: parkedRows(parked, now),
    ...(manyWorktrees(store) || entries.some((e) => e.worktree !== undefined)
      ? { worktrees: true }
      : {}),
    ...unsaved,
  };
}

/** What `list` says about a session that ended without a handover. */
export function unsavedLines(u: Unsaved, now: Date): string[] {
  const ago = formatAgo(now.getTime() - Date.parse(u.modified));
  return [
    `The newest session of this project (${u.session}, last written ${ago}) left no ` +
    "handover: it may have ended without SessionEnd (killed, or a crash). Draft one from its " +
    "transcript:",
    "",
    `  ${u.command}`,
  ];
}

/** The worktree column's word for a handover written in the main worktree. */
const MAIN_WORKTREE = "(main)";

/** Whether the repository `store` serves has linked worktrees (read from git's files). */
function manyWorktrees(store: Store): boolean {
  const checkout = findCheckout(store.root);
  return checkout !== undefined && linkedWorktrees(checkout.common).length > 0;
}

/** What a table cell cannot hold as it is: a line break or the column separator. */
const CELL_BREAK = /[\r\n|]/;

function cell(text: string): string {
  return CELL_BREAK.test(text) ? text.replace(/[\r\n]+/g, " ").replace(/\|/g, "\\|") : text;
}

/** A table's two header lines. */
function tableHead(out: string[], header: string[]): void {
  out.push(`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`);
}

/**
 * The human-readable listing (`now` for the age of an unsaved session). Each row is one template
 * written straight into the output, no array of cells in between: a listing can have 10,000 rows,
 * this runs once and cold, and the intermediate arrays were about half of its time.
 */
export function renderListing(l: Listing, now = new Date(), tree = false): string {
  const out: string[] = [];
  const tail = l.unsaved ? ["", ...unsavedLines(l.unsaved, now)] : [];
  if (l.removed.length) {
    out.push(
      `Removed ${l.removed.length} expired handover(s) (over ${spanWords(EXPIRY_MS)}): ${
        l.removed.join(", ")
      }`,
      "",
    );
  }
  if (l.notRemoved.length) {
    out.push(
      `Could not remove ${l.notRemoved.length} expired handover(s) (over ${
        spanWords(EXPIRY_MS)
      }), still listed: ` +
        l.notRemoved.map((n) => `${n.slug} (${n.reason})`).join(", "),
      "",
    );
  }
  if (!l.handovers.length && !l.parked.length) {
    out.push("No stored handovers, no parked items.", ...tail);
    return out.join("\n");
  }
  if (l.handovers.length && tree) {
    const forest = forestOf(l);
    out.push(
      `Handovers (${l.handovers.length}) in ${count(forest.length, "chain")}, newest first:`,
      "",
      ...treeLines(forest, new Set(l.removed), STALE_MARK),
    );
  } else if (l.handovers.length) {
    out.push(`Handovers (${l.handovers.length}):`, "");
    tableHead(out, ["Slug", "Age", "Branch", ...(l.worktrees ? ["Worktree"] : []), "Consumed"]);
    for (const h of l.handovers) {
      const slug = h.latest ? `${h.slug} (LATEST)` : h.slug;
      const consumed = h.consumed === null ? "?" : h.consumed ? "yes" : "no";
      const worktree = l.worktrees ? `${cell(h.worktree ?? MAIN_WORKTREE)} | ` : "";
      out.push(
        `| ${cell(h.stale ? `${STALE_MARK} ${slug}` : slug)} | ${cell(h.age)} | ` +
          `${cell(h.branch ?? "?")} | ${worktree}${consumed} |`,
      );
    }
  } else out.push("No stored handovers.");
  out.push("");
  if (l.parked.length) {
    out.push(`Parked items (${l.parked.length} open):`, "");
    tableHead(out, ["Slug", "Raised", "Summary"]);
    for (const p of l.parked) {
      const slug = p.stale ? `${STALE_MARK} ${p.slug}` : p.slug;
      out.push(`| ${cell(slug)} | ${cell(p.raised ?? "?")} | ${cell(p.summary)} |`);
    }
  } else out.push("No parked items.");
  out.push(...tail);
  return out.join("\n");
}

/** The chains of a listing's handovers (listed newest first). */
function forestOf(l: Listing) {
  return chainForest(l.handovers);
}

/** The points of a listing (pure): the store read (even empty), every front matter parsed, ages
 * from `created` / `Raised:`. */
export function listPoints(l: Listing): Point[] {
  const removed = l.removed.length ? `; ${count(l.removed.length, "expired one")} removed` : "";
  const found = `${count(l.handovers.length, "handover")} and ${
    count(l.parked.length, "parked item")
  } found${removed}`;
  const glob = l.notRemoved.length
    ? point(
      "store",
      false,
      `${found}; ${count(l.notRemoved.length, "expired one")} could not be removed`,
      "make the store writable and run list again",
    )
    : point("store", true, l.handovers.length || l.parked.length ? found : `empty: ${found}`);
  const unparsed = l.handovers.filter((h) => h.consumed === null).map((h) => h.slug);
  const frontMatter = unparsed.length
    ? point(
      "front matter",
      false,
      `${unparsed.length} of ${l.handovers.length} without a readable consumed field: ${
        names(unparsed)
      }`,
      "fix or remove those documents' front matter",
    )
    : point(
      "front matter",
      true,
      l.handovers.length ? "every one parsed" : "no documents to parse",
    );
  const undated = l.handovers.filter((h) => h.ageMs === null).map((h) => h.slug);
  const unraised = l.parked.filter((p) => p.raised === null).map((p) => p.slug);
  const ages = point(
    "ages",
    undated.length + unraised.length === 0,
    undated.length + unraised.length === 0
      ? `from \`created\` (${count(l.handovers.length, "handover")}) and \`Raised:\` (${
        count(l.parked.length, "parked item")
      })`
      : [
        undated.length
          ? `${undated.length} without a valid \`created\` (${names(undated)}: kept, never expired)`
          : "",
        unraised.length
          ? `${unraised.length} parked without \`Raised:\` (${names(unraised)}: never stale)`
          : "",
      ].filter(Boolean).join("; "),
    "give each a `created:` (ISO 8601 UTC) or `Raised: YYYY-MM-DD`",
  );
  return [glob, frontMatter, ages];
}

/** Runs `list`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const store = storeFor(ctx, a.dir);
  const l = await listing(store, ctx.now, {
    root: store.root,
    home: ctx.env("HOME") ?? ctx.env("USERPROFILE"),
    configDir: ctx.env("CLAUDE_CONFIG_DIR") || undefined,
    exclude: ctx.env("CLAUDE_CODE_SESSION_ID"),
    dir: a.dir === undefined ? undefined : store.root,
  });
  const points = listPoints(l);
  const tree = a.flags.tree === true;
  if (tree && a.flags.json) l.chains = chainsJson(forestOf(l), new Set(l.removed));
  ctx.out(
    a.flags.json
      ? JSON.stringify({ ...l, confidence: points }, null, 2)
      : `${renderListing(l, ctx.now, tree)}\n${renderConfidence(points)}`,
  );
  if (l.notRemoved.length === 0) return EXIT.ok;
  // The listing is shown, but a removal failed: a failure, said on stderr after it.
  throw new FailureError(
    `could not remove ${l.notRemoved.length} expired handover(s); ` +
      "make the store writable and run list again",
  );
}
