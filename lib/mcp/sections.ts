/**
 * The handover's sections (lib/handover/document.ts `SECTIONS`, the one list) as the `dump`
 * tool's arguments: each title's argument name and what the agent writes there, and the markdown
 * the arguments make — what `dump` reads on stdin. The `dump` prompt describes the same list.
 * @module
 */

import { SECTIONS } from "../handover/document.ts";

/** A section title of the handover. */
export type Title = typeof SECTIONS[number];

/** The argument of each section, and what goes in it (the guidance SKILL.md gives for the CLI). */
export const SECTION_ARGS: Readonly<Record<Title, { arg: string; what: string }>> = {
  "Goal": { arg: "goal", what: "1–3 lines: what we are doing and why" },
  "Where it stopped": {
    arg: "where_it_stopped",
    what: "optional: where the work stands (finished, in progress, waiting, blocked) and why",
  },
  "Decisions": {
    arg: "decisions",
    what: "one line per decision taken: `- decision — why: reason` (never drop one)",
  },
  "Lessons / corrections": {
    arg: "lessons",
    what: "`- ` lines: what failed; what the user corrected",
  },
  "Standing instructions": {
    arg: "instructions",
    what: "`- ` lines: the user's rules still in force, near verbatim",
  },
  "Files touched": {
    arg: "files",
    what: "optional: a files table; left out, it is filled from git and the session's transcript",
  },
  "Outstanding": {
    arg: "outstanding",
    what: "`- **slug** — summary. Why: … Next: …` lines; open parked items are added",
  },
  "Artifacts": { arg: "artifacts", what: "optional: `- ` lines naming outputs kept elsewhere" },
  "Next step": {
    arg: "next_step",
    what: "the one next action, concrete: a file, command, test, identifier or issue",
  },
  "Dropped deliberately": {
    arg: "dropped",
    what: "optional: what was left out on purpose (a default line otherwise)",
  },
};

/** The section arguments in the document's order. */
export const SECTION_LIST: readonly { title: Title; arg: string; what: string }[] = SECTIONS.map(
  (title) => ({ title, ...SECTION_ARGS[title] }),
);

/**
 * The markdown the section arguments make (`## Title`, then the text), in the document's order;
 * empty and missing ones left out. Empty when none has text.
 */
export function sectionsMarkdown(args: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const { title, arg } of SECTION_LIST) {
    const value = args[arg];
    if (typeof value !== "string" || value.trim() === "") continue;
    parts.push(`## ${title}\n\n${value.replace(/\r\n?/g, "\n").trim()}\n`);
  }
  return parts.join("\n");
}
