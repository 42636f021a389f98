/**
 * Codex CLI's session files ("rollouts", `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<stamp>-<id>.jsonl`)
 * read into the same {@link TranscriptFacts} as Claude Code's transcript: files the session
 * patched, its plan, the user's first and last requests, questions left open and deferrals.
 * Streaming and tolerant like lib/transcript.ts; only the record shapes differ.
 *
 * Record shapes (Codex 0.171): `{timestamp, type, payload}` with `type` one of `session_meta`
 * (`payload.id`, `payload.cwd`), `turn_context` (`payload.cwd`), `response_item` (`payload.type`:
 * `message` with `role` and `content[].text`, `function_call` with `name`, `arguments` (a JSON
 * string) and `call_id`, `custom_tool_call` with `name` and `input`, and their `*_output`
 * records), `event_msg` (UI events; `item_completed` with a `FileChange` item lists the applied
 * `changes` by absolute path). Files are known from `apply_patch` (as a tool, or as the shell
 * heredoc Codex intercepts) only: what a plain shell command writes is invisible here.
 * @module
 */

import {
  answersQuestion,
  closingQuestion,
  deferralsIn,
  forEachLine,
  type Loaded,
  type Located,
  type LocateInputs,
  type Mention,
  normalizePath,
  relativeTo,
  type Task,
  type TouchedFile,
  type TranscriptFacts,
} from "./transcript.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** A tool call waiting for its output: the files it would touch. */
interface PendingCall {
  files: string[];
  line: number;
}

/** The files a V4A patch (`*** Begin Patch` … `*** End Patch`) adds, updates, deletes or moves to. */
export function patchFiles(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)) {
    const p = m[1].trim();
    if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

/** Text a person typed, or undefined for the wrappers Codex sends as user messages. */
function typedText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const text = content.map((c: Json) => (typeof c?.text === "string" ? c.text : "")).join("\n")
    .trim();
  if (text === "") return undefined;
  // <environment_context>, <user_instructions>, <skills_instructions>, AGENTS.md, …
  if (/^<[a-z_]+>[\s\S]*<\/[a-z_]+>$/.test(text) || text.startsWith("# AGENTS.md")) {
    return undefined;
  }
  return text;
}

/** True when a tool output says the call failed (non-zero exit, rejected patch). */
function failed(output: unknown): boolean {
  const text = typeof output === "string" ? output : JSON.stringify(output ?? "");
  return /"exit_code"\s*:\s*[1-9]|^Exit code: [1-9]|Process exited with code [1-9]|verification failed/m
    .test(text.slice(0, 2_000));
}

/** Folds a Codex rollout, one line at a time, into {@link TranscriptFacts}. Pure: no IO. */
export class CodexReader {
  #root: string;
  #path: string;
  #cwd?: string;
  #sessionCwd?: string;
  #sessionId?: string;
  #pending = new Map<string, PendingCall>();
  #files = new Map<string, TouchedFile>();
  #tasks: Task[] = [];
  #questions: Mention[] = [];
  #deferrals: Mention[] = [];
  #first?: Mention;
  #last?: Mention;
  #lastText?: Mention;
  #openQuestion?: Mention;
  #lines = 0;
  #bad = 0;

  constructor(opts: { root: string; path?: string }) {
    this.#root = normalizePath(opts.root);
    this.#path = opts.path ?? "";
  }

  /** Reads one physical line. */
  line(text: string): void {
    const n = ++this.#lines;
    if (text.trim() === "") return;
    let rec: Json;
    try {
      rec = JSON.parse(text);
    } catch {
      this.#bad++;
      return;
    }
    if (typeof rec !== "object" || rec === null || Array.isArray(rec)) {
      this.#bad++;
      return;
    }
    const p = rec.payload;
    if (typeof p !== "object" || p === null) return;
    if (rec.type === "session_meta") {
      this.#sessionId ??= typeof p.id === "string" ? p.id : undefined;
      if (typeof p.cwd === "string") this.#sessionCwd ??= p.cwd;
      this.#cwd ??= this.#sessionCwd;
    } else if (rec.type === "turn_context") {
      if (typeof p.cwd === "string") this.#cwd = p.cwd;
    } else if (rec.type === "response_item") {
      this.#item(p, n);
    } else if (rec.type === "event_msg") {
      // The applied patch itself, with absolute paths: it settles the call it belongs to.
      const item = p.type === "item_completed" ? p.item : undefined;
      const applied = item?.type === "FileChange" && item.status === "completed"
        ? item.changes
        : p.type === "patch_apply_end" && p.success !== false
        ? p.changes
        : undefined;
      if (applied && typeof applied === "object" && !Array.isArray(applied)) {
        this.#pending.delete(String(item?.id ?? p.call_id));
        this.#touch(Object.keys(applied), n);
      }
    }
  }

