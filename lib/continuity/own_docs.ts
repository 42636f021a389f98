/**
 * The store's documents of one agent session (front matter `session:`), found cheaply: "did this
 * session dump?" is the first question of every SessionEnd. One listing, a substring test per
 * document before any parsing, and `created` read as dump writes it by lib/hook/fast.ts, which
 * the hook has loaded already (lib/store/time.ts would be one more module to load).
 * @module
 */

import { splitFrontMatter } from "../store/front_matter.ts";
import { isSafeSlug, type Store } from "../store/store.ts";
import { dumpStampMs } from "../hook/fast.ts";

/** The title of the section session_end.ts appends (since.ts builds it). */
export const SINCE_TITLE = "Since the dump";

/** A document of the store that came from one session. */
export interface SessionDoc {
  slug: string;
  fields: Record<string, string>;
  /** `created` in ms, NaN when it is missing or not a stamp. */
  created: number;
}

/**
 * The store's documents that say they came from `session` (front matter `session:`), newest
 * first. Hidden files and other names are never documents; a symlinked or unreadable one is
 * passed over (readDoc's confinement applies when it is read whole).
 */
export function sessionDocs(store: Store, session: string): SessionDoc[] {
  const found: SessionDoc[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(store.dir)];
  } catch {
    return found;
  }
  for (const e of entries) {
    if (!e.isFile || !e.name.endsWith(".md")) continue;
    const slug = e.name.slice(0, -3);
    if (!isSafeSlug(slug)) continue;
    // The whole document: readTextFileSync decodes natively, cheaper in a fresh process than a
    // partial read through TextDecoder; documents are small (a dump is capped, docs/SPEC.md).
    const head = readText(`${store.dir}/${e.name}`);
    // A cheap test first: most documents are other sessions'.
    if (head === undefined || !head.includes(session)) continue;
    const fields = splitFrontMatter(head)?.fields;
    if (fields?.session !== session) continue;
    found.push({ slug, fields, created: dumpStampMs(fields.created ?? "") ?? NaN });
  }
  return found.sort((a, b) => (b.created || 0) - (a.created || 0));
}

/** Whether a document already carries the "Since the dump" section. */
export function hasSince(text: string): boolean {
  return new RegExp(`(^|\\n)## ${SINCE_TITLE}[ \\t]*\\r?\\n`).test(text);
}

/** A file's text, or undefined when it cannot be read. */
function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}
