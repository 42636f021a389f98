/**
 * The handover's `| File | Change | State | Ref |` table: built from evidence, read back from the
 * agent's own table, merged (the agent's Change and State win; evidence fills what is missing and
 * adds the files the agent forgot), and rendered with at most 25 rows — over that, rows are
 * grouped by directory and the elided count is stated, never silently cut.
 * @module
 */

import { longestBacktickRun } from "../frame/fence.ts";
import type { EvidenceFile } from "./evidence/model.ts";

/** One row of the files table. */
export interface Row {
  file: string;
  change: string;
  state: string;
  ref: string;
}

/** The table's header line. */
export const HEADER = "| File | Change | State | Ref |";
/** At most this many rows are written. */
export const MAX_ROWS = 25;

/**
 * `text` as a Markdown code span that shows it whole: fenced by one backtick more than its longest
 * backtick run, padded with a space where it starts or ends with a backtick (or with a space at
 * both ends, which a reader would strip). Line breaks become spaces: a path may hold them, and a
 * line of its own in the document could pass for a heading or end the table.
 */
export function codeSpan(text: string): string {
  // `includes` first: a dump's table renders thousands of plain paths.
  const one = text.includes("\n") || text.includes("\r") ? text.replace(LINE_BREAK, " ") : text;
  const fence = one.includes("`") ? "`".repeat(longestBacktickRun(one) + 1) : "`";
  const space = pad(one) ? " " : "";
  return `${fence}${space}${one}${space}${fence}`;
}

/** Whether a code span's content needs a space at each end (CommonMark strips one from each). */
function pad(text: string): boolean {
  return text.startsWith("`") || text.endsWith("`") ||
    (text.startsWith(" ") && text.endsWith(" ") && text.trim() !== "");
}

/** A line break as Markdown (and the table reader) sees one: LF, CRLF or a lone CR. */
const LINE_BREAK = /\r\n?|\n/g;

/**
 * The text of a cell that is one code span (as {@link codeSpan} writes it), else undefined: a
 * fence, then text, then the same fence not part of a longer run.
 */
