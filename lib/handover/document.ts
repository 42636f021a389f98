/**
 * The handover document, one concept: its `##` sections (parsed, matched by title, put in the
 * document's order), the document rendered with its front matter, its size against the cap that
 * `dump` reports, and the digest the hook injects when a body is too large for the agent's
 * context preview. Writing one to the store is lib/handover/write.ts.
 * @module
 */

import { clip } from "../text/cut.ts";

/** The sections of a handover, in the order they are written. */
export const SECTIONS = [
  "Goal",
  "Where it stopped",
  "Decisions",
  "Lessons / corrections",
  "Standing instructions",
  "Files touched",
  "Outstanding",
  "Artifacts",
  "Next step",
  "Dropped deliberately",
] as const;

/** The section a draft states where the session stopped in (lib/handover/stopped.ts). */
export const WHERE_IT_STOPPED = "Where it stopped";

/** The section that always closes a document: what was left out on purpose. */
export const DROPPED = "Dropped deliberately";

/** {@link DROPPED}'s line when the agent names nothing: the gaps a handover leaves by design. */
export const DROPPED_DEFAULT =
  "Implementation detail, tool output and the exploration transcript: the code, git and the " +
  "session's transcript hold them.";

/** One `## Title` section: its title and the lines under it (without the heading). */
export interface Section {
  title: string;
  content: string;
}

/**
 * Splits a body into sections at `## ` headings outside fenced code blocks. Text before the
 * first heading is returned with an empty title. Accepts LF and CRLF; content uses LF.
 */
export function parseSections(body: string): Section[] {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const out: Section[] = [];
  let current: Section = { title: "", content: "" };
  const buf: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    current.content = buf.join("\n").replace(/^\n+|\s+$/g, "");
    if (current.title || current.content) out.push(current);
    buf.length = 0;
  };
  for (const line of lines) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
    }
    const h = fence === undefined ? /^##[ \t]+(.+?)[ \t#]*$/.exec(line) : null;
    if (h) {
      flush();
      current = { title: h[1].trim(), content: "" };
    } else {
      buf.push(line);
    }
  }
  flush();
  return out;
}

/** Normalises a heading for lookup: case, spacing and a trailing parenthetical are ignored. */
export function sectionKey(title: string): string {
  return title.toLowerCase().replace(/\(.*\)\s*$/, "").replace(/[^a-z0-9]+/g, " ").trim();
}

/** The content of the section titled `title` (matched by {@link sectionKey}), if present. */
export function findSection(sections: Section[], title: string): string | undefined {
  const key = sectionKey(title);
  return sections.find((s) => sectionKey(s.title) === key)?.content;
}

/**
 * Cuts `text` to at most `max` characters at a line boundary, stating how many lines were elided.
 * Table rows are counted as rows so the note reads naturally under a files table.
 */
export function capLines(text: string, max: number): string {
  if (text.length <= max) return text;
  const lines = text.split("\n");
  const kept: string[] = [];
  let size = 0;
  for (let i = 0; i < lines.length; i++) {
    const remaining = lines.length - i;
    const note = `… ${remaining} more line${remaining === 1 ? "" : "s"} elided`;
    if (size + lines[i].length + 1 + note.length + 1 > max) {
      const isTable = lines.slice(i).every((l) => l.startsWith("|"));
      // A long prose line is cut inside rather than lost whole; table rows stay whole.
      const room = max - size - note.length - 2;
      if (!isTable && room > 40) {
        kept.push(clip(lines[i], room));
        const rest = remaining - 1;
        if (rest > 0) kept.push(`… ${rest} more line${rest === 1 ? "" : "s"} elided`);
        return kept.join("\n");
      }
      const what = isTable ? "row" : "line";
      kept.push(`… ${remaining} more ${what}${remaining === 1 ? "" : "s"} elided`);
      return kept.join("\n");
    }
    kept.push(lines[i]);
    size += lines[i].length + 1;
  }
  return kept.join("\n");
}

/**
 * A digest of a large body: Goal, Files touched and Next step, each capped so that the digest
 * fits `budget` characters, ending with the recall command for the full document.
 */
export function buildDigest(body: string, recallCommand: string, budget: number): string {
  const sections = parseSections(body);
  const footer = `\n\n(Digest of a large handover. Full document: \`${recallCommand}\`)`;
  const parts: [string, string | undefined, number][] = [
    ["Goal", findSection(sections, "Goal"), 0.25],
    ["Next step", findSection(sections, "Next step"), 0.2],
    ["Files touched", findSection(sections, "Files touched"), 0.55],
  ];
  const room = Math.max(0, budget - footer.length - 3 * 20);
  const shares = new Map<string, number>();
  let spare = room;
  for (const [title, content, share] of parts) {
    const want = content?.length ?? 0;
    const give = Math.min(want, Math.floor(room * share));
    shares.set(title, give);
    spare -= give;
  }
  // Hand what short sections left unused to the ones that were cut.
  for (const [title, content] of parts) {
    const want = content?.length ?? 0;
    const have = shares.get(title)!;
    if (want > have && spare > 0) {
      const extra = Math.min(spare, want - have);
      shares.set(title, have + extra);
      spare -= extra;
    }
  }
  const out: string[] = [];
  for (const title of ["Goal", "Files touched", "Next step"]) {
    const content = parts.find((p) => p[0] === title)![1];
    if (!content) continue;
    out.push(`## ${title}\n\n${capLines(content, shares.get(title)!)}`);
  }
  return (out.join("\n\n") + footer).trimStart();
}

/** The size cap of a handover: over it the document is still written, and `dump` says so. */
export const CAP = { lines: 75, tokens: 1_500 } as const;

