/**
 * `dump [name] [--force]`: writes the handover from the agent's sections on stdin and the
 * evidence, then LATEST; prints the path, the counts, the size, the next step and `/clear`.
 * @module
 */

import { createFileAtomic, writeFileAtomic } from "../fs/atomic.ts";
import type { Evidence, OpenItem } from "../handover/evidence.ts";
import { filesSection } from "../handover/files_table.ts";
import { splitFrontMatter } from "../store/front_matter.ts";
import {
  CAP,
  countItems,
  findSection,
  largestSections,
  measure,
  orderSections,
  overage,
  parseSections,
  renderHandover,
  type Section,
} from "../handover/document.ts";
import { chooseSlug, refusal } from "../store/slug.ts";
import { docPath, ensureStore, storeAt } from "../store/store.ts";
import { exists } from "../fs/path.ts";
import { recoverClaims, writeLatest } from "../store/latest.ts";
import { type ModeSpec, parseOrHelp } from "./args.ts";
import { type Context, EXIT, NotFoundError, UsageError, withDocsLock } from "./context.ts";
import { gather, SESSION_FLAG, SINCE_FLAG, TRANSCRIPT_FLAG } from "./evidence.ts";

/** Arguments and help of `dump`. */
export const SPEC: ModeSpec = {
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
    "## Files touched, ## Outstanding, ## Artifacts, ## Next step. The files table is filled",
    "from git where you give none; open parked items are copied into ## Outstanding.",
    "Example: session.ts dump auth-refactor < handover.md",
  ],
};

/** What a dump wrote, for its report. */
export interface Dumped {
  slug: string;
  path: string;
  text: string;
  sections: Section[];
  files: number;
}

/** Builds the handover's sections from the agent's markdown and the evidence (pure). */
export function composeSections(
  markdown: string,
  ev: Evidence,
): { sections: Section[]; files: number } {
  const agent = orderSections(parseSections(markdown));
  const out: Section[] = agent.filter((s) =>
    !["Files touched", "Outstanding", "Artifacts"].includes(s.title)
  );
  const files = filesSection(findSection(agent, "Files touched"), ev.files);
  const outstanding = [findSection(agent, "Outstanding") ?? ""];
  const missing = ev.outstanding.filter((o) => !outstanding[0].includes(`**${o.slug}**`));
  if (missing.length) outstanding.push(copiedItems(missing));
  const artifacts = findSection(agent, "Artifacts") ??
    ev.artifacts.map((a) => `- \`${a.dir}/\` — ${a.files} file(s) changed within a day`).join("\n");
  out.push(
    { title: "Files touched", content: files.content },
    { title: "Outstanding", content: outstanding.filter((s) => s.trim()).join("\n") },
    { title: "Artifacts", content: artifacts },
  );
  return { sections: orderSections(out), files: files.files };
}

/** At most this many open items are copied into `## Outstanding`; the rest are counted. */
export const MAX_COPIED = 25;

/**
 * The open items a dump copies: the session's unfinished tasks first (only this handover knows
 * them), then parked items; over {@link MAX_COPIED} the rest are counted, never silently cut.
 */
export function copiedItems(items: OpenItem[]): string {
  const ordered = [
    ...items.filter((o) => o.source !== "parked"),
    ...items.filter((o) => o.source === "parked"),
  ];
  const lines = ordered.slice(0, MAX_COPIED).map((o) => `- ${o.text}`);
  const rest = ordered.length - MAX_COPIED;
  if (rest > 0) {
    lines.push(
      `(… and ${rest} more open item${
        rest === 1 ? "" : "s"
      }: \`session.ts list\` shows every parked one.)`,
    );
  }
  return lines.join("\n");
}

/** The agent's markdown from stdin: refused when empty or binary; a pasted front matter dropped. */
export function agentMarkdown(stdin: string): string {
  const text = stdin.replace(/^\uFEFF/, "");
  if (text.includes("\0")) {
    throw new UsageError(
      "stdin looks binary; pipe the handover's markdown sections. Nothing was written",
    );
  }
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
  const a = await parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const name = a.positionals[0];
  const why = name === undefined ? undefined : refusal(name);
  if (why) throw new UsageError(`${why}. Nothing was written`);
  const markdown = agentMarkdown(await ctx.readStdin());
  const ev = await gather(ctx, {
    since: a.flags.since as string | undefined,
    dir: a.dir,
    transcript: a.flags.transcript as string | undefined,
    session: a.flags.session as string | undefined,
  });
  const dumped = await dump(markdown, ev, ctx, { name, force: a.flags.force === true });
  report(dumped, ctx);
  return EXIT.ok;
}

