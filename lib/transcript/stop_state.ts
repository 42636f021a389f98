/**
 * Where a session stopped, told from its transcript's facts alone ({@link stopState}): the state
 * the agent's last turn left — finished, in progress, waiting, blocked, or unclear — with the line
 * that shows it. Pure. The draft, the compaction card and the `/clear` notice all say it through
 * lib/handover/stopped.ts; docs/TRANSCRIPT.md ("Where it stopped") lists the rules in order.
 * @module
 */

import {
  type Act,
  ASKING_TOOLS,
  type Mention,
  type Request,
  type TranscriptFacts,
} from "./facts.ts";
import { closingQuestion, deferralsIn } from "./prose.ts";
import { isSubstantive } from "./prompt.ts";
import { clip } from "../text/cut.ts";

/** The states a session can stop in, as the draft names them. */
export const STOP_STATES = ["finished", "in progress", "waiting", "blocked", "unclear"] as const;

/** One of {@link STOP_STATES}. */
export type StopStateName = typeof STOP_STATES[number];

/** Where the session stopped: the state, why (in words), and the line that shows it. */
export interface StopState {
  state: StopStateName;
  /** Why, in a few words: `it reported the work done`, `a Bash call failed`. */
  what: string;
  /** The transcript's own words that show it (a reply's sentence, an error, a call), cut. */
  evidence?: Mention;
  /** The last request as typed. */
  request?: Mention;
}

/** A finished state's `what` when the last reply reported the work done (not only answered). */
export const REPORTED_DONE = "it reported the work done";

/** The longest quote of evidence a state carries. */
export const EVIDENCE_MAX = 200;

/**
 * Words of a reply that says it cannot go on: it failed, is stuck, or needs something it lacks.
 * Judged on the reply's last paragraph (what it ended on), not on errors it fixed before.
 */
