/**
 * The evaluation set's scoring (pure): what a hand-written label (tests/eval/labels/*.json, see
 * tests/eval/README.md) asks of a draft and a card, and which of its points they miss.
 * @module
 */

import { findSection, parseSections, WHERE_IT_STOPPED } from "../../lib/handover/document.ts";
import { EARLIER_HEAD } from "../../lib/handover/recover.ts";
import { STOP_STATES, type StopStateName } from "../../lib/transcript/stop_state.ts";

/** One label, as its file holds it. */
export interface Label {
  /** `corpus:<path under the corpus's projects/>` or `fixture:<path under tests/fixtures/>`. */
  transcript: string;
  /** The session as if it ended after its first `lines` lines. */
  lines?: number;
  state: StopStateName;
  /** A fragment of the last request as typed; null when the user typed none. */
  lastRequest: string | null;
  /** A fragment of the task the session was on at the end, which the Goal must open with. */
  task: string | null;
  /** Fragments neither the draft nor the card may hold. */
  absent: string[];
  why: string;
}

/** What a label is checked against: the draft's markdown and the card's text. */
export interface Outputs {
  draft: string;
  card: string;
}

/** Runs of white space as one space, as the draft quotes text. */
export const collapse = (s: string): string => s.replace(/\s+/g, " ").trim();

/** A label's problems as a file, before any scoring: a bad label must not pass as a met one. */
export function labelProblems(value: unknown): string[] {
  const l = value as Partial<Label>;
  const out: string[] = [];
  if (typeof l?.transcript !== "string" || !/^(corpus|fixture):\S/.test(l.transcript)) {
    out.push("transcript: corpus:<path> or fixture:<path>");
  }
  if (l?.lines !== undefined && !(Number.isInteger(l.lines) && l.lines > 0)) {
    out.push("lines: a positive integer");
  }
  if (!(STOP_STATES as readonly unknown[]).includes(l?.state)) {
    out.push(`state: one of ${STOP_STATES.join(", ")}`);
  }
  if (l?.lastRequest !== null && typeof l?.lastRequest !== "string") {
    out.push("lastRequest: a string or null");
  }
  if (l?.task !== null && typeof l?.task !== "string") out.push("task: a string or null");
  if (!Array.isArray(l?.absent) || !l.absent.every((a) => typeof a === "string" && a !== "")) {
    out.push("absent: a list of non-empty strings");
  }
  if (typeof l?.why !== "string" || l.why.trim() === "") out.push("why: the evidence, in words");
  return out;
}

/** The points of `label` that `out` misses, each in words (none: every point met). */
export function misses(label: Label, out: Outputs): string[] {
  const missed: string[] = [];
  const sections = parseSections(out.draft);
  const stopped = findSection(sections, WHERE_IT_STOPPED) ?? "";
  const requestLine = stopped.split("\n").find((l) => l.startsWith("- Last request")) ?? "";
  const stateLine = stopped.split("\n").find((l) => l.startsWith("- State: ")) ?? "";
  if (!stateLine.startsWith(`- State: ${label.state} — `)) {
    missed.push(`state: want ${label.state}, the draft says "${stateLine}"`);
  }
  if (!collapse(out.card).includes(`- State: ${label.state} — `)) {
    missed.push(`card: its state is not ${label.state}`);
  }
  if (label.lastRequest === null) {
    if (requestLine !== "- Last request: none typed") {
      missed.push(`last request: want none typed, the draft says "${requestLine}"`);
    }
  } else if (!collapse(requestLine).includes(collapse(label.lastRequest))) {
    missed.push(`last request: want "${label.lastRequest}", the draft says "${requestLine}"`);
  }
  if (label.task !== null) {
    // The task and what was asked since within it; not the requests done before it.
    const goal = (findSection(sections, "Goal") ?? "").split(EARLIER_HEAD)[0];
    if (!collapse(goal).includes(collapse(label.task))) {
      missed.push(
        `task: want "${label.task}" in the goal, it says "${collapse(goal).slice(0, 160)}"`,
      );
    }
  }
  for (const a of label.absent) {
    if (collapse(out.draft).includes(collapse(a))) missed.push(`absent: the draft holds "${a}"`);
    if (collapse(out.card).includes(collapse(a))) missed.push(`absent: the card holds "${a}"`);
  }
  return missed;
}
