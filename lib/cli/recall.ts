/**
 * `recall [name]`: prints a handover (named, or LATEST's) without front matter under a banner,
 * marks it consumed, and clears LATEST only when LATEST named this one. A miss says so, lists
 * what exists, and exits 1.
 * @module
 */

import { writeFileAtomic } from "../fs/atomic.ts";
import { markConsumed, splitFrontMatter } from "../store/front_matter.ts";
import { slugify } from "../store/slug.ts";
import { docPath, isSafeSlug, readDoc, type Store } from "../store/store.ts";
import { exists } from "../fs/path.ts";
import { readLatest, recoverClaims, takeLatest, withDocsLock } from "../store/latest.ts";
import { ageMs, formatAge } from "../store/time.ts";
import { type ModeSpec, parseOrHelp } from "./args.ts";
import { EXIT, NotFoundError, UsageError } from "../errors.ts";
import { type Context, storeFor } from "./context.ts";

/** Arguments and help of `recall`. */
export const SPEC: ModeSpec = {
  mode: "recall",
  usage: "recall [name] [--dir DIR]",
  summary: "Prints a handover (named, or the one LATEST points to) and marks it consumed.",
  flags: {},
  maxPositionals: 1,
  notes: ["Example: session.ts recall auth-refactor"],
};

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
  const age = formatAge(ageMs(fields.created, now));
  const when = age === "just now" || age === "unknown age" || age === "in the future"
    ? age
    : `${age} ago`;
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
  // A pointer a killed hook of an earlier version left in a claim is recovered first.
  const slug = name === undefined
    ? readLatest(store) ?? await withDocsLock(store, () => recoverClaims(store))
    : resolveSlug(store, name);
  const text = slug === undefined ? undefined : readDoc(store, slug);
  if (slug === undefined || text === undefined) {
    throw new NotFoundError(
      `${missMessage(store, name, slug)}\n${await whatExists(store, ctx.now)}`,
    );
  }
  const split = splitFrontMatter(text);
  const body = (split?.body ?? text).replace(/\r\n?/g, "\n").trim();
  ctx.out(`${banner(slug, split?.fields ?? {}, ctx.now)}\n\n${body}`);
  const consumed = markConsumed(text);
  if (consumed === undefined && readLatest(store) !== slug) return EXIT.ok;
  // Under the store's docs lock (every writer of a document or LATEST holds it), and only if the
  // document is still the one printed: a dump that replaced it meanwhile is newer, unseen, and kept.
  await withDocsLock(store, async () => {
    if (readDoc(store, slug) !== text) return;
    if (consumed !== undefined) await writeFileAtomic(docPath(store, slug), consumed);
    takeLatest(store, slug);
  });
  return EXIT.ok;
}
