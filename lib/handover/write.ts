/**
 * Writing a handover, the core `dump` and `recover` share: the agent's sections merged with the
 * evidence (the files table, the open items, the artifacts), a free slug chosen, the document
 * written under the store's docs lock, then LATEST pointed at it — both atomic, so LATEST never
 * names a missing document and a failure leaves the store as it was.
 * @module
 */

import { createFileAtomic, writeFileAtomic } from "../fs/atomic.ts";
import { exists } from "../fs/path.ts";
import { FailureError, UsageError } from "../errors.ts";
import type { Evidence, OpenItem } from "./evidence/model.ts";
import { codeSpan, filesSection } from "./files_table.ts";
import {
  DROPPED,
  DROPPED_DEFAULT,
  findSection,
  orderSections,
  parseSections,
  renderHandover,
  type Section,
} from "./document.ts";
import { pointLatest, underLock } from "../store/lifecycle.ts";
import { sessionField } from "../store/front_matter.ts";
import { redactLazily } from "../secrets/lazy.ts";
import { chooseSlug } from "../store/slug.ts";
import { docPath, ensureStore, type Store, storeAt } from "../store/store.ts";

/** What a dump wrote, for its report. */
export interface Dumped {
  slug: string;
  path: string;
  text: string;
  sections: Section[];
  files: number;
}

/**
 * Builds the handover's sections from the agent's markdown and the evidence (pure); the
 * document closes with `## Dropped deliberately`, the agent's or {@link DROPPED_DEFAULT}.
 */
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
    ev.artifacts.map((a) => `- ${codeSpan(`${a.dir}/`)} — ${a.files} file(s) changed within a day`)
      .join("\n");
  out.push(
    { title: "Files touched", content: files.content },
    { title: "Outstanding", content: outstanding.filter((s) => s.trim()).join("\n") },
    { title: "Artifacts", content: artifacts },
  );
  if (!findSection(agent, DROPPED)) out.push({ title: DROPPED, content: DROPPED_DEFAULT });
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

/** Writes the document, then LATEST (both atomic), so LATEST never names a missing document. */
export async function writeHandover(
  markdown: string,
  ev: Evidence,
  opts: {
    now: Date;
    name?: string;
    force?: boolean;
    recovered?: boolean;
    session?: string;
    /** The store to write (default: the root's own, `ev.root`). */
    store?: Store;
    /** The handover the writing session started from (lib/store/latest.ts `restoredSlug`). */
    parent?: string;
  },
): Promise<Dumped> {
  const { sections, files } = composeSections(markdown, ev);
  // A slug and a file name are made of the name: redacted first.
  const name = opts.name === undefined ? undefined : (await redactLazily(opts.name)).text;
  const paths = opts.store ?? storeAt(ev.root);
  ensureStore(paths);
  refuseUnreplaceableLatest(paths.latest);
  // Two dumps racing for one name: the document is created exclusively (createFileAtomic), and
  // the loser takes the next free suffix instead of overwriting the winner's handover.
  const lost = new Set<string>();
  // Under the store's docs lock, which the hook and recall hold while they flip `consumed`: none
  // of them can then write an older version of this document back over the one written here.
  // (lib/store/lifecycle.ts `underLock`: a pointer lost in an older hook's stale claim is older
  // than this one, so it is dropped, never brought back later.)
  return await underLock(paths, async () => {
    for (let attempt = 0;; attempt++) {
      const choice = chooseSlug({
        name,
        branch: ev.branch,
        now: opts.now,
        force: opts.force,
        exists: (slug) => lost.has(slug) || exists(docPath(paths, slug)),
      });
      if ("error" in choice) throw new UsageError(`${choice.error}. Nothing was written`);
      const text = handoverText(choice.slug, ev, opts, sections);
      const path = docPath(paths, choice.slug);
      if (opts.force) await writeFileAtomic(path, text);
      else if (!(await createFileAtomic(path, text))) {
        if (attempt >= 100) {
          throw new FailureError(`could not claim a free name after "${choice.slug}"`);
        }
        lost.add(choice.slug);
        continue;
      }
      try {
        pointLatest(paths, choice.slug, "dump");
      } catch (err) {
        // A document LATEST does not name would never be restored: take back a new one, so the
        // failure leaves the store as it was; an overwrite (--force) cannot be taken back: say so.
        if (!opts.force) await Deno.remove(path).catch(() => {});
        if (!opts.force) throw err;
        throw new FailureError(
          `wrote ${path}, but could not point LATEST at it (${(err as Error).message}); ` +
            `recall it with "session.ts recall ${choice.slug}"`,
        );
      }
      return { slug: choice.slug, path, text, sections, files };
    }
  }, "dump");
}

/** The document a handover named `slug` is (pure): its front matter, then `sections`. */
function handoverText(
  slug: string,
  ev: Evidence,
  opts: { recovered?: boolean; session?: string; parent?: string },
  sections: Section[],
): string {
  const fields = {
    slug,
    created: ev.created,
    branch: ev.branch,
    recovered: opts.recovered,
    session: sessionField(opts.session),
    worktree: ev.worktree,
    parent: opts.parent,
  };
  return renderHandover(fields, sections);
}

/**
 * Refuses a dump while LATEST cannot be replaced, before the document is written: nothing
 * half-done, and the "unchanged" a failure reports stays true. (A rename replaces a symlink or a
 * pipe there, never a directory.)
 */
function refuseUnreplaceableLatest(latest: string): void {
  if (!lstatOrUndefined(latest)?.isDirectory) return;
  throw new FailureError(
    `${latest} is a directory, not the store's pointer file; remove it (rmdir, after ` +
      "checking it holds nothing of yours) and dump again. Nothing was written",
  );
}

function lstatOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}
