/**
 * Claude Code's JSONL transcript: what the session really did (files touched, tasks, questions,
 * deferrals, first and last requests), read by streaming, tolerant of bad lines, unknown record
 * types and future fields.
 *
 * The core is pure: {@link TranscriptReader} takes one line (or one parsed record) at a time and
 * keeps only what the facts need, so memory stays flat however long the file is. The IO edge
 * ({@link readTranscript}) streams the file through it; {@link locateTranscript} finds the file.
 *
 * Record shapes (Claude Code 2.1.x): `{type: "user"|"assistant"|"system"|"attachment"|…,
 * message: {role, content}, cwd, sessionId, isSidechain, isMeta, …}`. Assistant `content[]` holds
 * `tool_use` blocks (one content block per record); their results are `tool_result` blocks (with
 * `is_error`) in later user records, joined by `tool_use_id`.
 * @module
 */

import { loadCodexTranscript } from "./codex_transcript.ts";
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

/** A question, deferral or request found in the transcript, with the line it came from. */
export interface Mention {
  text: string;
  line: number;
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
  lastAssistantText?: Mention;
  /** The session id the records carry (the first one seen). */
  sessionId?: string;
  /** The working directory the records carry (the first one seen). */
  cwd?: string;
  /** The first record's `timestamp` (ISO 8601): when the session started. */
  startedAt?: string;
  /** Physical lines read (including blank and bad ones). */
  lines?: number;
  /**
   * Lines that were not a JSON object (truncated, garbage); skipped. Lines read without
   * JSON.parse (no `"user"`/`"assistant"` in them) are judged by shape only: `{…}`.
   */
  badLines?: number;
}

/** Tools that write a file, and the input field naming it. */
export const FILE_TOOLS: Readonly<Record<string, string>> = {
  Write: "file_path",
  Edit: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};

/** Task statuses that mean the task is not finished. */
export const UNFINISHED_STATUSES = ["pending", "in_progress"] as const;

/** Whether a task is unfinished (`pending` or `in_progress`). */
export function isUnfinished(task: Task): boolean {
  return (UNFINISHED_STATUSES as readonly string[]).includes(task.status);
}

