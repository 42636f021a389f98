/**
 * The store's documents of one agent session (front matter `session:`), found cheaply: "did this
 * session dump?" is the first question of every SessionEnd. One listing (often the one
 * lib/hook/fast.ts `plainStore` made), a substring test per document before any parsing, and the
 * front matter read as dump writes it by lib/hook/fast.ts, which the hook has loaded already
 * (lib/store/front_matter.ts reads any other shape, e.g. a draft's).
 * @module
 */

import { splitFrontMatter } from "../store/front_matter.ts";
import { dumpStampMs, parseHead } from "../hook/fast.ts";

/** The title of the section session_end.ts appends (since.ts builds it). */
export const SINCE_TITLE = "Since the dump";

/** A document of the store that came from one session. */
export interface SessionDoc {
  slug: string;
  fields: Record<string, string>;
  /** `created` in ms, NaN when it is missing or not a stamp. */
  created: number;
  /** The document's text as read. */
  text: string;
}

/**
 * The store's documents that say they came from `session` (front matter `session:`), newest
 * first. Hidden files and other names are never documents; a symlinked or unreadable one is
 * passed over (readDoc's confinement applies when it is read whole).
 */
export function sessionDocs(
  dir: string,
  session: string,
  names: Map<string, string> | undefined = listFiles(dir),
): SessionDoc[] {
  const found: SessionDoc[] = [];
  for (const [name, kind] of names ?? []) {
    // Regular files only; hidden names (temp files, the compaction card) are never documents.
    if (kind !== "file" || !name.endsWith(".md") || name.startsWith(".")) continue;
    const slug = name.slice(0, -3);
    // The whole document: readTextFileSync decodes natively, cheaper in a fresh process than a
    // partial read through TextDecoder; documents are small (a dump is capped, docs/SPEC.md).
    const head = readText(`${dir}/${name}`);
    // A cheap test first: most documents are other sessions'.
    if (head === undefined || !head.includes(session)) continue;
    const fields = (parseHead(head) ?? splitFrontMatter(head))?.fields;
    if (fields?.session !== session) continue;
    found.push({ slug, fields, created: dumpStampMs(fields.created ?? "") ?? NaN, text: head });
  }
  return found.sort((a, b) => (b.created || 0) - (a.created || 0));
}

/**
 * Whether a document already carries the "Since the dump" section: a line `## Since the dump`
 * (trailing blanks allowed). Spelled out: a regex's first use costs more in the hook.
 */
export function hasSince(text: string): boolean {
  const title = `## ${SINCE_TITLE}`;
  for (let at = text.indexOf(title); at !== -1; at = text.indexOf(title, at + 1)) {
    if (at > 0 && text[at - 1] !== "\n") continue;
    let end = at + title.length;
    while (text[end] === " " || text[end] === "\t") end++;
    if (text[end] === "\r") end++;
    if (text[end] === "\n") return true;
  }
  return false;
}

/** A file's text, or undefined when it cannot be read. */
function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** A directory's entries as lib/hook/fast.ts `plainStore` lists them, or undefined. */
function listFiles(dir: string): Map<string, string> | undefined {
  try {
    const names = new Map<string, string>();
    for (const e of Deno.readDirSync(dir)) names.set(e.name, e.isFile ? "file" : "other");
    return names;
  } catch {
    return undefined;
  }
}
