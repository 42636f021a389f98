/**
 * The store as MCP resources: the pending handover (the one LATEST names), each handover by slug,
 * and PARKED.md; all read as stored and redacted on the way out (lib/secrets/), as everything the
 * CLI prints is. Reading a resource changes nothing: only `restore` and `recall` mark a handover
 * consumed. The store's fingerprint tells the server when to send `list_changed`.
 * @module
 */

import { TEMP_PREFIX } from "../fs/atomic.ts";
import { join } from "../fs/path.ts";
import { catalog, type DocEntry } from "../store/catalog.ts";
import { readLatest } from "../store/latest.ts";
import { readDoc, type Store } from "../store/store.ts";
import { formatAgo } from "../store/time.ts";
import { redactLazily } from "../secrets/lazy.ts";

/** The resources' addresses. */
export const URIS = {
  pending: "session://pending",
  parked: "session://parked",
  /** RFC 6570 template of one handover. */
  handover: "session://handover/{slug}",
} as const;

/** The address of handover `slug`. */
export function handoverUri(slug: string): string {
  return `session://handover/${encodeURIComponent(slug)}`;
}

/** One resource's contents, as `resources/read` returns it. */
export interface Contents {
  uri: string;
  mimeType: string;
  text: string;
}

/** `text` redacted, as one markdown contents of `uri`. */
async function markdown(uri: string, text: string): Promise<Contents> {
  return { uri, mimeType: "text/markdown", text: (await redactLazily(text)).text };
}

/** Handover `slug` as stored, or undefined when the store holds no such readable document. */
export function readHandover(store: Store, slug: string, uri = handoverUri(slug)) {
  const text = readDoc(store, slug);
  return text === undefined ? undefined : markdown(uri, text);
}

/** The pending handover, or a line saying there is none (the resource is always listed). */
export async function readPending(store: Store): Promise<Contents> {
  const slug = readLatest(store);
  const doc = slug === undefined ? undefined : await readHandover(store, slug, URIS.pending);
  return doc ?? markdown(
    URIS.pending,
    slug === undefined
      ? "No pending handover: LATEST is empty."
      : `LATEST names "${slug}", but the store has no such readable document.`,
  );
}

/** PARKED.md as stored, or a line saying nothing is parked. */
export async function readParkedFile(store: Store): Promise<Contents> {
  let text: string;
  try {
    text = await Deno.readTextFile(store.parked);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    text = "No parked items: PARKED.md does not exist yet.";
  }
  return markdown(URIS.parked, text);
}

/** What a handover's entry says in a listing: its age, branch, and whether it was restored. */
export function describe(d: DocEntry): string {
  const parts = [`dumped ${formatAgo(d.ageMs)}`];
  if (d.branch) parts.push(`branch ${d.branch}`);
  if (d.consumed) parts.push("consumed");
  return parts.join(", ");
}

/** Every handover as a listed resource, newest first. */
export function handoverList(store: Store, now: Date) {
  return catalog(store, now).map((d) => ({
    uri: handoverUri(d.slug),
    name: d.slug,
    title: d.slug,
    description: describe(d),
    mimeType: "text/markdown",
  }));
}

/**
 * What the store holds, as one string that changes whenever a document, LATEST or PARKED.md is
 * written, renamed or removed (names, sizes, modification times; temp files and the catalog's
 * cache left out). Empty for a store that does not exist.
 */
export function fingerprint(store: Store): string {
  const parts: string[] = [];
  try {
    for (const e of Deno.readDirSync(store.dir)) {
      if (e.name.startsWith(TEMP_PREFIX) || e.name.startsWith(".")) continue;
      if (!e.name.endsWith(".md") && e.name !== "LATEST") continue;
      try {
        const s = Deno.statSync(join(store.dir, e.name));
        parts.push(`${e.name}:${s.size}:${s.mtime?.getTime() ?? 0}`);
      } catch {
        parts.push(`${e.name}:gone`);
      }
    }
  } catch {
    return "";
  }
  return parts.sort().join("\n");
}
