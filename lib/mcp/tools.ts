/**
 * The MCP tools: each is a CLI mode (`dump`, `recall`, `list`, `park`, `drop`, `search`), its
 * arguments turned into that mode's words ({@link TOOLS}`.argv`, pure) and its run into a tool
 * result ({@link toolResult}): the CLI's output as text, a failing exit as `isError` with the
 * CLI's own message first. Arguments are names, words and sections, never a path or `--dir`:
 * every word an argument gives comes after `--` (or as `--flag=value`), so none is read as a flag.
 * `drop` returns a tie as `choices`, dropping nothing.
 * @module
 */

import { z } from "zod";
import { EXIT } from "../errors.ts";
import { EXPIRY_MS, spanWords } from "../store/time.ts";
import type { CliRun } from "./cli_run.ts";
import { SECTION_LIST, sectionsMarkdown } from "./sections.ts";

/** A tool result as the SDK takes it. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

/** What a tool asks the CLI to run. */
export interface Invocation {
  argv: string[];
  stdin?: string;
}

/** `--name=value` for a string argument that is set, nothing otherwise. */
function valueFlag(name: string, value: unknown): string[] {
  return typeof value === "string" && value !== "" ? [`--${name}=${value}`] : [];
}

/** `--name` for a boolean argument that is true. */
function boolFlag(name: string, value: unknown): string[] {
  return value === true ? [`--${name}`] : [];
}

/** The words after `--`: each given word, none when there are none. */
function words(...list: (string | undefined)[]): string[] {
  const given = list.filter((w): w is string => w !== undefined && w !== "");
  return given.length ? ["--", ...given] : [];
}

const name = z.string().max(200);

/** One tool: its description, argument shape and the CLI run it makes. */
export interface ToolDef {
  description: string;
  shape: z.ZodRawShape;
  /** The mode's words (without `--dir`, which the server adds for a pinned project). */
  invoke: (args: Record<string, unknown>) => Invocation;
}

/** The section arguments of `dump`. */
const SECTION_SHAPE: z.ZodRawShape = Object.fromEntries(
  SECTION_LIST.map((s) => [s.arg, z.string().optional().describe(`## ${s.title}: ${s.what}`)]),
);