  #item(p: Json, n: number): void {
    if (p.type === "message" && p.role === "user") {
      const text = typedText(p.content);
      if (text === undefined) return;
      const mention = { text: text.length > 300 ? text.slice(0, 299) + "…" : text, line: n };
      if (this.#openQuestion && !answersQuestion(this.#openQuestion.text, text)) {
        this.#questions.push(this.#openQuestion);
      }
      this.#openQuestion = undefined;
      this.#first ??= mention;
      this.#last = mention;
    } else if (p.type === "message" && p.role === "assistant") {
      const text = Array.isArray(p.content)
        ? p.content.map((c: Json) => (typeof c?.text === "string" ? c.text : "")).join("\n").trim()
        : "";
      if (text === "") return;
      this.#lastText = { text: text.length > 300 ? text.slice(-300) : text, line: n };
      for (const d of deferralsIn(text)) this.#deferrals.push({ text: d, line: n });
      const q = closingQuestion(text);
      this.#openQuestion = q ? { text: q, line: n } : undefined;
    } else if (p.type === "function_call" || p.type === "custom_tool_call") {
      this.#call(p, n);
    } else if (p.type === "function_call_output" || p.type === "custom_tool_call_output") {
      const call = this.#pending.get(String(p.call_id));
      if (!call) return;
      this.#pending.delete(String(p.call_id));
      if (!failed(p.output)) this.#touch(call.files, call.line);
    }
  }

  #call(p: Json, n: number): void {
    let args: Json = p.input;
    if (typeof p.arguments === "string") {
      try {
        args = JSON.parse(p.arguments);
      } catch {
        args = p.arguments;
      }
    }
    const name = String(p.name ?? "");
    if (name === "update_plan" && Array.isArray(args?.plan)) {
      this.#tasks = args.plan.filter((s: Json) => typeof s?.step === "string").map((
        s: Json,
        i: number,
      ) => ({
        id: String(i + 1),
        subject: s.step,
        status: String(s.status ?? "pending"),
        line: n,
      }));
      return;
    }
    // apply_patch as a tool (input or arguments.input), or as a shell heredoc.
    const text = typeof args === "string"
      ? args
      : [args?.input, args?.patch, args?.cmd, args?.command].flat().filter((v) =>
        typeof v === "string"
      ).join("\n");
    if (!text.includes("*** Begin Patch")) return;
    const files = patchFiles(text);
    if (files.length > 0) this.#pending.set(String(p.call_id ?? `line-${n}`), { files, line: n });
  }

  #touch(paths: string[], line: number): void {
    const base = this.#cwd ?? this.#sessionCwd ?? this.#root;
    for (const raw of paths) {
      const abs = normalizePath(/^(?:\/|[A-Za-z]:[\\/])/.test(raw) ? raw : `${base}/${raw}`);
      const rel = relativeTo(abs, this.#root);
      const path = rel ?? abs;
      const known = this.#files.get(path);
      if (known) known.line = line;
      else {this.#files.set(path, {
          path,
          outside: rel === undefined,
          tools: ["apply_patch"],
          line,
        });}
    }
  }

  /** The facts so far. Calls still without an output count as done (the session died mid-call). */
  facts(): TranscriptFacts {
    for (const call of this.#pending.values()) this.#touch(call.files, call.line);
    this.#pending.clear();
    const questions = [...this.#questions];
    if (this.#openQuestion) questions.push(this.#openQuestion);
    const files = [...this.#files.values()].sort((a, b) =>
      a.outside === b.outside
        ? (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
        : a.outside
        ? 1
        : -1
    );
    return {
      path: this.#path,
      files,
      tasks: this.#tasks.map((t) => ({ ...t })),
      questions,
      deferrals: [...this.#deferrals],
      firstRequest: this.#first,
      lastRequest: this.#last,
      lastAssistantText: this.#lastText,
      sessionId: this.#sessionId,
      cwd: this.#sessionCwd,
      lines: this.#lines,
      badLines: this.#bad,
    };
  }
}

/** Parses a whole rollout held in memory (tests, small inputs). */
export function parseCodexTranscript(
  text: string,
  opts: { root: string; path?: string },
): TranscriptFacts {
  const reader = new CodexReader(opts);
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const l of lines) reader.line(l.endsWith("\r") ? l.slice(0, -1) : l);
  return reader.facts();
}

/** Streams the rollout at `path` into facts. Throws only when the file cannot be opened. */
export async function readCodexTranscript(
  path: string,
  opts: { root: string },
): Promise<TranscriptFacts> {
  const reader = new CodexReader({ ...opts, path });
  await forEachLine(path, (l) => reader.line(l));
  return reader.facts();
}

/** True when the file at `path` starts like a Codex rollout (a `session_meta` record). */
export async function isCodexRollout(path: string): Promise<boolean> {
  try {
    using file = await Deno.open(path, { read: true });
    const buf = new Uint8Array(512);
    const n = await file.read(buf);
    const head = new TextDecoder().decode(buf.subarray(0, n ?? 0));
    return /^\s*\{[^\n]*"type"\s*:\s*"session_meta"/.test(head);
  } catch {
    return false;
  }
}

/** Where Codex keeps its rollouts: `$CODEX_HOME/sessions`, else `~/.codex/sessions`. */
export function codexSessionsDir(env: { codexHome?: string; home?: string }): string | undefined {
  const base = env.codexHome ?? (env.home ? `${env.home}/.codex` : undefined);
  return base ? `${base}/sessions` : undefined;
}

function sortedDir(dir: string, test: (name: string) => boolean): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name).filter(test).sort().reverse();
  } catch {
    return [];
  }
}

/** Rollout files under the sessions dir, newest first (by their dated folders and names). */
function* rollouts(sessions: string): Generator<string> {
  const digits = (n: number) => (name: string) => new RegExp(`^\\d{${n}}$`).test(name);
  for (const y of sortedDir(sessions, digits(4))) {
    for (const m of sortedDir(`${sessions}/${y}`, digits(2))) {
      for (const d of sortedDir(`${sessions}/${y}/${m}`, digits(2))) {
        const dir = `${sessions}/${y}/${m}/${d}`;
        for (const f of sortedDir(dir, (n) => /^rollout-.*\.jsonl$/.test(n))) yield `${dir}/${f}`;
      }
    }
  }
}

/** The `cwd` of a rollout's `session_meta` (its first line), or undefined. */
async function rolloutCwd(path: string): Promise<string | undefined> {
  let first: string | undefined;
  try {
    using file = await Deno.open(path, { read: true });
    const buf = new Uint8Array(64 * 1024);
    const n = await file.read(buf);
    first = new TextDecoder().decode(buf.subarray(0, n ?? 0)).split("\n", 1)[0];
  } catch {
    return undefined;
  }
  const m = /"cwd"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(first ?? "");
  try {
    return m ? JSON.parse(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** How many of the newest rollouts the newest-of-this-project fallback looks at. */
const SCAN_LIMIT = 200;

/**
 * Finds the Codex session's rollout: the one named by `sessionId` (Codex puts it in the shell
 * tool's environment as `CODEX_THREAD_ID`); else the newest whose `cwd` is the project (root or
 * below it). Never throws.
 */
export async function locateCodexTranscript(inputs: {
  root: string;
  sessionId?: string;
  codexHome?: string;
  home?: string;
  exclude?: string;
}): Promise<Located> {
  const sessions = codexSessionsDir(inputs);
  if (!sessions) return { reason: "no home directory to find ~/.codex/sessions in" };
  if (inputs.sessionId !== undefined && !/^[A-Za-z0-9_-]+$/.test(inputs.sessionId)) {
    return { reason: `not a session id: ${inputs.sessionId}` };
  }
  const root = normalizePath(inputs.root);
  let seen = 0;
  for (const path of rollouts(sessions)) {
    if (inputs.sessionId && path.endsWith(`-${inputs.sessionId}.jsonl`)) {
      return { path, how: "session" };
    }
    if (inputs.exclude && path.endsWith(`-${inputs.exclude}.jsonl`)) continue;
    if (inputs.sessionId || ++seen > SCAN_LIMIT) continue;
    const cwd = await rolloutCwd(path);
    if (cwd !== undefined && relativeTo(normalizePath(cwd), root) !== undefined) {
      return { path, how: "newest" };
    }
  }
  return {
    reason: inputs.sessionId
      ? `no Codex rollout for session ${inputs.sessionId} in ${sessions}`
      : `no Codex rollout of this project in ${sessions}`,
  };
}

/**
 * The Codex side of `loadTranscript`: a `--transcript` that is a Codex rollout, or, inside Codex
 * (`CODEX_THREAD_ID` set, no Claude Code session id), that session's rollout. Undefined when
 * neither applies (the caller reads Claude Code's transcript). Never throws.
 */
export async function loadCodexTranscript(
  inputs: LocateInputs & { relRoot?: string },
): Promise<Loaded | undefined> {
  let located: Located;
  if (inputs.transcript) {
    const p = /^(?:\/|[A-Za-z]:[\\/])/.test(inputs.transcript)
      ? inputs.transcript
      : `${inputs.cwd}/${inputs.transcript}`;
    if (!(await isCodexRollout(p))) return undefined;
    located = { path: p, how: "flag" };
  } else if (inputs.codexThreadId && !inputs.sessionId) {
    located = await locateCodexTranscript({
      root: inputs.root,
      sessionId: inputs.codexThreadId,
      codexHome: inputs.codexHome,
      home: inputs.home,
    });
    if (!located.path) return { located };
  } else {
    return undefined;
  }
  try {
    const facts = await readCodexTranscript(located.path!, {
      root: inputs.relRoot ?? inputs.root,
    });
    return { facts, located };
  } catch (err) {
    return { located: { reason: `cannot read ${located.path}: ${(err as Error).message ?? err}` } };
  }
}