/** Writes the document, then LATEST (both atomic), so LATEST never names a missing document. */
export async function dump(
  markdown: string,
  ev: Evidence,
  ctx: Context,
  opts: { name?: string; force?: boolean; recovered?: boolean },
): Promise<Dumped> {
  const { sections, files } = composeSections(markdown, ev);
  const paths = storeAt(ev.root);
  ensureStore(paths);
  // LATEST must be replaceable before the document is written: nothing half-done, and the
  // "unchanged" a failure reports stays true.
  // (A rename replaces a symlink or a pipe there, never a directory.)
  if (lstatOrUndefined(paths.latest)?.isDirectory) {
    throw new NotFoundError(
      `${paths.latest} is a directory, not the store's pointer file; remove it (rmdir, after ` +
        "checking it holds nothing of yours) and dump again. Nothing was written",
    );
  }
  // Two dumps racing for one name: the document is created exclusively (createFileAtomic), and
  // the loser takes the next free suffix instead of overwriting the winner's handover.
  const lost = new Set<string>();
  // Under the store's docs lock, which the hook and recall hold while they flip `consumed`: none
  // of them can then write an older version of this document back over the one written here.
  return await withDocsLock(paths, async () => {
    for (let attempt = 0;; attempt++) {
      const choice = chooseSlug({
        name: opts.name,
        branch: ev.branch,
        now: ctx.now,
        force: opts.force,
        exists: (slug) => lost.has(slug) || exists(docPath(paths, slug)),
      });
      if ("error" in choice) throw new UsageError(`${choice.error}. Nothing was written`);
      const text = renderHandover(
        { slug: choice.slug, created: ev.created, branch: ev.branch, recovered: opts.recovered },
        sections,
      );
      const path = docPath(paths, choice.slug);
      if (opts.force) await writeFileAtomic(path, text);
      else if (!(await createFileAtomic(path, text))) {
        if (attempt >= 100) throw new Error(`could not claim a free name after "${choice.slug}"`);
        lost.add(choice.slug);
        continue;
      }
      // A pointer lost in a stale claim is older than this one: it must not come back later.
      recoverClaims(paths, Date.now(), false);
      try {
        writeLatest(paths, choice.slug);
      } catch (err) {
        // A document LATEST does not name would never be restored: take back a new one, so the
        // failure leaves the store as it was; an overwrite (--force) cannot be taken back: say so.
        if (!opts.force) await Deno.remove(path).catch(() => {});
        if (!opts.force) throw err;
        throw new NotFoundError(
          `wrote ${path}, but could not point LATEST at it (${(err as Error).message}); ` +
            `recall it with "session.ts recall ${choice.slug}"`,
        );
      }
      return { slug: choice.slug, path, text, sections, files };
    }
  });
}

function lstatOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Prints what was written; `/clear` is always the very last line. */
export function report(d: Dumped, ctx: Context): void {
  const size = measure(d.text);
  const decisions = countItems(findSection(d.sections, "Decisions"));
  const outstanding = countItems(findSection(d.sections, "Outstanding"));
  const lines = [
    `Wrote ${d.path}`,
    `LATEST → ${d.slug}`,
    `Counts: ${d.files} file${d.files === 1 ? "" : "s"}, ${decisions} decision${
      decisions === 1 ? "" : "s"
    }, ${outstanding} outstanding`,
    `Size: ${size.lines} lines, ~${size.tokens} tokens (cap ${CAP.lines} lines / ~1,500 tokens)`,
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
  const next = findSection(d.sections, "Next step");
  if (next) lines.push(`Next step: ${next.split("\n").find((l) => l.trim())!.trim()}`);
  lines.push(
    "Now clear the context: the SessionStart hook restores this handover once, within 30 minutes.",
    "/clear",
  );
  ctx.out(lines.join("\n"));
}
