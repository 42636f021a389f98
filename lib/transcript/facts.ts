/**
 * What a transcript tells us ({@link TranscriptFacts}), whichever agent wrote it, and the one
 * builder both readers feed ({@link FactsBuilder}). A reader knows its agent's record shapes and
 * turns each record into the builder's few verbs (a file touched, a task, something said, asked,
 * requested or deferred); the builder owns the state, the rules that do not depend on the agent
 * (a closing question stays open unless the next request answers it; a file's last touch wins)
 * and the assembly of the facts.
 * @module
 */

import { answersQuestion, closingQuestion, deferralsIn } from "./prose.ts";
import { isSubstantive } from "./prompt.ts";
import { normalizePath, relativeTo, resolvePath } from "./paths.ts";

/** A file the session wrote or edited, per the transcript. */
export interface TouchedFile {
  /** Path relative to the project root (absolute when outside it). */
  path: string;
  /** True when the file is outside the project root. */
  outside: boolean;
  /** The tools that touched it, e.g. `Write`, `Edit`. */
  tools: string[];
  /** 1-based transcript line of the last successful touch. */
  line: number;
}

/** A task from TaskCreate/TaskUpdate or TodoWrite, in its final state. */
export interface Task {
  id: string;
  subject: string;
  /** `pending`, `in_progress`, `completed`, … */
  status: string;
  /** 1-based transcript line where the task was created. */
  line: number;
}

/**
 * At most this many requests wait to be judged substantive (see `FactsBuilder.requested`): memory
 * stays flat however many prompts a session holds.
 */
const UNJUDGED_MAX = 16;

/** A question, deferral or request found in the transcript, with the line it came from. */
export interface Mention {
  text: string;
  line: number;
}

/** A text the transcript holds once or more: its latest mention, and how often it came. */
export interface Repeated {
  latest: Mention;
  times: number;
}

/**
 * `mentions` (in line order) with each text (white space aside) once, at its latest mention, in
 * the order of those: a question asked again and again, or the same deferral pasted twice, is one
 * outstanding item, not ten.
 */
export function latestOfEach(mentions: readonly Mention[]): Repeated[] {
  const byText = new Map<string, Repeated>();
  for (const m of mentions) {
    const key = m.text.replace(/\s+/g, " ").trim();
    const seen = byText.get(key);
    // Deleted and set again: a Map keeps insertion order, so the text moves to its latest place.
    if (seen) byText.delete(key);
    byText.set(key, { latest: m, times: (seen?.times ?? 0) + 1 });
  }
  return [...byText.values()];
}

/**
 * Tools that keep the session's own books (its plan, its task list): a call to one after the last
 * reply is no sign the work went on.
 */
export const BOOKKEEPING_TOOLS: ReadonlySet<string> = new Set([
  "TodoWrite",
  "TaskCreate",
  "TaskUpdate",
  "TaskList",
  "TaskGet",
  "update_plan",
]);

/**
 * Tools that put a question to the user and wait (a dialog, a plan to approve): a call to one left
 * without an answer is the agent waiting, not working.
 */
export const ASKING_TOOLS: ReadonlySet<string> = new Set([
  "AskUserQuestion",
  "ExitPlanMode",
  "request_user_input",
]);

/** A tool call or a failure seen in the last turn: which tool, what it was given, where. */
export interface Act extends Mention {
  /** The tool's name (`Bash`, `Edit`, `exec_command`, …). */
  tool: string;
}

/**
 * What the transcript's end shows of the last turn, each the latest of its kind with its line:
 * lib/transcript/stop_state.ts reads them, by their order, into where the session stopped.
 */
export interface LastTurn {
  /** The last tool call that did work (not {@link BOOKKEEPING_TOOLS}), as `Edit <its file>`. */
  work?: Act;
  /** The last tool result that was an error: its first lines, and the tool it answered. */
  failure?: Act;
  /** The last time the user stopped a turn (Claude Code's `[Request interrupted…]`, Codex's abort). */
  interrupted?: Mention;
  /** The last turn the model's API failed (an `API Error: …` message the client wrote). */
  apiError?: Mention;
  /** The last shell command the user ran themselves (Claude Code's `!` input). */
  shell?: Mention;
}

