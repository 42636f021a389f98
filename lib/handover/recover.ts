/**
 * `recover`: a handover drafted from the transcript of a session that ended without a dump
 * (closed terminal, crash). The draft is ordinary handover markdown — the task the session was on
 * at the end and the requests done before it, where it stopped (./stopped.ts), deferrals and
 * unanswered questions as outstanding items, the next step that follows from where it stopped —
 * which write.ts then completes with the files table and unfinished tasks from the evidence, so
 * the document is written exactly like any other (`dump`'s way).
 * @module
 */

import { alnumWords } from "../store/slug.ts";
import {
  latestOfEach,
  type Mention,
  type Repeated,
  type TranscriptFacts,
} from "../transcript/facts.ts";
import { clip } from "../text/cut.ts";
import { isSubstantive } from "../transcript/prompt.ts";
import { currentTask, stopState } from "../transcript/stop_state.ts";
import { WHERE_IT_STOPPED } from "./document.ts";
import { nextFromState, whereItStopped } from "./stopped.ts";

/** Longest quote taken from the transcript into the draft. */
export const QUOTE_MAX = 400;

/** At most this many deferrals, and this many questions, are listed (the latest ones). */
export const MAX_LISTED = 10;

/** `text` on one line, cut at `max` characters with an ellipsis. */
export function quote(text: string, max = QUOTE_MAX): string {
  const one = text.replace(/\s+/g, " ").trim();
  return clip(one, max);
}

/** A short kebab slug from the first words of `text`. */
function slugOf(prefix: string, text: string): string {
  return [prefix, ...alnumWords(text).slice(0, 4)].filter(Boolean).join("-");
}

function at(m: Mention): string {
  return `transcript L${m.line}`;
}

/** Where a repeated text was last seen, and how often: `transcript L9, 3 times`. */
function atLatest(r: Repeated): string {
  return r.times > 1 ? `${at(r.latest)}, ${r.times} times` : at(r.latest);
}

/** At most this many requests are listed under the goal in each list (the newest), the rest counted. */
export const EARLIER_LISTED = 8;
/** Each listed request is cut to this many characters, on one line. */
export const EARLIER_MAX = 160;

/** Heads of the goal's two lists. */
export const SINCE_HEAD = "Asked since, within this task:";
export const EARLIER_HEAD = "Done earlier in the session:";

/** `head` and the newest {@link EARLIER_LISTED} of `asks`, one line each, the rest counted. */
function listed(head: string, asks: Mention[]): string[] {
  if (asks.length === 0) return [];
  const shown = asks.slice(-EARLIER_LISTED);
  const out = ["", head];
  if (asks.length > shown.length) {
    out.push(`- (${asks.length - shown.length} earlier request(s): see the transcript)`);
  }
  for (const m of shown) out.push(`- ${quote(m.text, EARLIER_MAX)} (${at(m)})`);
  return out;
}

/**
 * The goal: the task the session was on at the end (lib/transcript/stop_state.ts `currentTask`),
 * the requests typed since within it (corrections, answers, steering), then the requests before it,
 * listed as done earlier (the first prompt among them while it is in the facts' window).
 */
export function goalLines(facts: TranscriptFacts): string[] {
  const current = currentTask(facts);
  if (!current) return [];
  const byLine = new Map<number, Mention>();
  const first = facts.firstSubstantive;
  for (const m of [...(first ? [first] : []), ...(facts.recentRequests ?? [])]) {
    if (m.line !== current.line && isSubstantive(m.text)) {
      byLine.set(m.line, { text: m.text, line: m.line });
    }
  }
  const asks = [...byLine.values()].sort((a, b) => a.line - b.line);
  return [
    `${quote(current.text)} (${at(current)})`,
    ...listed(SINCE_HEAD, asks.filter((m) => m.line > current.line)),
    ...listed(EARLIER_HEAD, asks.filter((m) => m.line < current.line)),
  ];
}

/**
 * The draft's markdown sections from transcript facts (pure). Unfinished tasks and touched files
 * are not written here: they come from the evidence the draft is dumped with.
 */
export function recoverMarkdown(facts: TranscriptFacts): string {
  const out: string[] = [];
  const goal = goalLines(facts);
  if (goal.length) out.push("## Goal", "", ...goal, "");
  const stopped = stopState(facts);
  out.push(`## ${WHERE_IT_STOPPED}`, "", ...whereItStopped(stopped), "");
  const items: string[] = [];
  const taken = new Set<string>();
  const unique = (slug: string) => {
    let s = slug;
    for (let i = 2; taken.has(s); i++) s = `${slug}-${i}`;
    taken.add(s);
    return s;
  };
  // A long session repeats itself: each text is one item, the latest ones are those still open,
  // and a draft stays a handover's size (the rest are counted, never silently cut).
  const allDeferrals = latestOfEach(facts.deferrals);
  const allQuestions = latestOfEach(facts.questions);
  const deferrals = allDeferrals.slice(-MAX_LISTED);
  const questions = allQuestions.slice(-MAX_LISTED);
  const unlisted = allDeferrals.length - deferrals.length + allQuestions.length -
    questions.length;
  for (const d of deferrals) {
    const text = d.latest.text;
    items.push(
      `- **${unique(slugOf("deferred", text))}** — ${quote(text, 200)} Why: the user ` +
        `deferred it (${atLatest(d)}). Next: decide when to pick it up.`,
    );
  }
  for (const q of questions) {
    const text = q.latest.text;
    items.push(
      `- **${unique(slugOf("question", text))}** — Unanswered: "${quote(text, 200)}" ` +
        `Why: the session ended or moved on without an answer (${atLatest(q)}). Next: ask again.`,
    );
  }
  if (unlisted > 0) {
    items.push(`(… and ${unlisted} earlier deferral(s) or question(s) in the transcript.)`);
  }
  if (items.length) out.push("## Outstanding", "", ...items, "");
  const next = [
    nextFromState(stopped, currentTask(facts)),
    `Drafted from ${facts.path || "a transcript"}: the session ended without a dump, so its ` +
    `decisions and lessons were not written down — check the work before relying on this draft.`,
  ];
  out.push("## Next step", "", next.join("\n\n"), "");
  return out.join("\n");
}

/**
 * Whether a transcript gave anything to recover: a request, an answer, a task, a file, a
 * question or a deferral. A file of no session records (`--transcript /etc/passwd`) gives none,
 * and a draft of nothing is no handover.
 */
export function hasSession(facts: TranscriptFacts): boolean {
  return !!(facts.firstRequest || facts.lastRequest || facts.lastAssistantText) ||
    facts.files.length + facts.tasks.length + facts.questions.length + facts.deferrals.length > 0;
}
