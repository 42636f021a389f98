/**
 * Claude Code's JSONL transcript read into {@link TranscriptFacts}: files written or edited,
 * tasks, questions left open, deferrals, first and last requests. Streaming and tolerant of bad
 * lines, unknown record types and future fields; the state and the assembly of the facts are the
 * shared {@link FactsBuilder}'s, this file knows only Claude Code's record shapes.
 *
 * Record shapes (Claude Code 2.1.x): `{type: "user"|"assistant"|"system"|"attachment"|…,
 * message: {role, content}, cwd, sessionId, isSidechain, isMeta, …}`. Assistant `content[]` holds
 * `tool_use` blocks (one content block per record); their results are `tool_result` blocks (with
 * `is_error`) in later user records, joined by `tool_use_id`.
 * @module
 */

import {
  FactsBuilder,
  type Json,
  type Mention,
  type ReaderOptions,
  type TranscriptFacts,
} from "./facts.ts";
import { forEachLine, textReader } from "./lines.ts";
import { subagentFiles } from "./subagents.ts";
import { interruptionText, promptText, queuedText, shellInputText } from "./prompt.ts";
import { clip } from "../text/cut.ts";

export { promptText };

/** Tools that write a file, and the input field naming it. */
export const FILE_TOOLS: Readonly<Record<string, string>> = {
  Write: "file_path",
  Edit: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};

interface PendingCall {
  name: string;
  input: Json;
  line: number;
  cwd?: string;
  /** Made by a subagent (a sidechain record, or a subagent's own transcript). */
  side: boolean;
  /** The record's time in ms, when it has one: tasks change in time order across files. */
  at?: number;
}

/** The tools that launch a subagent (`Agent` is `Task` renamed, Claude Code 2.1.114). */
const SUBAGENT_TOOLS = ["Task", "Agent"];

/** The answer a call to a tool the client did not offer gets: the call did nothing. */
const NO_SUCH_TOOL = "No such tool available";

/** How a failed call's result is marked, as JSON.stringify writes it: such a line is always read. */
const FAILED = '"is_error":true';

/** The model name Claude Code gives messages it writes itself (an API error, "No response requested."). */
const SYNTHETIC = "<synthetic>";

/** What a call was given, as the last turn names it: its file, command, pattern or address. */
function callWhat(input: Json): string {
  const v = str(input?.file_path) ?? str(input?.notebook_path) ?? str(input?.command) ??
    str(input?.pattern) ?? str(input?.url) ?? str(input?.description) ?? "";
  return clip(v.split("\n")[0].trim(), 100);
}

function resultText(block: Json): string {
  const c = block?.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((x) => (typeof x?.text === "string" ? x.text : "")).join("\n");
  return "";
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined;
}