/** How the turn before a request stood when it was typed: what currentTask judges it by. */
export interface TurnBefore {
  /** The assistant's last text before the request. */
  reply?: Mention;
  /** The request before this one. */
  request?: Mention;
  /** The last turn's calls, failures and notices, as they stood. */
  turn: LastTurn;
}

/** A request, with how the turn before it stood (lib/transcript/stop_state.ts `currentTask`). */
export interface Request extends Mention {
  before?: TurnBefore;
}

/** Everything the transcript tells us. */
export interface TranscriptFacts {
  path: string;
  files: TouchedFile[];
  tasks: Task[];
  questions: Mention[];
  deferrals: Mention[];
  firstRequest?: Mention;
  lastRequest?: Mention;
  /** The first request that asks for something (prompt.ts `isSubstantive`), not a "thanks". */
  firstSubstantive?: Mention;
  /** The last request that asks for something: the one to continue with. */
  lastSubstantive?: Mention;
  /**
   * The newest requests as typed (at most {@link RECENT_REQUESTS}, in transcript order): the
   * user's own words, which the compaction card quotes.
   */
  recentRequests?: Request[];
  lastAssistantText?: Mention;
  /** What the end of the transcript shows of the last turn (see {@link LastTurn}). */
  lastTurn?: LastTurn;
  /** The session id the records carry (the first one seen). */
  sessionId?: string;
  /** The working directory the records carry (the first one seen). */
  cwd?: string;
  /** The first record's `timestamp` (ISO 8601): when the session started. */
  startedAt?: string;
  /**
   * The git branch the records carry (Claude Code's `gitBranch`; the last one seen): the branch
   * of a worktree that is gone by the time SessionEnd reads it.
   */
  gitBranch?: string;
  /** Physical lines read (including blank and bad ones). */
  lines?: number;
  /**
   * Lines that were not a JSON object (truncated, garbage); skipped. Lines read without
   * JSON.parse (no `"user"`/`"assistant"` in them) are judged by shape only: `{…}`.
   */
  badLines?: number;
}

/** How many of the newest requests the facts keep ({@link TranscriptFacts} `recentRequests`). */
export const RECENT_REQUESTS = 12;

/** Task statuses that mean the task is not finished. */
export const UNFINISHED_STATUSES = ["pending", "in_progress"] as const;

/** Whether a task is unfinished (`pending` or `in_progress`). */
export function isUnfinished(task: Task): boolean {
  return (UNFINISHED_STATUSES as readonly string[]).includes(task.status);
}

/** A parsed transcript record: any JSON object, its shape checked field by field. */
// deno-lint-ignore no-explicit-any
export type Json = any;

/** Options of a reader. */
export interface ReaderOptions {
  /** The project root: touched paths inside it are made relative. */
  root: string;
  /** The transcript's path, reported in the facts. */
  path?: string;
}

/**
 * Accumulates {@link TranscriptFacts} as a reader goes through a transcript. Pure: no IO. Keeps
 * only what the facts need, so memory stays flat however long the transcript is.
 */
export class FactsBuilder {
  /** The project root, normalized: touched paths inside it are made relative. */
  readonly root: string;
  /** Physical lines read so far; the reader counts them. */
  lines = 0;
  /** Lines that were not a JSON object, counted by {@link object}. */
  badLines = 0;
  /** Tasks by id, created and updated one by one (Claude Code's TaskCreate/TaskUpdate). */
  readonly tasks = new Map<string, Task>();
  #path: string;
  #files = new Map<string, TouchedFile>();
  #resolved = new Map<string, { key: string; outside: boolean }>();
  #plan?: Task[];
  #questions: Mention[] = [];
  #deferrals: Mention[] = [];
  #first?: Mention;
  #last?: Mention;
  #recent: Request[] = [];
  #firstAsk?: Mention;
  /** The last substantive request before `#unjudged`. */
  #lastAsk?: Mention;
  /** The requests since: judged only when the facts are asked for or there are too many. */
  #unjudged: { m: Mention; text: string }[] = [];
  #lastText?: Mention;
  /** What the assistant said last, unless an action followed: its closing question may be open. */
  #said?: Mention;
  #sessionId?: string;
  #cwd?: string;
  #startedAt?: string;
  #gitBranch?: string;
  #turn: LastTurn = {};

