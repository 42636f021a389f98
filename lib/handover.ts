/**
 * The handover document's body: its `##` sections, in the spec's order, and the digest the hook
 * injects when a body is too large for the agent's context preview.
 * @module
 */

/** The sections of a handover, in the order they are written. */
export const SECTIONS = [
  "Goal",
  "Decisions",
  "Lessons / corrections",
  "Standing instructions",
  "Files touched",
  "Outstanding",
  "Artifacts",
  "Next step",
] as const;

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

/** Bodies longer than this are replaced by a digest in the hook's context. */
export const DIGEST_THRESHOLD = 8_000;
/** The whole injected context never exceeds this many characters. */
export const CONTEXT_LIMIT = 9_500;

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
        kept.push(lines[i].slice(0, room - 1) + "…");
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
