/**
 * The short notice injected after `/clear` when LATEST names an automatic draft (`draft: auto`,
 * written by SessionEnd for a session that ended without a dump): not the draft itself — people
 * often clear to start something else, and an old handover must not ambush an unrelated session —
 * but at most {@link NOTICE_LIMIT} characters naming the draft, the exact recall command, the last
 * task (cut), where the session stopped (its state), the files touched (up to 5, then a count) and the unfinished tasks (up to 5).
 * Pure: it reads the draft's body, which the general restore (lib/hook/pending.ts) hands it.
 * Framed like every injected text (lib/frame/).
 * @module
 */

import { clip } from "../text/cut.ts";
import { capLines, findSection, parseSections, WHERE_IT_STOPPED } from "../handover/document.ts";
import { STATE_LINE } from "../handover/stopped.ts";
import { frameCost, framed, longestBacktickRun, shortenRuns } from "../frame/fence.ts";
import { leftBanner } from "./output.ts";

/** The notice never exceeds this many characters (banner and fence included). */
export const NOTICE_LIMIT = 700;
/** Files and tasks named before the rest are counted. */
export const NOTICE_ITEMS = 5;

/** What the notice says of a draft, read from its body. */
export interface DraftSummary {
  /** The task the session was on (the goal's first line), when the draft says where it stopped. */
  task?: string;
  /** An older draft's last request. */
  request?: string;
  /** Where the session stopped, as the draft says it (`finished — it reported the work done: …`). */
  state?: string;
  files: string[];
  tasks: string[];
}

/** The text after `prefix` on the first of `lines` that starts with it. */
function after(lines: string[], prefix: string): string | undefined {
  return lines.find((l) => l.startsWith(prefix))?.slice(prefix.length);
}

/**
 * Reads the draft's body as `recover` writes it: the task (the first line of `## Goal`) and the
 * state of `## Where it stopped` (a draft written before that section: the request, `Last
 * request:` else the first line of `## Goal`), the first cells of the `## Files touched` table (or its bullets), and the
 * `## Outstanding` bullets that are unfinished tasks (or an `## Unfinished tasks` list).
 */
export function summarizeDraft(body: string): DraftSummary {
  const sections = parseSections(body.replace(/\r\n?/g, "\n"));
  const goal = (findSection(sections, "Goal") ?? "").split("\n").map((l) => l.trim())
    .filter(Boolean);
  const stopped = findSection(sections, WHERE_IT_STOPPED);
  const state = stopped === undefined ? undefined : after(
    stopped.split("\n").map((l) => l.trim()),
    STATE_LINE,
  )?.trim();
  // A draft that says where it stopped names the task by its goal's first line; an older one, by
  // the goal's `Last request:` (else its first line).
  const picked = stopped === undefined ? after(goal, "Last request:") ?? goal[0] : undefined;
  const task = stopped === undefined
    ? undefined
    : goal[0]?.replace(/\s*\(transcript L\d+\)\s*$/, "").trim() || undefined;
  const request = picked?.replace(/\s*\(transcript L\d+\)\s*$/, "").trim() || undefined;
  const files: string[] = [];
  for (const line of (findSection(sections, "Files touched") ?? "").split("\n")) {
    const t = line.trim();
    if (t.startsWith("|")) {
      const cell = t.slice(1).split("|")[0].trim().replace(/^`+|`+$/g, "");
      if (cell && cell !== "File" && !/^:?-+:?$/.test(cell)) files.push(cell);
    } else if (t.startsWith("- ")) files.push(t.slice(2).replace(/`/g, "").trim());
  }
  const tasks: string[] = [];
  for (const line of (findSection(sections, "Outstanding") ?? "").split("\n")) {
    const m = /^- \*\*[^*]+\*\* — (.*?)\s*Why: unfinished task/.exec(line.trim());
    if (m) tasks.push(m[1].replace(/\.$/, "").trim());
  }
  for (const line of (findSection(sections, "Unfinished tasks") ?? "").split("\n")) {
    if (line.trim().startsWith("- ")) tasks.push(line.trim().slice(2));
  }
  return {
    ...(task ? { task } : {}),
    request,
    ...(state ? { state } : {}),
    files,
    tasks,
  };
}

/** `text` on one line, cut at `max` characters with an ellipsis. */
function cut(text: string, max: number): string {
  const one = text.replace(/\s+/g, " ").trim();
  return clip(one, max);
}

/** The first `n` of `items`, then `+N more`. */
function firstOf(items: string[], n: number, each: number): string[] {
  const shown = items.slice(0, n).map((i) => cut(i, each));
  if (items.length > n) shown.push(`+${items.length - n} more`);
  return shown;
}

/** The notice's text (inside the fence) with the request cut at `requestMax`, items at `each`. */
function noticeText(s: DraftSummary, requestMax: number, each: number): string {
  const out: string[] = [];
  if (s.task) out.push(`Task: ${cut(s.task, requestMax)}`);
  if (s.request) out.push(`Last request: ${cut(s.request, requestMax)}`);
  if (s.state) out.push(`Where it stopped: ${cut(s.state, requestMax)}`);
  if (s.files.length) out.push(`Files touched: ${firstOf(s.files, NOTICE_ITEMS, each).join(", ")}`);
  if (s.tasks.length) {
    out.push("Unfinished tasks:", ...firstOf(s.tasks, NOTICE_ITEMS, each).map((t) => `- ${t}`));
  }
  if (!out.length) out.push("(nothing but the draft itself: recall it to see what it holds)");
  return out.join("\n");
}

/** The notice's banner ({@link leftBanner}): the draft's slug, age, branch and recall command. */
export function noticeBanner(
  slug: string,
  ago: string,
  branch: string | undefined,
  recall: string,
): string {
  return leftBanner("draft", slug, ago, branch, recall);
}

/**
 * The notice: the banner, then the summary fenced, within {@link NOTICE_LIMIT} characters — the
 * task and the state are cut first, then each file and task name, then lines are elided.
 */
export function buildNotice(
  summary: DraftSummary,
  banner: string,
  limit = NOTICE_LIMIT,
): string {
  const strip = shortenRuns;
  const clean: DraftSummary = {
    task: summary.task && strip(summary.task),
    request: summary.request && strip(summary.request),
    state: summary.state && strip(summary.state),
    files: summary.files.map(strip),
    tasks: summary.tasks.map(strip),
  };
  let text = "";
  for (const [requestMax, each] of [[240, 80], [160, 60], [100, 40], [60, 30], [40, 20]]) {
    text = noticeText(clean, requestMax, each);
    if (frameCost(banner, longestBacktickRun(text)) + text.length <= limit) break;
  }
  const cost = frameCost(banner, longestBacktickRun(text));
  return framed(banner, capLines(text, Math.max(0, limit - cost)));
}