function stampMs(v: unknown): number | undefined {
  const ms = typeof v === "string" ? Date.parse(v) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Folds a transcript, one record at a time, into {@link TranscriptFacts}. Pure: no IO. A call
 * takes effect unless its tool_result is an error; a call with no result at all (the session
 * died mid-call) is taken to have happened. A record seen before (same `uuid`: a resumed session
 * repeats them) is read once. The subagents' own transcripts are fed after the session's
 * ({@link subagentLine}).
 */
export class TranscriptReader {
  #b: FactsBuilder;
  #pending = new Map<string, PendingCall>();
  #seen = new Set<string>();
  /** The main transcript's line of each subagent's launch, by the agent id its result names. */
  #launched = new Map<string, number>();
  /** When each task last changed (ms), and updates of tasks not created yet (a subagent's). */
  #taskAt = new Map<string, number>();
  #early = new Map<string, PendingCall>();
  /** Queued messages (`queue-operation` enqueue) not yet delivered or removed. */
  #queued: Mention[] = [];
  /** The calls since the assistant last spoke, by id: a failed result names its tool. */
  #turnCalls = new Map<string, string>();

  constructor(opts: ReaderOptions) {
    this.#b = new FactsBuilder(opts);
  }

  /** The session id the records carry (the first one seen). */
  get sessionId(): string | undefined {
    return this.#b.sessionId;
  }

  /**
   * Reads one physical line. Lines that cannot be a user or assistant record (they contain
   * neither `"user"` nor `"assistant"`, which every such record's `type` spells) are counted and
   * skipped without JSON.parse: exact, and most of the file's bytes on a long session. A
   * `queue-operation` is read for the message it queues.
   */
  line(text: string): void {
    const b = this.#b;
    const n = ++b.lines;
    if (text.includes('"queue-operation"')) {
      const rec = b.object(text);
      if (rec !== undefined) this.record(rec, n);
      return;
    }
    if (!text.includes('"user"') && !text.includes('"assistant"')) {
      if (b.headerOpen) {
        const rec = b.object(text);
        if (rec !== undefined) b.header(rec.sessionId, rec.cwd, rec.timestamp);
      } else if (!isJsonObjectish(text)) b.badLines++;
      return;
    }
    // Most of a long session's bytes: results of calls nothing waits for (reads, searches, shell
    // output). Such a line changes no fact, and is not parsed (see resultsOnly).
    if (!b.headerOpen && !text.includes(FAILED) && resultsOnly(text, this.#pending)) return;
    const rec = b.object(text);
    if (rec !== undefined) this.record(rec, n);
  }

  /**
   * Reads one line of a subagent's own transcript (`agent-<id>.jsonl` beside the session in
   * Claude Code 2.0.x, `<session>/subagents/agent-<id>.jsonl` in 2.1.x), fed after the session's
   * own lines: its calls count for the session's files and tasks, at the line where the session
   * launched agent `agentId` (its last line when no launch names it); nothing it says is a
   * request or a question.
   */
  subagentLine(text: string, agentId: string | undefined): void {
    if (!text.includes('"user"') && !text.includes('"assistant"')) return;
    if (resultsOnly(text, this.#pending)) return;
    const rec = this.#b.object(text);
    if (rec === undefined) return;
    const n = (agentId === undefined ? undefined : this.#launched.get(agentId)) ?? this.#b.lines;
    this.#fold(rec, n, true);
  }

  /** Folds one parsed record found on 1-based line `n`. Unknown shapes are ignored. */
  record(rec: Json, n: number): void {
    const b = this.#b;
    if (n > b.lines) b.lines = n;
    if (b.headerOpen) b.header(rec.sessionId, rec.cwd, rec.timestamp);
    b.branch(rec.gitBranch);
    this.#fold(rec, n, rec.isSidechain === true);
  }

  #fold(rec: Json, n: number, side: boolean): void {
    if (rec.type === "queue-operation") {
      if (!side) this.#queue(rec, n);
      return;
    }
    if (rec.type !== "assistant" && rec.type !== "user") return;
    if (typeof rec.uuid === "string") {
      if (this.#seen.has(rec.uuid)) return;
      this.#seen.add(rec.uuid);
    }
    if (rec.type === "assistant") this.#assistant(rec, n, side);
    else this.#user(rec, n, side);
  }

  /**
   * A message typed while the agent worked is queued (`enqueue`), then delivered (`dequeue`: it
   * follows as a user record, read as such) or taken back (`remove`). One still queued when the
   * transcript ends was never read by the agent: it is the session's last request.
   */
  #queue(rec: Json, n: number): void {
    if (rec.operation === "enqueue") {
      // Nothing typed in it (a slash command, IDE context alone) still holds its place in line.
      this.#queued.push({ text: queuedText(rec.content) ?? "", line: n });
    } else if (rec.operation === "dequeue") this.#queued.shift();
    else if (rec.operation === "remove") this.#queued.pop();
  }

  #assistant(rec: Json, n: number, side: boolean): void {
    const content = rec.message?.content;
    if (!Array.isArray(content)) return;
    // What the client wrote in the model's place: an API error ends the turn, the rest is no reply.
    const synthetic = rec.isApiErrorMessage === true || rec.message?.model === SYNTHETIC;
    for (const b of content) {
      if (b?.type === "text" && typeof b.text === "string") {
        const text = b.text.trim(); // once: it is the text said
        if (!text || side) continue;
        if (rec.isApiErrorMessage === true) this.#b.apiFailed(clip(text, 200), n);
        else if (!synthetic) {
          this.#b.said(text, n);
          this.#turnCalls.clear();
        }
      } else if (b?.type === "tool_use" && typeof b.name === "string") {
        if (!side) {
          this.#b.acted(b.name, n, callWhat(b.input));
          const id = str(b.id);
          if (id) this.#turnCalls.set(id, b.name);
        }
        if (!this.#interesting(b.name)) continue;
        const id = str(b.id);
        const call: PendingCall = {
          name: b.name,
          input: b.input ?? {},
          line: n,
          cwd: rec.cwd,
          side,
          at: stampMs(rec.timestamp),
        };
        if (id) this.#pending.set(id, call);
        else this.#apply(call, undefined);
      }
    }
  }

  #interesting(name: string): boolean {
    return name in FILE_TOOLS || name === "TaskCreate" || name === "TaskUpdate" ||
      name === "TodoWrite" || name === "AskUserQuestion" || SUBAGENT_TOOLS.includes(name);
  }

  #user(rec: Json, n: number, side: boolean): void {
    const content = rec.message?.content;
    let results = false;
    if (Array.isArray(content)) {
      for (const b of content) {
        if (b?.type !== "tool_result") continue;
        results = true;
        const id = str(b.tool_use_id);
        const tool = id === undefined ? undefined : this.#turnCalls.get(id);
        if (b.is_error === true && tool !== undefined && !side) {
          this.#b.failed(failureText(resultText(b)), n, tool);
        }
        const call = id ? this.#pending.get(id) : undefined;
        if (!call || !id) continue;
        this.#pending.delete(id);
        const text = resultText(b);
        const extra = rec.toolUseResult;
        if (
          b.is_error === true || text.includes(NO_SUCH_TOOL) ||
          (typeof extra === "string" && extra.includes(NO_SUCH_TOOL))
        ) {
          if (call.name === "AskUserQuestion" && !call.side) this.#askedOpen(call);
          continue;
        }
        this.#apply(call, { text, extra });
      }
    }
    // A message that carries tool results is no prompt (promptText says so too), and most user
    // records of a long session are such: they are not read a second time.
    if (results || side) return;
    const prompt = promptText(rec);
    if (prompt === undefined) {
      const stopped = interruptionText(rec);
      if (stopped !== undefined) this.#b.interrupted(stopped, n);
      const shell = shellInputText(rec);
      if (shell !== undefined) this.#b.ranShell(shell, n);
      return;
    }
    this.#b.requested(prompt, n);
    this.#b.deferred(prompt, n);
  }

  #askedOpen(call: PendingCall): void {
    const qs = Array.isArray(call.input?.questions) ? call.input.questions : [];
    const text = qs.map((q: Json) => str(q?.question)).filter(Boolean).join(" / ") ||
      str(call.input?.question) || "(AskUserQuestion)";
    this.#b.asked(text, call.line);
  }

  #apply(call: PendingCall, result: { text: string; extra: Json } | undefined): void {
    const input = call.input ?? {};
    const field = FILE_TOOLS[call.name];
    if (field !== undefined) {
      const raw = str(input[field]);
      const base = typeof call.cwd === "string" ? call.cwd : undefined;
      if (raw) this.#b.touch(raw, call.name, call.line, base);
      return;
    }
    switch (call.name) {
      case "AskUserQuestion":
        if (result === undefined && !call.side) this.#askedOpen(call);
        return;
      case "Task":
      case "Agent": {
        const agent = str(result?.extra?.agentId);
        if (agent !== undefined) this.#launched.set(agent, call.line);
        return;
      }
      case "TaskCreate": {
        const id = str(result?.extra?.task?.id) ??
          /Task #(\w+)/.exec(result?.text ?? "")?.[1];
        if (!id) return;
        this.#b.tasks.set(id, {
          id,
          subject: str(input.subject) ?? str(input.description) ?? `Task ${id}`,
          status: str(input.status) ?? "pending",
          line: call.line,
        });
        if (call.at !== undefined) this.#taskAt.set(id, call.at);
        const early = this.#early.get(id);
        this.#early.delete(id);
        if (early !== undefined) this.#update(id, early);
        return;
      }
      case "TaskUpdate": {
        const id = str(input.taskId) ?? str(input.id);
        if (id) this.#update(id, call);
        return;
      }
      case "TodoWrite": {
        // A subagent's todo list is its own (Claude Code keeps one per agent), not the session's.
        if (!Array.isArray(input.todos) || call.side) return;
        this.#b.plan(input.todos.map((t: Json, i: number) => ({
          id: str(t?.id) ?? String(i + 1),
          subject: str(t?.content) ?? str(t?.subject) ?? "",
          status: str(t?.status) ?? "pending",
          line: call.line,
        })));
        return;
      }
    }
  }

  /**
   * A TaskUpdate of task `id`. The task list is shared with the subagents, whose transcripts are
   * read after the session's: an update older than the task's last change is stale, and an update
   * of a task not created yet waits for its creation (the latest such update). An update with no
   * time is taken in the order read.
   */
  #update(id: string, call: PendingCall): void {
    const task = this.#b.tasks.get(id);
    const at = call.at;
    if (task === undefined) {
      const waiting = this.#early.get(id)?.at;
      if (at === undefined || waiting === undefined || waiting <= at) this.#early.set(id, call);
      return;
    }
    if (at !== undefined) {
      if (at < (this.#taskAt.get(id) ?? -Infinity)) return;
      this.#taskAt.set(id, at);
    }
    const input = call.input ?? {};
    const status = str(input.status);
    if (status === "deleted") this.#b.tasks.delete(id);
    else if (status) task.status = status;
    if (str(input.subject)) task.subject = input.subject;
  }

  /**
   * The facts so far, leaving the calls still without a result pending: a snapshot taken
   * mid-read (lib/continuity/after.ts: what stood when the dump was written), reading goes on.
   */
  snapshot(): TranscriptFacts {
    return this.#b.facts();
  }

  /**
   * The facts. Calls still without a result count as done (see the class note); a message still
   * queued is the last request.
   */
  facts(): TranscriptFacts {
    for (const call of [...this.#pending.values()].sort((a, b) => a.line - b.line)) {
      this.#apply(call, undefined);
    }
    this.#pending.clear();
    for (const q of this.#queued) {
      if (q.text === "") continue;
      this.#b.requested(q.text, q.line);
      this.#b.deferred(q.text, q.line);
    }
    this.#queued = [];
    return this.#b.facts();
  }
}

/**
 * The start of a user record's message whose first content block is a tool result, as
 * JSON.stringify writes it (no white space; Claude Code puts `tool_use_id` first, other writers
 * `type`). Tried where the record's own `"message":` key starts (the sticky flag).
 */
const RESULTS_HEAD =
  /"message":\{"role":"user","content":\[\{(?:"tool_use_id":"[^"\\]*",)?"type":"tool_result"/y;

/** Where each tool result of a line names its call. */
const RESULT_ID = '"tool_use_id":"';

/**
 * Whether `text` is a user record that only carries results of calls not in `pending`: parsed, it
 * would change no fact (a record with results is no prompt, a result settles only its own call).
 * Decided without parsing for records as JSON.stringify writes them; anything else is left to the
 * parse (false):
 * - the line is an object, whole (a line cut short is parsed, to be counted bad);
 * - everything before its first `"message":` is plain scalars (no `{`, `[` or `\`), so that is the
 *   record's own key and a `"type":"user"` among them its type;
 * - its content's first block is a `tool_result` ({@link RESULTS_HEAD});
 * - no `"tool_use_id":"` run in the line names a pending call. A string holds no unescaped quote,
 *   so each such run is a key (or a key's escaped tail): a result for a pending call cannot hide,
 *   and a false find only means a parse. An id spelled with an escape counts as pending.
 * Tests (tests/transcript/claude_test.ts, tests/fuzz_test.ts) hold the facts equal to those of
 * every line parsed. One count may differ: a corrupt line that starts like such a record and
 * still ends in `}` is not counted in `badLines` (a diagnostic; the line's record is lost either
 * way). Scans are native (indexOf, one sticky regex): a character loop here runs
 * unoptimised for most of a one-shot process and costs more than the parses it saves.
 */
function resultsOnly(text: string, pending: Map<string, PendingCall>): boolean {
  const at = text.indexOf('"message":');
  if (at < 1 || text.charCodeAt(0) !== 123 || text.charCodeAt(text.length - 1) !== 125) {
    return false;
  }
  // Backwards from the key: each scan reads the record's head only.
  if (
    text.lastIndexOf("{", at) > 0 || text.lastIndexOf("[", at) !== -1 ||
    text.lastIndexOf("\\", at) !== -1
  ) return false;
  const before = text.charCodeAt(at - 1);
  if (before !== 44 && before !== 123) return false; // `,` or `{`: a key starts here
  const type = text.lastIndexOf('"type":"user"', at);
  if (type < 1) return false;
  const t = text.charCodeAt(type - 1);
  if (t !== 44 && t !== 123) return false;
  RESULTS_HEAD.lastIndex = at;
  if (!RESULTS_HEAD.test(text)) return false;
  if (pending.size === 0) return true;
  for (let i = text.indexOf(RESULT_ID, at); i !== -1; i = text.indexOf(RESULT_ID, i + 1)) {
    const from = i + RESULT_ID.length;
    const end = text.indexOf('"', from);
    if (end === -1) return false;
    const id = text.slice(from, end);
    if (id.includes("\\") || pending.has(id)) return false;
  }
  return true;
}

/** Cheap shape check for a skipped line: a JSON object starts with `{` and ends with `}`. */
function isJsonObjectish(text: string): boolean {
  const t = text.trim();
  return t === "" || (t.startsWith("{") && t.endsWith("}"));
}

/**
 * What a failed call's result says, as the last turn quotes it: its first line, and for a shell's
 * bare `Exit code N` the line that says why, within 200 characters.
 */
export function failureText(text: string): string {
  const lines = text.replace(/<\/?tool_use_error>/g, "").split("\n").map((l) => l.trim())
    .filter(Boolean);
  const first = lines[0] ?? "(an error, with no message)";
  const why = /^Exit code \d+$/.test(first) && lines[1] ? `${first}: ${lines[1]}` : first;
  return clip(why, 200);
}

/** Parses a whole transcript held in memory (tests, small inputs). */
export const parseTranscript = textReader(TranscriptReader);

/**
 * Streams the transcript at `path`, then its subagents' own transcripts (subagents.ts), into
 * facts. Rejects only when the session's file cannot be opened; a subagent's that cannot is
 * passed over.
 */
export async function readTranscript(path: string, opts: ReaderOptions): Promise<TranscriptFacts> {
  const reader = new TranscriptReader({ ...opts, path });
  await forEachLine(path, (l) => reader.line(l));
  for (const sub of subagentFiles(path, reader.sessionId)) {
    try {
      await forEachLine(sub.path, (l) => reader.subagentLine(l, sub.agentId));
    } catch { /* vanished, or not a transcript to read (lib/transcript/open.ts) */ }
  }
  return reader.facts();
}