const STUCK =
  /\b(?:I (?:can(?:no|')t|couldn't|could not|was unable|am unable|wasn't able)|unable to|(?:is|are) still (?:failing|broken)|still (?:fails|failing)|keeps? failing|permission denied|blocked (?:by|on)|not (?:able|allowed) to|(?:need|needs|requires) (?:your|you to|access|permission|credentials))\b/i;

/** Words of a reply that says what it does next: it meant to go on. */
const ABOUT_TO =
  /\b(?:let me|let's|I'll|I will|I'm going to|I am going to|now I|next,? I|going to|about to|moving on to|proceeding to|waiting for|will (?:now|next))\b/i;

/** Words of a reply that reports the work done. */
const DONE =
  /\b(?:done|complete[ds]?|completed|finished|fixed|implemented|added|created|updated|resolved|removed|renamed|refactored|committed|pushed|merged|deployed|passe[sd]|passing|succeeded|successfully|works|working now|in place|ready)\b|✅|🎉/i;

/**
 * A sentence that opens on work under way ("Running the tests…", "Now updating the docs:",
 * "Writing the cache."): a gerund that is not the subject of a verb ("Testing shows…").
 */
const UNDER_WAY =
  /^(?:now |next,? |then )?(?!(?:every|no|some|any)thing\b|during\b|string\b|bring\b)[A-Za-z][a-z]+ing\b(?! (?:is|was|are|were|has|have|shows?|looks?|seems?)\b)/i;

/** Failures that are the user's refusal of a call, not a broken command. */
const REFUSED =
  /doesn't want to (?:proceed|take this action)|tool use was rejected|user (?:denied|rejected|declined)/i;

/** The sentences of `text`, trimmed, in order; markdown bullets, headings and bold set aside. */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/\*\*|__/g, "").replace(/^[\s*_>#-]+|[\s*_]+$/g, "").trim())
    .filter(Boolean);
}

/** The last paragraph of a reply: what it ended on. */
function lastParagraph(text: string): string {
  const parts = text.trim().split(/\n\s*\n/);
  return parts[parts.length - 1] ?? "";
}

/** The first sentence of `text` that `rule` matches, else its last sentence, on `line`, cut. */
function quoteOf(text: string, line: number, rule?: RegExp): Mention {
  const all = sentences(text);
  const hit = rule ? all.find((s) => rule.test(s)) : undefined;
  return { text: clip(hit ?? all[all.length - 1] ?? text.trim(), EVIDENCE_MAX), line };
}

/**
 * The task the session was on at the end: the newest substantive request that started one — typed
 * after a turn that ended finished, or the first — among the facts' recent requests. A request typed
 * while the agent was mid-work, waiting on a question or blocked steers the task under way ("use the
 * library's visible flag instead"), so the task is the one it steers. With no recent request that
 * starts one, the oldest substantive one in the window; with none, the last substantive request,
 * else the last request.
 */
export function currentTask(facts: TranscriptFacts): Mention | undefined {
  const asks = (facts.recentRequests ?? []).filter((m) => isSubstantive(m.text));
  for (let i = asks.length - 1; i > 0; i--) {
    if (startsTask(asks[i])) return mention(asks[i]);
  }
  const first = asks[0];
  return first ? mention(first) : facts.lastSubstantive ?? facts.lastRequest;
}

/** A request's text and line alone. */
const mention = (m: Request): Mention => ({ text: m.text, line: m.line });

/** Whether the turn before `request` ended finished (or there was none): the request starts a task. */
function startsTask(request: Request): boolean {
  const b = request.before;
  if (b === undefined || (b.reply === undefined && b.request === undefined)) return true;
  const before: TranscriptFacts = {
    path: "",
    files: [],
    tasks: [],
    questions: [],
    deferrals: [],
    lastRequest: b.request,
    lastAssistantText: b.reply,
    lastTurn: b.turn,
  };
  return stopState(before).state === "finished";
}

/** A line of a list: `- …`, `* …`, `1. …`, `2) …`. */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;

/**
 * The question a reply ends on before the options it lists ("Would you like me to set it up? I
 * can:" then `1. …`, `2. …`), or undefined: one of the last two sentences before a closing list.
 */
function optionsQuestion(text: string): string | undefined {
  const lines = text.trimEnd().split("\n");
  let end = lines.length;
  while (end > 0 && (LIST_ITEM.test(lines[end - 1]) || lines[end - 1].trim() === "")) end--;
  if (end === lines.length || end === 0) return undefined;
  return sentences(lines.slice(0, end).join("\n")).slice(-2).find((s) => s.endsWith("?"));
}

/** The line an optional mention stands on, or -1. */
const lineOf = (m: Mention | undefined): number => m?.line ?? -1;

/** How a reply ended: the state its words leave. */
function judgeReply(reply: Mention, asked: Mention | undefined): Omit<StopState, "request"> {
  const text = reply.text;
  const end = lastParagraph(text);
  const question = closingQuestion(text) ?? optionsQuestion(text);
  if (question !== undefined) {
    return {
      state: "waiting",
      what: "it asked the user",
      evidence: { text: clip(question, EVIDENCE_MAX), line: reply.line },
    };
  }
  if (STUCK.test(end)) {
    return {
      state: "blocked",
      what: "it said it could not go on",
      evidence: quoteOf(end, reply.line, STUCK),
    };
  }
  const last = sentences(end).at(-1) ?? "";
  if (
    ABOUT_TO.test(last) || /:\s*$/.test(end) || UNDER_WAY.test(last) ||
    /\b(?:is|are) next\b/i.test(last)
  ) {
    return {
      state: "in progress",
      what: "it said what it does next",
      evidence: { text: clip(last, EVIDENCE_MAX), line: reply.line },
    };
  }
  // "OK." to a request for work did nothing yet; "Noted." to "let's leave X for later" did it all.
  const parks = asked !== undefined && asked.line < reply.line &&
    deferralsIn(asked.text).length > 0;
  if (!isSubstantive(text) && !parks) {
    return {
      state: "in progress",
      what: "it acknowledged the request and did nothing yet",
      evidence: quoteOf(text, reply.line),
    };
  }
  if (DONE.test(text)) {
    return {
      state: "finished",
      what: REPORTED_DONE,
      evidence: quoteOf(text, reply.line, DONE),
    };
  }
  return {
    state: "finished",
    what: "it answered and ended its turn",
    evidence: quoteOf(end, reply.line),
  };
}

/**
 * A refused call's state: blocked, the call quoted (the client's refusal text is its own
 * instruction to the agent, no evidence for a successor).
 */
function refused(failure: Act, work: Act | undefined): Omit<StopState, "request"> {
  return {
    state: "blocked",
    what: `the user refused the ${failure.tool} call`,
    evidence: work ?? { text: failure.tool, line: failure.line },
  };
}

/**
 * Where the session stopped, by what came last (pure). In order: an API error ended it (blocked);
 * the user stopped the turn (blocked when they refused a call, else in progress); the user's own
 * shell command came last (unclear: the agent never answered it); a substantive request is still
 * unanswered (in progress); a call failed after the last reply (blocked); work went on after the
 * last reply (in progress); else the last reply says it (waiting, blocked, in progress, finished).
 * With no reply and no call, unclear.
 */
export function stopState(facts: TranscriptFacts): StopState {
  const turn = facts.lastTurn ?? {};
  const request = facts.lastRequest;
  const reply = facts.lastAssistantText;
  const asked = facts.lastRequest;
  const answered = Math.max(lineOf(reply), lineOf(turn.work));
  const latest = Math.max(answered, lineOf(asked), lineOf(turn.failure));
  const at = (s: Omit<StopState, "request">): StopState => request ? { ...s, request } : s;
  const api = turn.apiError;
  if (api && api.line >= latest && api.line >= lineOf(turn.interrupted)) {
    return at({ state: "blocked", what: "the model's API failed", evidence: api });
  }
  const stop = turn.interrupted;
  if (stop && stop.line >= latest) {
    const f = turn.failure;
    if (f && REFUSED.test(f.text) && f.line >= answered) return at(refused(f, turn.work));
    return at({
      state: "in progress",
      what: "the user stopped the turn mid-work",
      evidence: turn.work && turn.work.line > lineOf(reply) ? turn.work : reply ?? stop,
    });
  }
  const shell = turn.shell;
  if (shell && shell.line > latest) {
    return at({
      state: "unclear",
      what: "the user ran a shell command of their own last",
      evidence: { text: clip(`!${shell.text}`, EVIDENCE_MAX), line: shell.line },
    });
  }
  if (asked && asked.line > answered && isSubstantive(asked.text)) {
    return {
      state: "in progress",
      what: "the last request was not answered yet",
      request: asked,
    };
  }
  const failure = turn.failure;
  if (failure && failure.line > lineOf(reply) && failure.line >= lineOf(turn.work)) {
    if (REFUSED.test(failure.text)) return at(refused(failure, turn.work));
    return at({ state: "blocked", what: `a ${failure.tool} call failed`, evidence: failure });
  }
  const work = turn.work;
  if (work && work.line > lineOf(reply)) {
    if (ASKING_TOOLS.has(work.tool)) {
      const q = facts.questions.findLast((m) => m.line === work.line);
      return at({
        state: "waiting",
        what: `it asked the user (${work.tool})`,
        evidence: q ?? work,
      });
    }
    return at({ state: "in progress", what: "it stopped mid-work", evidence: work });
  }
  if (reply) return at(judgeReply(reply, asked));
  return at({ state: "unclear", what: "the transcript shows no reply and no call" });
}