  constructor(opts: ReaderOptions) {
    this.root = normalizePath(opts.root);
    this.#path = opts.path ?? "";
  }

  /**
   * The JSON object on a line, or undefined: for a blank line, and for a line that is not a JSON
   * object, which is counted as bad.
   */
  object(text: string): Json | undefined {
    let rec: Json;
    try {
      rec = JSON.parse(text);
    } catch {
      if (text.trim() !== "") this.badLines++;
      return undefined;
    }
    if (rec === null || typeof rec !== "object" || Array.isArray(rec)) {
      this.badLines++;
      return undefined;
    }
    return rec;
  }

  /** The session id the records carry (the first one seen). */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** Whether the session id, cwd or start time is still unknown. */
  get headerOpen(): boolean {
    return this.#sessionId === undefined || this.#cwd === undefined ||
      this.#startedAt === undefined;
  }

  /** Notes the session's id, working directory and start (a date); the first of each stays. */
  header(sessionId: unknown, cwd: unknown, startedAt?: unknown): void {
    if (this.#startedAt === undefined && typeof startedAt === "string") {
      if (!Number.isNaN(Date.parse(startedAt))) this.#startedAt = startedAt;
    }
    if (this.#sessionId === undefined && typeof sessionId === "string") {
      this.#sessionId = sessionId;
    }
    if (this.#cwd === undefined && typeof cwd === "string") this.#cwd = cwd;
  }

  /** Notes the branch a record names; the last one stays. */
  branch(gitBranch: unknown): void {
    if (typeof gitBranch === "string" && gitBranch !== "") this.#gitBranch = gitBranch;
  }

  /**
   * `tool` wrote `path` (absolute, or relative to `base`, default the root) on 1-based `line`.
   * Touches may come out of order (a call settled late): the latest line is kept.
   */
  touch(path: string, tool: string, line: number, base: string = this.root): void {
    // A session writes the same few files again and again: each (base, path) is resolved once.
    const memo = `${base}\0${path}`;
    let where = this.#resolved.get(memo);
    if (where === undefined) {
      const abs = resolvePath(path, base);
      const rel = relativeTo(abs, this.root);
      where = { key: rel ?? abs, outside: rel === undefined };
      this.#resolved.set(memo, where);
    }
    const f = this.#files.get(where.key);
    if (f) {
      if (!f.tools.includes(tool)) f.tools.push(tool);
      f.line = Math.max(f.line, line);
    } else {
      this.#files.set(where.key, { path: where.key, outside: where.outside, tools: [tool], line });
    }
  }

  /** The session's plan as a whole list (TodoWrite, update_plan): each one replaces the last. */
  plan(tasks: Task[]): void {
    this.#plan = tasks;
  }

  /**
   * The assistant said `text` on `line`; `shown` is what to report as its last text. A closing
   * question in it stays open until the next request or action.
   */
  said(text: string, line: number, shown: string = text): void {
    this.#lastText = { text: shown, line };
    // Most texts are followed by a tool call, which settles it: the question is looked for only
    // when a request or the end comes next (`#openQuestion`).
    this.#said = { text, line };
  }

  /** The closing question of the text said last, still open; undefined when there is none. */
  #openQuestion(): Mention | undefined {
    const said = this.#said;
    if (said === undefined) return undefined;
    const q = closingQuestion(said.text);
    return q === undefined ? undefined : { text: q, line: said.line };
  }

  /**
   * The assistant called `tool` on `line` (`what`: the file or command it was given) after
   * speaking: what it asked was not a closing question.
   */
  acted(tool: string, line: number, what = ""): void {
    this.#said = undefined;
    if (!BOOKKEEPING_TOOLS.has(tool)) {
      this.#turn.work = { tool, line, text: what ? `${tool} ${what}` : tool };
    }
  }