/**
 * User phrases that park something for later. One place, tested (tests/transcript_test.ts):
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
const ANSWER_OPENERS = new Set([
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
  const first = reply.trim().toLowerCase().match(/^[\p{L}\p{N}']+/u)?.[0] ?? "";
  if (ANSWER_OPENERS.has(first) || /^\d+$/.test(first)) return true;
  const words = (s: string) =>
    new Set(
      (s.toLowerCase().match(/[\p{L}\p{N}_-]{4,}/gu) ?? [])
        .map((w) => w.replace(/^-+|-+$/g, ""))
        .filter((w) => w.length >= 4 && !STOP_WORDS.has(w)),
    );
  const asked = words(question);
  for (const w of words(reply)) if (asked.has(w)) return true;
  return false;
}

/** The closing question of an assistant text (its last sentence), or undefined if it has none. */
export function closingQuestion(text: string): string | undefined {
  const t = text.replace(/[\s*_`)\]"']+$/u, "");
  if (!t.endsWith("?")) return undefined;
  const body = t.slice(0, -1);
  const cut = Math.max(
    body.lastIndexOf("\n"),
    ...[". ", "! ", "? ", ": "].map((s) => {
      const i = body.lastIndexOf(s);
      return i < 0 ? -1 : i + 1;
    }),
  );
  const q = (body.slice(cut + 1).replace(/^[\s*_>#-]+/u, "") + "?").trim();
  return q.length > 300 ? "…" + q.slice(-299) : q;
}

/** The sentences of `text` that park something, per {@link DEFERRAL_PATTERNS}. */
export function deferralsIn(text: string): string[] {
  const out: string[] = [];
  for (const sentence of text.split(/(?<=[.!?;])\s+|\n+/)) {
    const s = sentence.trim();
    if (s && DEFERRAL_PATTERNS.some((re) => re.test(s))) {
      out.push(s.length > 300 ? s.slice(0, 299) + "…" : s);
    }
  }
  return out;
}

/** Claude Code's folder name for a project directory: each non-alphanumeric char becomes `-`. */
export function encodeProjectDir(dir: string): string {
  return dir.replace(/[^A-Za-z0-9]/g, "-");
}

/** `path` relative to `root` when inside it; undefined when outside. Both absolute. */
export function relativeTo(path: string, root: string): string | undefined {
  const r = root.replace(/[\\/]+$/, "");
  if (path === r) return ".";
  if (r === "") return path.replace(/^\/+/, "");
  if (path.startsWith(r + "/") || path.startsWith(r + "\\")) return path.slice(r.length + 1);
  return undefined;
}

/** Resolves `.`/`..` and duplicate separators of an absolute path. */
export function normalizePath(path: string): string {
  const win = /^[A-Za-z]:[\\/]/.test(path);
  const parts = path.replace(/\\/g, "/").split("/");
  const out: string[] = [];
  for (const p of parts.slice(win ? 1 : 0)) {
    if (p === "" || p === ".") continue;
    if (p === "..") out.pop();
    else out.push(p);
  }
  return win ? `${parts[0]}/${out.join("/")}` : "/" + out.join("/");
}

// deno-lint-ignore no-explicit-any
type Json = any;

interface PendingCall {
  name: string;
  input: Json;
  line: number;
  cwd?: string;
}

/** Text of a user message that a person typed, or undefined for tool results and wrappers. */
export function promptText(record: Json): string | undefined {
  if (record?.type !== "user" || record.isMeta || record.isSidechain) return undefined;
  if (record.isCompactSummary || record.isVisibleInTranscriptOnly) return undefined;
  const content = record.message?.content;
  let text: string;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const b of content) {
      if (b?.type === "tool_result") return undefined;
      if (b?.type === "text" && typeof b.text === "string") parts.push(b.text);
    }
    text = parts.join("\n");
  } else return undefined;
  text = text.trim();
  if (!text) return undefined;
  // Slash commands, their output, `!` shell input and interruption notices are not requests.
  if (/^<(?:command-|local-command-|bash-|system-reminder|user-prompt-submit-hook)/.test(text)) {
    return undefined;
  }
  if (text.startsWith("[Request interrupted") || text.startsWith("Caveat: ")) return undefined;
  return text;
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

/** Options of a reader. */
export interface ReaderOptions {
  /** The project root: touched paths inside it are made relative. */
  root: string;
  /** The transcript's path, reported in the facts. */
  path?: string;
}

/**
 * Folds a transcript, one record at a time, into {@link TranscriptFacts}. Pure: no IO. A call
 * takes effect unless its tool_result is an error; a call with no result at all (the session
 * died mid-call) is taken to have happened.
 */
export class TranscriptReader {
  #root: string;
  #path: string;
  #pending = new Map<string, PendingCall>();
  #files = new Map<string, TouchedFile>();
  #tasks = new Map<string, Task>();
  #todos: Task[] | undefined;
  #questions: Mention[] = [];
  #deferrals: Mention[] = [];
  #first?: Mention;
  #last?: Mention;
  #lastText?: Mention;
  /** The assistant's closing question awaiting the next prompt. */
  #openQuestion?: Mention;
  #sessionId?: string;
  #cwd?: string;
  #startedAt?: string;
  #lines = 0;
  #bad = 0;

  constructor(opts: ReaderOptions) {
    this.#root = normalizePath(opts.root);
    this.#path = opts.path ?? "";
  }

  /**
   * Reads one physical line. Lines that cannot be a user or assistant record (they contain
   * neither `"user"` nor `"assistant"`, which every such record's `type` spells) are counted and
   * skipped without JSON.parse: exact, and most of the file's bytes on a long session.
   */
  line(text: string): void {
    const n = ++this.#lines;
    if (!text.includes('"user"') && !text.includes('"assistant"')) {
      if (this.#headerOpen()) this.#parse(text, n, true);
      else if (!isJsonObjectish(text)) this.#bad++;
      return;
    }
    this.#parse(text, n, false);
  }

  #parse(text: string, n: number, headerOnly: boolean): void {
    let rec: Json;
    try {
      rec = JSON.parse(text);
    } catch {
      if (text.trim() !== "") this.#bad++;
      return;
    }
    if (rec === null || typeof rec !== "object" || Array.isArray(rec)) {
      this.#bad++;
      return;
    }
    if (headerOnly) {
      this.#header(rec);
      return;
    }
    this.record(rec, n);
  }

  #headerOpen(): boolean {
    return this.#sessionId === undefined || this.#cwd === undefined ||
      this.#startedAt === undefined;
  }

  #header(rec: Json): void {
    if (this.#startedAt === undefined && typeof rec.timestamp === "string") {
      if (!Number.isNaN(Date.parse(rec.timestamp))) this.#startedAt = rec.timestamp;
    }
    if (this.#sessionId === undefined && typeof rec.sessionId === "string") {
      this.#sessionId = rec.sessionId;
    }
    if (this.#cwd === undefined && typeof rec.cwd === "string") this.#cwd = rec.cwd;
  }

  /** Folds one parsed record found on 1-based line `n`. Unknown shapes are ignored. */
  record(rec: Json, n: number): void {
    if (n > this.#lines) this.#lines = n;
    this.#header(rec);
    if (rec.type === "assistant") this.#assistant(rec, n);
    else if (rec.type === "user") this.#user(rec, n);
  }

  #assistant(rec: Json, n: number): void {
    const content = rec.message?.content;
    if (!Array.isArray(content)) return;
    const side = rec.isSidechain === true;
    for (const b of content) {
      if (b?.type === "text" && typeof b.text === "string" && b.text.trim() && !side) {
        this.#lastText = { text: b.text.trim(), line: n };
        const q = closingQuestion(b.text);
        this.#openQuestion = q ? { text: q, line: n } : undefined;
      } else if (b?.type === "tool_use" && typeof b.name === "string") {
        if (!side) this.#openQuestion = undefined;
        if (!this.#interesting(b.name)) continue;
        const id = str(b.id);
        const call = { name: b.name, input: b.input ?? {}, line: n, cwd: rec.cwd };
        if (id) this.#pending.set(id, call);
        else this.#apply(call, undefined);
      }
    }
  }

  #interesting(name: string): boolean {
    return name in FILE_TOOLS || name === "TaskCreate" || name === "TaskUpdate" ||
      name === "TodoWrite" || name === "AskUserQuestion";
  }

  #user(rec: Json, n: number): void {
    const content = rec.message?.content;
    if (Array.isArray(content)) {
      for (const b of content) {
        if (b?.type !== "tool_result") continue;
        const id = str(b.tool_use_id);
        const call = id ? this.#pending.get(id) : undefined;
        if (!call || !id) continue;
        this.#pending.delete(id);
        if (b.is_error === true) {
          if (call.name === "AskUserQuestion") this.#askedOpen(call);
          continue;
        }
        this.#apply(call, { text: resultText(b), extra: rec.toolUseResult });
      }
    }
    const prompt = promptText(rec);
    if (prompt === undefined) return;
    const m = { text: prompt, line: n };
    this.#first ??= m;
    this.#last = m;
    if (this.#openQuestion && !answersQuestion(this.#openQuestion.text, prompt)) {
      this.#questions.push(this.#openQuestion);
    }
    this.#openQuestion = undefined;
    for (const d of deferralsIn(prompt)) this.#deferrals.push({ text: d, line: n });
  }

  #askedOpen(call: PendingCall): void {
    const qs = Array.isArray(call.input?.questions) ? call.input.questions : [];
    const text = qs.map((q: Json) => str(q?.question)).filter(Boolean).join(" / ") ||
      str(call.input?.question) || "(AskUserQuestion)";
    this.#questions.push({ text, line: call.line });
  }

  #apply(call: PendingCall, result: { text: string; extra: Json } | undefined): void {
    const input = call.input ?? {};
    const field = FILE_TOOLS[call.name];
    if (field !== undefined) {
      const raw = str(input[field]);
      if (raw) this.#touch(raw, call);
      return;
    }
    switch (call.name) {
      case "AskUserQuestion":
        if (result === undefined) this.#askedOpen(call);
        return;
      case "TaskCreate": {
        const id = str(result?.extra?.task?.id) ??
          /Task #(\w+)/.exec(result?.text ?? "")?.[1];
        if (!id) return;
        this.#tasks.set(id, {
          id,
          subject: str(input.subject) ?? str(input.description) ?? `Task ${id}`,
          status: str(input.status) ?? "pending",
          line: call.line,
        });
        return;
      }
      case "TaskUpdate": {
        const id = str(input.taskId) ?? str(input.id);
        const task = id ? this.#tasks.get(id) : undefined;
        if (!task || !id) return;
        const status = str(input.status);
        if (status === "deleted") this.#tasks.delete(id);
        else if (status) task.status = status;
        if (str(input.subject)) task.subject = input.subject;
        return;
      }
      case "TodoWrite": {
        if (!Array.isArray(input.todos)) return;
        this.#todos = input.todos.map((t: Json, i: number) => ({
          id: str(t?.id) ?? String(i + 1),
          subject: str(t?.content) ?? str(t?.subject) ?? "",
          status: str(t?.status) ?? "pending",
          line: call.line,
        }));
        return;
      }
    }
  }

  #touch(raw: string, call: PendingCall): void {
    const base = typeof call.cwd === "string" ? call.cwd : this.#root;
    const abs = normalizePath(/^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(raw) ? raw : `${base}/${raw}`);
    const rel = relativeTo(abs, this.#root);
    const key = rel ?? abs;
    const f = this.#files.get(key);
    if (f) {
      if (!f.tools.includes(call.name)) f.tools.push(call.name);
      f.line = Math.max(f.line, call.line);
    } else {
      this.#files.set(key, {
        path: key,
        outside: rel === undefined,
        tools: [call.name],
        line: call.line,
      });
    }
  }

  /** The facts so far. Calls still without a result count as done (see the class note). */
  facts(): TranscriptFacts {
    for (const call of [...this.#pending.values()].sort((a, b) => a.line - b.line)) {
      this.#apply(call, undefined);
    }
    this.#pending.clear();
    const questions = [...this.#questions];
    if (this.#openQuestion) questions.push(this.#openQuestion);
    questions.sort((a, b) => a.line - b.line);
    const files = [...this.#files.values()].map((f) => ({ ...f, tools: [...f.tools] }));
    files.sort((a, b) =>
      a.outside === b.outside
        ? (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
        : a.outside
        ? 1
        : -1
    );
    const tasks = [...this.#tasks.values(), ...(this.#todos ?? [])].map((t) => ({ ...t }));
    return {
      path: this.#path,
      files,
      tasks,
      questions,
      deferrals: [...this.#deferrals],
      firstRequest: this.#first,
      lastRequest: this.#last,
      lastAssistantText: this.#lastText,
      sessionId: this.#sessionId,
      cwd: this.#cwd,
      startedAt: this.#startedAt,
      lines: this.#lines,
      badLines: this.#bad,
    };
  }
}

/** Cheap shape check for a skipped line: a JSON object starts with `{` and ends with `}`. */
function isJsonObjectish(text: string): boolean {
  const t = text.trim();
  return t === "" || (t.startsWith("{") && t.endsWith("}"));
}

/** Parses a whole transcript held in memory (tests, small inputs). */
export function parseTranscript(text: string, opts: ReaderOptions): TranscriptFacts {
  const reader = new TranscriptReader(opts);
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const l of lines) reader.line(l.endsWith("\r") ? l.slice(0, -1) : l);
  return reader.facts();
}

/** Size of each read from the file. */
const CHUNK = 1 << 20;

/**
 * Calls `onLine` for each line of the file at `path`, streaming fixed-size chunks: memory holds
 * one chunk plus the longest line, never the file. Invalid UTF-8 decodes to U+FFFD.
 */
export async function forEachLine(path: string, onLine: (line: string) => void): Promise<void> {
  using file = await Deno.open(path, { read: true });
  const decoder = new TextDecoder("utf-8");
  const buf = new Uint8Array(CHUNK);
  let carry = "";
  for (;;) {
    const n = await file.read(buf);
    if (n === null) break;
    const text = carry + decoder.decode(buf.subarray(0, n), { stream: true });
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      onLine(text.slice(start, end));
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  carry += decoder.decode();
  if (carry !== "") onLine(carry.endsWith("\r") ? carry.slice(0, -1) : carry);
}

/** Streams the transcript at `path` into facts. Throws only when the file cannot be opened. */
export async function readTranscript(path: string, opts: ReaderOptions): Promise<TranscriptFacts> {
  const reader = new TranscriptReader({ ...opts, path });
  await forEachLine(path, (l) => reader.line(l));
  return reader.facts();
}

/** Where a transcript was found, and how. */
export interface Located {
  path?: string;
  /** `flag`, `session` (CLAUDE_CODE_SESSION_ID), `newest` (newest matching in the folder). */
  how?: "flag" | "session" | "newest";
  /** Why none was found (when `path` is undefined). */
  reason?: string;
}

/** Inputs of {@link locateTranscript}. */
export interface LocateInputs {
  /** `--transcript PATH`, absolute or relative to `cwd`. */
  transcript?: string;
  /** `--session ID` or `CLAUDE_CODE_SESSION_ID`. */
  sessionId?: string;
  /** The project root. */
  root: string;
  /** The home directory (`HOME` / `USERPROFILE`). */
  home?: string;
  /** `CLAUDE_CONFIG_DIR`, which replaces `~/.claude` when set. */
  configDir?: string;
  /** The working directory, for a relative `--transcript`. */
  cwd: string;
  /** A session id never picked by the newest-file fallback (the running session, for recover). */
  exclude?: string;
  /** Codex CLI's session id (`CODEX_THREAD_ID` in its shell tool): read its rollout instead. */
  codexThreadId?: string;
  /** `CODEX_HOME`, which replaces `~/.codex` when set. */
  codexHome?: string;
}

/** Claude Code's folder of transcripts for a project root. */
export function projectFolder(inputs: Pick<LocateInputs, "root" | "home" | "configDir">) {
  const base = inputs.configDir ?? (inputs.home ? `${inputs.home}/.claude` : undefined);
  return base ? `${base}/projects/${encodeProjectDir(inputs.root)}` : undefined;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * Finds the session's transcript: `--transcript`; else the session id's file in Claude Code's
 * project folder; else the newest `.jsonl` there whose records' `cwd` is the project (root or
 * below it). Never throws.
 */
export async function locateTranscript(inputs: LocateInputs): Promise<Located> {
  if (inputs.transcript) {
    const p = /^(?:\/|[A-Za-z]:[\\/])/.test(inputs.transcript)
      ? inputs.transcript
      : `${inputs.cwd}/${inputs.transcript}`;
    return isFile(p)
      ? { path: p, how: "flag" }
      : { reason: `no transcript file at ${inputs.transcript}` };
  }
  const folder = projectFolder(inputs);
  if (!folder) return { reason: "no home directory to find ~/.claude/projects in" };
  const projects = folder.slice(0, folder.lastIndexOf("/"));
  const own = folder.slice(projects.length + 1);
  let names: string[];
  try {
    names = [...Deno.readDirSync(projects)].filter((e) => e.isDirectory).map((e) => e.name);
  } catch {
    return { reason: `no Claude Code transcripts (no ${projects})` };
  }
  if (inputs.sessionId) {
    if (!/^[A-Za-z0-9_-]+$/.test(inputs.sessionId)) {
      return { reason: `not a session id: ${inputs.sessionId}` };
    }
    // The project's own folder first; Claude Code may have been started in another directory
    // (a subdirectory of the repository), so then every folder: session ids are unique.
    for (const name of [own, ...names.filter((n) => n !== own)]) {
      const p = `${projects}/${name}/${inputs.sessionId}.jsonl`;
      if (isFile(p)) return { path: p, how: "session" };
    }
  }
  // Folders of the root and of directories below it (Claude Code started in a subdirectory).
  const mine = names.filter((n) => n === own || n.startsWith(own + "-"));
  let entries: { path: string; mtime: number }[] = [];
  for (const name of mine) {
    try {
      for (const e of Deno.readDirSync(`${projects}/${name}`)) {
        if (!e.isFile || !e.name.endsWith(".jsonl")) continue;
        if (inputs.exclude && e.name === `${inputs.exclude}.jsonl`) continue;
        const p = `${projects}/${name}/${e.name}`;
        try {
          entries.push({ path: p, mtime: Deno.statSync(p).mtime?.getTime() ?? 0 });
        } catch { /* vanished */ }
      }
    } catch { /* unreadable folder */ }
  }
  if (entries.length === 0 && !inputs.sessionId) {
    return { reason: `no Claude Code transcripts for this project (${folder})` };
  }
  entries = entries.sort((a, b) => b.mtime - a.mtime);
  const root = normalizePath(inputs.root);
  for (const e of entries) {
    const cwd = await transcriptCwd(e.path);
    if (cwd !== undefined && relativeTo(normalizePath(cwd), root) !== undefined) {
      return { path: e.path, how: "newest" };
    }
  }
  return {
    reason: inputs.sessionId
      ? `no transcript for session ${inputs.sessionId} under ${projects}, none of this project`
      : `no transcript of this project in ${folder}`,
  };
}

/** The first `cwd` the transcript's records carry, reading at most its first 200 lines. */
export async function transcriptCwd(path: string): Promise<string | undefined> {
  let found: string | undefined;
  let count = 0;
  try {
    using file = await Deno.open(path, { read: true });
    const decoder = new TextDecoder();
    const buf = new Uint8Array(64 * 1024);
    let carry = "";
    while (found === undefined && count < 200) {
      const n = await file.read(buf);
      if (n === null) break;
      const lines = (carry + decoder.decode(buf.subarray(0, n), { stream: true })).split("\n");
      carry = lines.pop() ?? "";
      for (const l of lines) {
        if (++count > 200) break;
        const m = /"cwd"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(l);
        if (!m) continue;
        try {
          found = JSON.parse(m[1]);
          break;
        } catch { /* not a string after all */ }
      }
      if (carry.length > 16 * 1024 * 1024) break;
    }
  } catch {
    return undefined;
  }
  return found;
}

/** A located and read transcript, or why there is none. */
export interface Loaded {
  facts?: TranscriptFacts;
  located: Located;
}

/**
 * Locates and reads the session's transcript; never throws. `relRoot` (default `root`) is the
 * directory touched paths are made relative to, e.g. the git top-level.
 */
export async function loadTranscript(
  inputs: LocateInputs & { relRoot?: string },
): Promise<Loaded> {
  const codex = await loadCodexTranscript(inputs);
  if (codex) return codex;
  const located = await locateTranscript(inputs);
  if (!located.path) return { located };
  try {
    const facts = await readTranscript(located.path, { root: inputs.relRoot ?? inputs.root });
    return { facts, located };
  } catch (err) {
    return {
      located: { reason: `cannot read ${located.path}: ${(err as Error).message ?? err}` },
    };
  }
}

/** The locate inputs from a process environment: session id, home and config directory. */
export function transcriptEnv(
  env: (name: string) => string | undefined,
): Pick<LocateInputs, "sessionId" | "home" | "configDir" | "codexThreadId" | "codexHome"> {
  return {
    sessionId: env("CLAUDE_CODE_SESSION_ID") || undefined,
    home: env("HOME") || env("USERPROFILE") || undefined,
    configDir: env("CLAUDE_CONFIG_DIR") || undefined,
    codexThreadId: env("CODEX_THREAD_ID") || undefined,
    codexHome: env("CODEX_HOME") || undefined,
  };
}