/**
 * {@link CAP}'s tokens as messages state them: `1,500`. A function, not a constant: the first
 * `toLocaleString` loads the runtime's locale data (~15 ms), which every importer of this module
 * (`recall`, the hook's digest) would pay at load; only a message that states the cap pays it.
 */
export function capTokens(): string {
  return CAP.tokens.toLocaleString("en-US");
}

/** Front-matter facts of a new handover. */
export interface HandoverMeta {
  slug: string;
  created: string;
  branch: string;
  /** Drafted by `recover` from a transcript rather than written by the agent. */
  recovered?: boolean;
  /** The agent session the document came from (`session:`): "did this session dump?". */
  session?: string;
  /** Drafted automatically at SessionEnd (`draft: auto`), not written by the agent. */
  draft?: boolean;
  /** The linked worktree it was written in (`worktree:`), when it was. */
  worktree?: string;
  /** The handover the writing session started from (`parent:`): the chain of a long task. */
  parent?: string;
}

/** The canonical title of a known section `title` names (`Files` → `Files touched`), if any. */
export function knownTitle(title: string): (typeof SECTIONS)[number] | undefined {
  // Plurals fold to singular word by word, so `Next steps` and `Goals` find their sections.
  const fold = (t: string) => sectionKey(t).replace(/s\b/g, "");
  const key = fold(title);
  if (key === "") return undefined;
  return SECTIONS.find((s) => fold(s) === key) ??
    SECTIONS.find((s) => fold(s).split(" ")[0] === key);
}

/**
 * Puts sections in the document's order: the known ones in docs/STORE.md's order under their
 * canonical titles (repeats merged), then the agent's unknown ones in its order, then
 * {@link DROPPED}, which closes the document; empty sections are dropped. Text before the first
 * heading stays first.
 */
export function orderSections(sections: Section[]): Section[] {
  const known = new Map<string, string[]>();
  const preamble: Section[] = [];
  const unknown: Section[] = [];
  for (const s of sections) {
    if (s.content.trim() === "") continue;
    if (s.title === "") {
      preamble.push(s);
      continue;
    }
    const title = knownTitle(s.title);
    if (title) known.set(title, [...(known.get(title) ?? []), s.content]);
    else unknown.push(s);
  }
  const ordered = SECTIONS.filter((t) => known.has(t)).map((title) => ({
    title: title as string,
    content: known.get(title)!.join("\n\n"),
  }));
  const last = ordered.at(-1)?.title === DROPPED ? ordered.splice(-1) : [];
  return [...preamble, ...ordered, ...unknown, ...last];
}

/** The handover document: front matter, then the sections (already ordered) under `##`. */
export function renderHandover(meta: HandoverMeta, sections: Section[]): string {
  const head = `---\nslug: ${meta.slug}\ncreated: ${meta.created}\nconsumed: false\nbranch: ${
    meta.branch.replace(/[\r\n]/g, "")
  }\n${meta.recovered ? "recovered: true\n" : ""}${
    meta.session ? `session: ${meta.session}\n` : ""
  }${meta.worktree ? `worktree: ${meta.worktree}\n` : ""}${meta.draft ? "draft: auto\n" : ""}${
    meta.parent && meta.parent !== meta.slug ? `parent: ${meta.parent}\n` : ""
  }---\n`;
  const body = sections
    .map((s) => (s.title ? `## ${s.title}\n\n${s.content}` : s.content))
    .join("\n\n");
  return `${head}\n${body}\n`;
}

/** The size of a text: lines, characters, and tokens estimated as characters / 4. */
export interface Size {
  lines: number;
  chars: number;
  tokens: number;
}

/** Measures `text` (a trailing newline does not count as a line). */
export function measure(text: string): Size {
  const trimmed = text.replace(/\r\n?/g, "\n").replace(/\n$/, "");
  return {
    lines: trimmed === "" ? 0 : trimmed.split("\n").length,
    chars: trimmed.length,
    tokens: Math.ceil(trimmed.length / 4),
  };
}

/** How far `size` is over {@link CAP}, e.g. `12 lines over 75, ~340 tokens over 1,500`; undefined within. */
export function overage(size: Size): string | undefined {
  const parts: string[] = [];
  const n = size.lines - CAP.lines;
  if (n > 0) parts.push(`${n} line${n === 1 ? "" : "s"} over ${CAP.lines}`);
  if (size.tokens > CAP.tokens) {
    parts.push(`~${(size.tokens - CAP.tokens).toLocaleString("en-US")} tokens over ${capTokens()}`);
  }
  return parts.length ? parts.join(", ") : undefined;
}

/** The `n` largest sections by size, largest first. */
export function largestSections(sections: Section[], n = 3): (Size & { title: string })[] {
  return sections
    .map((s) => ({ title: s.title || "(before the first heading)", ...measure(s.content) }))
    .sort((a, b) => b.chars - a.chars)
    .slice(0, n);
}

/** The top-level list items (`-`, `*`, `+`, `1.`) of a section's content, with their continuations. */
export function listItems(content: string | undefined): string[] {
  const items: string[] = [];
  for (const line of (content ?? "").replace(/\r\n?/g, "\n").split("\n")) {
    if (/^ ?(?:[-*+]|\d+[.)])[ \t]+\S/.test(line)) items.push(line.trim());
    else if (items.length && line.trim()) items[items.length - 1] += `\n${line.trim()}`;
  }
  return items;
}

/** The number of top-level list items in a section's content. */
export function countItems(content: string | undefined): number {
  return listItems(content).length;
}