  /** A call to `tool` answered with an error on `line`; `text` is what the error said. */
  failed(text: string, line: number, tool: string): void {
    this.#turn.failure = { tool, line, text };
  }

  /** The user stopped the turn on `line` (`text`: the client's notice of it). */
  interrupted(text: string, line: number): void {
    this.#turn.interrupted = { text, line };
  }

  /** The model's API failed on `line`; `text` is the client's message. */
  apiFailed(text: string, line: number): void {
    this.#turn.apiError = { text, line };
  }

  /** The user ran `command` in a shell of their own on `line` (not a request to the agent). */
  ranShell(command: string, line: number): void {
    this.#turn.shell = { text: command, line };
  }

  /** A question put to the user that was never answered (a dialog left open). */
  asked(text: string, line: number): void {
    this.#questions.push({ text, line });
  }

  /**
   * The user asked for `text` on `line`; `shown` is what to report as the request. An open
   * closing question this does not answer stays a question.
   */
  requested(text: string, line: number, shown: string = text): void {
    const m = { text: shown, line };
    const before: TurnBefore = {
      reply: this.#lastText,
      request: this.#last,
      turn: { ...this.#turn },
    };
    this.#first ??= m;
    this.#last = m;
    if (this.#recent.push({ ...m, before }) > RECENT_REQUESTS) this.#recent.shift();
    // Which requests are substantive matters for the first and the last only: the first is
    // judged as requests come until one is, the last from the newest back, when asked for, so a
    // long session's prompts are not each judged.
    if (this.#firstAsk === undefined) {
      if (isSubstantive(text)) this.#firstAsk = this.#lastAsk = m;
    } else if (this.#unjudged.push({ m, text }) >= UNJUDGED_MAX) this.#judgeLast();
    const open = this.#openQuestion();
    if (open && !answersQuestion(open.text, text)) this.#questions.push(open);
    this.#said = undefined;
  }

  /** Settles `#lastAsk` from the requests not yet judged, newest first, and forgets them. */
  #judgeLast(): void {
    for (let i = this.#unjudged.length - 1; i >= 0; i--) {
      const r = this.#unjudged[i];
      if (isSubstantive(r.text)) {
        this.#lastAsk = r.m;
        break;
      }
    }
    this.#unjudged = [];
  }

  /** The sentences of `text` (on `line`) that park something for later. */
  deferred(text: string, line: number): void {
    for (const d of deferralsIn(text)) this.#deferrals.push({ text: d, line });
  }

  /** The facts so far: copies, so building may go on. */
  facts(): TranscriptFacts {
    this.#judgeLast();
    const questions = [...this.#questions];
    const open = this.#openQuestion();
    if (open) questions.push(open);
    questions.sort((a, b) => a.line - b.line);
    const files = [...this.#files.values()].map((f) => ({ ...f, tools: [...f.tools] }));
    files.sort((a, b) =>
      a.outside === b.outside
        ? (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
        : a.outside
        ? 1
        : -1
    );
    const tasks = [...this.tasks.values(), ...(this.#plan ?? [])].map((t) => ({ ...t }));
    return {
      path: this.#path,
      files,
      tasks,
      questions,
      deferrals: [...this.#deferrals],
      firstRequest: this.#first,
      lastRequest: this.#last,
      firstSubstantive: this.#firstAsk,
      lastSubstantive: this.#lastAsk,
      ...(this.#recent.length
        ? { recentRequests: [...this.#recent].sort((a, b) => a.line - b.line) }
        : {}),
      lastAssistantText: this.#lastText,
      lastTurn: { ...this.#turn },
      sessionId: this.#sessionId,
      cwd: this.#cwd,
      startedAt: this.#startedAt,
      ...(this.#gitBranch === undefined ? {} : { gitBranch: this.#gitBranch }),
      lines: this.lines,
      badLines: this.badLines,
    };
  }
}