function codeSpanText(cell: string): string | undefined {
  let n = 0;
  while (cell.charCodeAt(n) === 96) n++; // no regex: grouping keys thousands of rows
  const fence = cell.slice(0, n);
  if (n === 0 || cell.length <= 2 * n || !cell.endsWith(fence)) return undefined;
  const inner = cell.slice(n, -n);
  // A closing run longer than the fence, or a run as long inside, is not this span's end.
  if (
    inner.includes("`") &&
    (inner.endsWith("`") || inner.match(/`+/g)!.some((run) => run.length === n))
  ) {
    return undefined;
  }
  // CommonMark's reading: one space off each end when both have one and it is not all spaces.
  return inner.startsWith(" ") && inner.endsWith(" ") && inner.trim() !== ""
    ? inner.slice(1, -1)
    : inner;
}

/** Rows for the files evidence found. */
export function rowsFromEvidence(files: EvidenceFile[]): Row[] {
  return files.map((f) => ({
    file: codeSpan(f.path),
    change: f.change,
    state: f.state,
    ref: f.ref,
  }));
}

/** Splits a table line into cells; `\|` stays inside a cell. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/(?<!\\)\|$/, "");
  return inner.split(/(?<!\\)\|/).map((c) => c.trim());
}

const COLUMNS: Record<string, keyof Row> = {
  file: "file",
  path: "file",
  change: "change",
  changes: "change",
  state: "state",
  status: "state",
  ref: "ref",
  commit: "ref",
};

/**
 * Reads the agent's files table from a `## Files touched` section: its rows (columns found by
 * header name, in the standard order when there is no header) and any text around the table.
 */
export function parseFilesSection(content: string): { rows: Row[]; notes: string } {
  const rows: Row[] = [];
  const notes: string[] = [];
  let order: (keyof Row | undefined)[] | undefined;
  for (const line of content.replace(/\r\n?/g, "\n").split("\n")) {
    if (!line.trim().startsWith("|")) {
      notes.push(line);
      continue;
    }
    const c = cells(line);
    if (c.every((x) => /^:?-{1,}:?$/.test(x))) continue; // the separator row
    if (order === undefined) {
      const named = c.map((x) => COLUMNS[x.toLowerCase().replace(/[^a-z]/g, "")]);
      if (named.includes("file")) {
        order = named;
        continue;
      }
      order = ["file", "change", "state", "ref"];
    }
    const row: Row = { file: "", change: "", state: "", ref: "" };
    order.forEach((key, i) => {
      if (key && c[i] !== undefined) row[key] = c[i];
    });
    if (row.file !== "") rows.push(row);
  }
  return { rows, notes: notes.join("\n").trim() };
}

/**
 * A path as a comparable key: a code span's text (else the cell without backticks), `\|` read as
 * a pipe (as a table cell's), no leading `./`, `\` as `/`.
 */
export function fileKey(file: string): string {
  const trimmed = file.trim();
  const cell = trimmed.includes("\\|") ? trimmed.replaceAll("\\|", "|") : trimmed;
  const text = codeSpanText(cell) ?? (cell.includes("`") ? cell.replace(/`/g, "").trim() : cell);
  // `includes` before each replace: thousands of plain paths need neither.
  const slashed = text.includes("\\") ? text.replace(/\\/g, "/") : text;
  return slashed.startsWith("./") ? slashed.slice(2) : slashed;
}

function missing(cell: string): boolean {
  return /^(|-|—|–|\?|n\/a)$/i.test(cell.trim());
}

/**
 * Merges the agent's rows with the evidence's: the agent's rows first, in its order, keeping its
 * Change and State (evidence fills only empty cells, Ref above all); then the files evidence
 * found that the agent did not list.
 */
export function mergeRows(agent: Row[], evidence: Row[]): Row[] {
  const keys = evidence.map((r) => fileKey(r.file)); // once each: a dump may list 20,000
  const byKey = new Map(evidence.map((r, i) => [keys[i], r]));
  const seen = new Set<string>();
  const out: Row[] = [];
  for (const row of agent) {
    const key = fileKey(row.file);
    seen.add(key);
    const ev = byKey.get(key);
    out.push({
      file: row.file,
      change: missing(row.change) && ev ? ev.change : row.change,
      state: missing(row.state) && ev ? ev.state : row.state,
      ref: missing(row.ref) && ev ? ev.ref : row.ref,
    });
  }
  evidence.forEach((row, i) => {
    if (!seen.has(keys[i])) out.push(row);
  });
  return out;
}

/** A cell's text on one line, its pipes escaped (GFM reads `\|` as a pipe, in code spans too). */
function escapeCell(text: string): string {
  return text.replace(LINE_BREAK, " ").replace(/(?<!\\)\|/g, "\\|");
}

function renderRows(rows: Row[]): string[] {
  return [
    HEADER,
    "| --- | --- | --- | --- |",
    ...rows.map((r) =>
      `| ${escapeCell(r.file)} | ${escapeCell(r.change)} | ${escapeCell(r.state)} | ${
        escapeCell(r.ref)
      } |`
    ),
  ];
}

/** The directory `parts` of a row's file cut to `depth` parts, as a key (`./` for the top level). */
function dirAt(parts: string[], depth: number): string {
  const cut = parts.length > depth ? parts.slice(0, depth) : parts;
  return cut.length ? `${cut.join("/")}/` : "./";
}

/** Sums `+N/-M` changes; counts the other kinds (`uncommitted-new`, `binary`, …). */
function sumChanges(rows: Row[]): string {
  let added = 0;
  let deleted = 0;
  let counted = 0;
  const other = new Map<string, number>();
  for (const r of rows) {
    const m = /^\+(\d+)\s*\/\s*-(\d+)$/.exec(r.change.trim());
    if (m) {
      added += Number(m[1]);
      deleted += Number(m[2]);
      counted++;
    } else if (r.change.trim()) {
      other.set(r.change.trim(), (other.get(r.change.trim()) ?? 0) + 1);
    }
  }
  const parts = counted ? [`+${added}/-${deleted}`] : [];
  for (const [kind, n] of other) parts.push(n > 1 ? `${n}× ${kind}` : kind);
  return parts.join(", ");
}

function tally(values: string[], limit: number): string {
  const counts = new Map<string, number>();
  for (const v of values) if (v.trim()) counts.set(v.trim(), (counts.get(v.trim()) ?? 0) + 1);
  const all = [...counts.entries()];
  const shown = all.slice(0, limit).map(([v, n]) => (n > 1 && counts.size > 1 ? `${v} ${n}` : v));
  return all.length > limit ? `${shown.join(", ")}, …` : shown.join(", ");
}

/** Groups rows by directory, at the deepest level that gives at most `max` groups. */
export function groupRows(rows: Row[], max = MAX_ROWS): Row[] {
  // Each row's directories once, not once per level tried (20,000 rows, a few levels), and the
  // deepest by a loop: a spread of that many arguments overflows the stack.
  const dirs = rows.map((r) => fileKey(r.file).split("/").slice(0, -1));
  let deepest = 0;
  for (const parts of dirs) if (parts.length > deepest) deepest = parts.length;
  for (let depth = deepest; depth >= 0; depth--) {
    const groups = new Map<string, Row[]>();
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const dir = dirAt(dirs[i], depth);
      // Push, never copy: copying the group per row made 20,000 files quadratic (seconds).
      const group = groups.get(dir);
      if (group) group.push(r);
      else groups.set(dir, [r]);
    }
    if (groups.size > max && depth > 0) continue;
    return [...groups.entries()].map(([dir, members]) => ({
      file: members.length === 1 ? members[0].file : `${codeSpan(dir)} (${members.length} files)`,
      change: members.length === 1 ? members[0].change : sumChanges(members),
      state: members.length === 1 ? members[0].state : tally(members.map((m) => m.state), 4),
      ref: members.length === 1 ? members[0].ref : tally(members.map((m) => m.ref), 3),
    }));
  }
  return rows; // unreachable: depth 0 is one group
}

/**
 * The table for `rows`: every row when there are at most `max`; otherwise grouped by directory,
 * followed by a line stating how many files were grouped and how many rows that elided.
 */
export function renderTable(rows: Row[], max = MAX_ROWS): string {
  if (rows.length === 0) return "";
  if (rows.length <= max) return renderRows(rows).join("\n");
  const grouped = groupRows(rows, max);
  return [
    ...renderRows(grouped),
    "",
    `${rows.length} files, over ${max} rows: grouped by directory into ${grouped.length} rows ` +
    `(${rows.length - grouped.length} rows elided; \`git status\` lists them all).`,
  ].join("\n");
}

/**
 * The `## Files touched` content for a dump: the agent's table merged with the evidence (or the
 * evidence alone when the agent gave none), any notes of the agent kept after it. `files` is the
 * number of files listed, grouped ones included.
 */
export function filesSection(
  agentContent: string | undefined,
  evidence: EvidenceFile[],
): { content: string; files: number } {
  const agent = agentContent ? parseFilesSection(agentContent) : { rows: [], notes: "" };
  const rows = mergeRows(agent.rows, rowsFromEvidence(evidence));
  const content = [renderTable(rows), agent.notes].filter((s) => s !== "").join("\n\n");
  return { content, files: rows.length };
}
