/**
 * `recover`: a handover drafted from the transcript of a session that ended without a dump
 * (closed terminal, crash). The draft is ordinary handover markdown — the first and last user
 * requests, deferrals and unanswered questions as outstanding items, the last assistant text —
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

/**
 * The draft's markdown sections from transcript facts (pure). Unfinished tasks and touched files
 * are not written here: they come from the evidence the draft is dumped with.
 */
export function recoverMarkdown(facts: TranscriptFacts): string {
  const out: string[] = [];
  const goal: string[] = [];
  // The requests that ask for something: a closing "thanks" or "ok" is neither the goal nor the
  // next step (transcript/prompt.ts `isSubstantive`); with none, the plain first and last.
  const first = facts.firstSubstantive ?? facts.firstRequest;
  const last = facts.lastSubstantive ?? facts.lastRequest;
  if (first) {
    goal.push(`${quote(first.text)} (${at(first)})`);
  }
  if (last && last.line !== first?.line) {
    goal.push("", `Last request: ${quote(last.text)} (${at(last)})`);
  }
  if (goal.length) out.push("## Goal", "", ...goal, "");
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
  const next: string[] = [
    `Recovered from ${facts.path || "a transcript"}: the session ended without a dump, so its ` +
    `decisions and lessons were not written down — check the work before relying on this draft.`,
  ];
  if (facts.lastAssistantText) {
    next.push(
      `Where the session stopped: "${quote(facts.lastAssistantText.text)}" ` +
        `(${at(facts.lastAssistantText)})`,
    );
  }
  if (last) {
    next.push(`Continue with the last request: ${quote(last.text, 200)}`);
  }
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
