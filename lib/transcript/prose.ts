/**
 * The prose heuristics both readers apply to what was said: a closing question in the
 * assistant's text, whether the user's next message answers it, and the sentences that park
 * something for later. Pure string functions, tested by tests/transcript/prose_test.ts.
 * @module
 */

import { clip, clipStart } from "../text/cut.ts";

/**
 * User phrases that park something for later. One place, tested (tests/transcript/prose_test.ts):
 * each pattern is matched per sentence of a real user prompt, case-insensitively.
 */
export const DEFERRAL_PATTERNS: readonly RegExp[] = [
  /\b(?:for |till |until |do (?:it|this|that) |handle (?:it|this|that) )?later\b/i,
  /\bpark(?:ed|ing)? (?:this|that|it|the|them|these|those)\b/i,
  /\blet'?s park\b/i,
  /\b(?:come|get|circle|go) back to\b/i,
  /\brevisit\b/i,
  /\bafter (?:the |our |my |your |that |this )?[\w./#'-]+(?: [\w./#'-]+){0,5} (?:lands|has landed|is landed|is merged|gets merged|merges|ships|is done|is in)\b/i,
  /\b(?:defer|postpone)(?:red|ring|s)?\b/i,
  /\bnot (?:right )?now\b/i,
  /\b(?:some ?time|some other time|next time|another time|another day|next session)\b/i,
  /\bput a pin in\b/i,
  /\bon (?:the )?back ?burner\b/i,
  /\bon hold\b/i,
  /\bleave (?:it|this|that|them) for\b/i,
  /\bskip (?:it|this|that) for now\b/i,
  /\b(?:add (?:it|this|that) to the )?backlog\b/i,
];

/** Words that, opening a reply, answer a yes/no or choice question. */
export const ANSWER_OPENERS: ReadonlySet<string> = new Set([
  "yes",
  "yeah",
  "yep",
  "yup",
  "y",
  "no",
  "nope",
  "nah",
  "n",
  "sure",
  "ok",
  "okay",
  "k",
  "please",
  "correct",
  "right",
  "agreed",
  "exactly",
  "definitely",
  "absolutely",
  "go",
  "sounds",
  "fine",
  "both",
  "neither",
  "either",
  "option",
  "first",
  "second",
  "third",
  "don't",
  "dont",
  "not",
  "skip",
  "proceed",
  "continue",
  "approved",
  "lgtm",
]);

/** Words too common to show that a reply engages with a question. */
const STOP_WORDS = new Set(
  ("should would could shall will want like also then that this these those with from into " +
    "what which when where there their them they your yours have does make just more some " +
    "other about want need here")
    .split(" "),
);

/**
 * Whether `reply` (the user's next message) answers `question` (the assistant's closing
 * question). Answered when the reply opens with an answer word (yes, no, ok, sure, go, option,
 * a digit, …) or shares a significant word (4+ letters, not a stop word) with the question.
 * Anything else "starts something else": the question stays open.
 */
export function answersQuestion(question: string, reply: string): boolean {
  const first = OPENING.exec(reply.trim().toLowerCase())?.[0] ?? "";
  if (ANSWER_OPENERS.has(first) || isDigits(first)) return true;
  const asked = new Set<string>();
  for (const run of wordRuns(question)) {
    const w = trimDashes(run);
    if (w.length >= 4 && !STOP_WORDS.has(w)) asked.add(w);
  }
  if (asked.size === 0) return false;
  for (const run of wordRuns(reply)) if (asked.has(trimDashes(run))) return true;
  return false;
}

/** A reply's opening word: letters, digits and `'`. */
const OPENING = /^[\p{L}\p{N}']+/u;

/** Maximal runs of 4+ letters, digits, `_` and `-`. */
const RUNS = /[\p{L}\p{N}_-]{4,}/gu;

/** The lower-cased text's {@link RUNS} (`match` starts a global regex from the start each time). */
function wordRuns(text: string): string[] {
  return text.toLowerCase().match(RUNS) ?? [];
}

/** One or more ASCII digits and nothing else. */
const isDigits = (s: string): boolean => /^\d+$/.test(s);

/** `w` without its leading and trailing `-`s. */
const trimDashes = (w: string): string => w.replace(/^-+|-+$/g, "");

/** Closing markup that may follow a text's last word, besides white space. */
const TRAILING_MARKUP = "*_`)]\"'";

/** JavaScript's `\s`: one character of white space. */
const SPACE = /\s/;

/** The closing question of an assistant text (its last sentence), or undefined if it has none. */
export function closingQuestion(text: string): string | undefined {
  // Most texts hold no `?` at all: one native scan. The trailing run is then found by a loop from
  // the end, where a `[…]+$` regex would try it at every position of the text.
  if (!text.includes("?")) return undefined;
  let end = text.length;
  while (end > 0 && (TRAILING_MARKUP.includes(text[end - 1]) || SPACE.test(text[end - 1]))) end--;
  if (text[end - 1] !== "?") return undefined;
  const body = text.slice(0, end - 1);
  const cut = Math.max(
    body.lastIndexOf("\n"),
    ...[". ", "! ", "? ", ": "].map((s) => {
      const i = body.lastIndexOf(s);
      return i < 0 ? -1 : i + 1;
    }),
  );
  const q = (body.slice(cut + 1).replace(/^[\s*_>#-]+/u, "") + "?").trim();
  return clipStart(q, 300);
}

/**
 * Every deferral pattern in one alternation (same flags, so it matches exactly where one of them
 * does), tried on the whole text first: a pattern that matches a sentence matches the text it came from
 * too (each starts and ends at `\b` beside a word character, and a sentence's edges are white
 * space or the text's own), so a text it misses has no deferral and is not split at all.
 */
const ANY_DEFERRAL = new RegExp(DEFERRAL_PATTERNS.map((re) => `(?:${re.source})`).join("|"), "i");

/** The sentences of `text` that park something, per {@link DEFERRAL_PATTERNS}. */
export function deferralsIn(text: string): string[] {
  if (!ANY_DEFERRAL.test(text)) return [];
  const out: string[] = [];
  for (const sentence of text.split(/(?<=[.!?;])\s+|\n+/)) {
    const s = sentence.trim();
    if (s && ANY_DEFERRAL.test(s)) {
      out.push(clip(s, 300));
    }
  }
  return out;
}
