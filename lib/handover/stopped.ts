/**
 * Where a session stopped, as the handover says it: the `## Where it stopped` lines of a draft
 * (the last request as typed, with its line; the state with its evidence) and the next step that
 * follows from the state. One wording, read by the draft (./recover.ts), the compaction card
 * (lib/continuity/material.ts) and the `/clear` notice (lib/hook/notice.ts, which reads the lines
 * back by {@link STATE_LINE}). Pure.
 * @module
 */

import type { Mention } from "../transcript/facts.ts";
import { REPORTED_DONE, type StopState } from "../transcript/stop_state.ts";
import { clip } from "../text/cut.ts";

/** The longest quote of a request or of evidence in these lines. */
export const STOPPED_QUOTE_MAX = 200;

/** How the last request's line begins (`- Last request (line 12): “…”`). */
const REQUEST_LINE = "- Last request";
/** How the state's line begins (`- State: finished — it reported the work done: “…” (line 40)`). */
export const STATE_LINE = "- State: ";

/** `text` on one line, cut, in quotation marks. */
export function quoted(text: string, max = STOPPED_QUOTE_MAX): string {
  return `“${clip(text.replace(/\s+/g, " ").trim(), max)}”`;
}

/** The state in words: `finished — it reported the work done: “Done.” (line 40)`. */
export function stateWords(s: StopState): string {
  const ev = s.evidence ? `: ${quoted(s.evidence.text)} (line ${s.evidence.line})` : "";
  return `${s.state} — ${s.what}${ev}`;
}

/** The two lines of `## Where it stopped`. */
export function whereItStopped(s: StopState): string[] {
  const r = s.request;
  return [
    r ? `${REQUEST_LINE} (line ${r.line}): ${quoted(r.text)}` : `${REQUEST_LINE}: none typed`,
    `${STATE_LINE}${stateWords(s)}`,
  ];
}

/** ` (“quote”, line N)` of an optional mention. */
const at = (m: Mention | undefined): string => m ? ` (${quoted(m.text, 160)}, line ${m.line})` : "";

/** A mention quoted briefly, for a next step. */
const brief = (m: Mention | undefined, max = 160): string => m ? quoted(m.text, max) : "";

/**
 * The next step that follows from where the session stopped (`task`: the one it was on, by
 * default the last request): finished → verify what it reported,
 * then ask for the next task; in progress → carry the request on; waiting → the question to answer;
 * blocked → the failure to fix; unclear → say so and ask. Never "continue" finished work.
 */
export function nextFromState(s: StopState, task: Mention | undefined = s.request): string {
  const req = task ? ` (the task: ${brief(task)})` : "";
  switch (s.state) {
    case "finished":
      return s.what === REPORTED_DONE
        ? `The last request was reported done${at(s.evidence)}: verify that it is (the files ` +
          "and tests it names), then ask the user for the next task."
        : `The agent's last reply ended its turn${at(s.evidence)}: check that it settled the ` +
          `request${req}, then ask the user for the next task.`;
    case "in progress":
      return `Carry on with the task${task ? `: ${brief(task)}` : ""} — it stopped mid-work${
        s.evidence ? ` at ${brief(s.evidence)} (line ${s.evidence.line})` : ""
      }; check what was done before going on.`;
    case "waiting":
      return `The agent was waiting for the user's answer to ${
        brief(s.evidence)
      } (line ${s.evidence?.line}): put the question to the user before going on${req}.`;
    case "blocked":
      return `Fix what stopped it first: ${brief(s.evidence)}${
        s.evidence ? ` (line ${s.evidence.line})` : ""
      } — ${s.what}; then carry on${req}.`;
    case "unclear":
      return `Where the session stopped is unclear from the transcript (${s.what}): ask the user what to do next${req}.`;
  }
}