/** Every tool, by name. */
export const TOOLS: Readonly<Record<string, ToolDef>> = {
  dump: {
    description: "Write a handover of this session from its sections (the CLI's `dump`): the " +
      "script adds the branch, the files table from git and the transcript, parked items and " +
      "the size cap, points LATEST at it and answers with a `## Confidence` block. Fix each ⚠ " +
      "and call it again once with the printed name and force: true. Then tell the user: " +
      '"Handover saved — send /clear."',
    shape: {
      name: name.optional().describe("the handover's name (default: from the goal)"),
      force: z.boolean().optional().describe("overwrite the handover of that name"),
      since: z.string().max(40).optional().describe(
        "when the session started: 90m, 8h, 2d or an ISO date",
      ),
      session: z.string().max(200).optional().describe(
        "the agent session id whose transcript to read",
      ),
      ...SECTION_SHAPE,
    },
    invoke: (a) => ({
      argv: [
        "dump",
        ...boolFlag("force", a.force),
        ...valueFlag("since", a.since),
        ...valueFlag("session", a.session),
        ...words(a.name as string | undefined),
      ],
      stdin: sectionsMarkdown(a),
    }),
  },
  recall: {
    description: "Print a handover (the pending one, or the named one) and mark it consumed " +
      "(the CLI's `recall`); continue from its Next step.",
    shape: {
      name: name.optional().describe("a handover's slug (default: the pending one)"),
      chain: z.boolean().optional().describe(
        "the goals, decisions and lessons of it and its parent: handovers",
      ),
    },
    invoke: (a) => ({
      argv: ["recall", ...boolFlag("chain", a.chain), ...words(a.name as string | undefined)],
    }),
  },
  list: {
    description: "List the handovers and parked items, stale ones flagged, after removing " +
      `handovers over ${spanWords(EXPIRY_MS)} old (the CLI's \`list\`).`,
    shape: {
      tree: z.boolean().optional().describe("handovers in their chains"),
      json: z.boolean().optional().describe("also as structured content (list --json)"),
    },
    invoke: (a) => ({ argv: ["list", ...boolFlag("tree", a.tree), ...boolFlag("json", a.json)] }),
  },
  park: {
    description: "Park an open loop in PARKED.md, where it survives every dump until dropped " +
      "(the CLI's `park`; the same slug updates it).",
    shape: {
      summary: z.string().min(1).max(2000).describe("the open loop, one line"),
      why: z.string().max(2000).optional().describe("why it is open"),
      next: z.string().max(2000).optional().describe("the next action"),
      slug: name.optional().describe("the item's slug (default: from the summary)"),
    },
    invoke: (a) => ({
      argv: [
        "park",
        ...valueFlag("why", a.why),
        ...valueFlag("next", a.next),
        ...valueFlag("slug", a.slug),
        ...words(a.summary as string),
      ],
    }),
  },
  drop: {
    description: "Drop the one parked item a query names (the CLI's `drop`: an exact slug, or " +
      "a few words, typos forgiven). Two equally close: nothing is dropped and the result's " +
      "`choices` lists them; ask the user which, then drop that exact slug.",
    shape: { query: z.string().min(1).max(500).describe("the item's slug or words of it") },
    invoke: (a) => ({ argv: ["drop", ...words(a.query as string)] }),
  },
  search: {
    description: "Find handover sections, parked and dropped items holding every word, exact " +
      "before fuzzy (the CLI's `search`); use it before guessing what was decided or why.",
    shape: {
      words: z.string().min(1).max(500).describe("1–3 distinctive words"),
      json: z.boolean().optional().describe("also as structured content (search --json)"),
    },
    invoke: (a) => ({
      argv: [
        "search",
        ...boolFlag("json", a.json),
        ...words(...String(a.words).split(/\s+/)),
      ],
    }),
  },
};

/** One of the closest items a tied `drop` lists. */
export interface Choice {
  slug: string;
  summary: string;
  /** The day it was raised, when the item says. */
  raised?: string;
}

/**
 * The items a tied `drop` printed (`  1. <slug> — <summary> (raised <day>) [how]`, lib/cli/drop.ts
 * over lib/parked/grammar.ts `itemLine`), in its order.
 */
export function dropChoices(out: string): Choice[] {
  const choices: Choice[] = [];
  const line = /^ {2}\d+\. (\S+) — (.*?)(?: \(raised ([^)]*)\))? \[(?:exact slug|\d+ edits?)\]$/gm;
  for (const m of out.matchAll(line)) {
    choices.push(
      m[3] ? { slug: m[1], summary: m[2], raised: m[3] } : { slug: m[1], summary: m[2] },
    );
  }
  return choices;
}

/** `text` split off at the last `## Confidence` block: [before, block]. */
export function splitConfidence(text: string): [string, string] {
  const at = text.lastIndexOf("\n## Confidence\n");
  if (at < 0) return text.startsWith("## Confidence\n") ? ["", text] : [text, ""];
  return [text.slice(0, at).trimEnd(), text.slice(at + 1)];
}

/**
 * A CLI run as a tool result: its stdout and stderr as text (a failure's message first), a
 * failing exit as `isError`; `json`: stdout parsed as structured content; a tied drop's
 * `choices`.
 */
export function toolResult(tool: string, run: CliRun, json = false): ToolResult {
  const failed = run.code !== EXIT.ok;
  const texts = (failed ? [run.err, run.out] : [run.out, run.err]).filter((t) => t.trim() !== "");
  const result: ToolResult = {
    content: (texts.length ? texts : ["(no output)"]).map((text) => ({ type: "text", text })),
  };
  if (failed) result.isError = true;
  if (tool === "drop" && run.code === EXIT.ambiguous) {
    result.structuredContent = { exitCode: run.code, choices: dropChoices(run.out) };
  } else if (json && !failed) {
    try {
      result.structuredContent = JSON.parse(run.out);
    } catch { /* not one JSON object: the text stands */ }
  }
  return result;
}
