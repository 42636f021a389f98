/**
 * Codex CLI's session files ("rollouts", `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<stamp>-<id>.jsonl`)
 * read into the same {@link TranscriptFacts} as Claude Code's transcript, through the same
 * {@link FactsBuilder}: files the session patched, its plan, the user's first and last requests,
 * questions left open and deferrals. Streaming and tolerant like ./claude.ts; only the record
 * shapes differ.
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

import { redact } from "../secrets/redact.ts";
import { FactsBuilder, type Json, type ReaderOptions, type TranscriptFacts } from "./facts.ts";
import { fileReader, textReader } from "./lines.ts";
import { clip, tail } from "../text/cut.ts";
import { codexPromptText, isCodexAbort } from "./prompt.ts";

/** A tool call waiting for its output: the files it would touch. */
interface PendingCall {
  files: string[];
  line: number;
}

/** The notice the last turn quotes for Codex's `<turn_aborted>`. */
export const TURN_ABORTED = "(Codex: the user stopped the turn)";

/** The files a V4A patch (`*** Begin Patch` … `*** End Patch`) adds, updates, deletes or moves to. */
export function patchFiles(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)) {
    const p = m[1].trim();
    if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

/** True when a tool output says the call failed (non-zero exit, rejected patch). */
function failed(output: unknown): boolean {
  return /"exit_code"\s*:\s*[1-9]|^Exit code: [1-9]|Process exited with code [1-9]|verification failed/m
    .test(outputText(output).slice(0, 2_000));
}

/** A tool output as text (Codex writes a string, or an object with the shell's fields). */
function outputText(output: unknown): string {
  return typeof output === "string" ? output : JSON.stringify(output ?? "");
}

/** What a failed output says, as the last turn quotes it: its lines after the exit code, cut. */
function failureText(output: unknown): string {
  const text = outputText(output);
  const code = /(?:Exit code:|Process exited with code) (\d+)/.exec(text)?.[1] ??
    /"exit_code"\s*:\s*(\d+)/.exec(text)?.[1];
  const body = text.split("\n").map((l) => l.trim()).filter((l) =>
    l && !/^(?:Exit code:|Wall time:|Process exited|Output:|Chunk ID:|Original token count)/.test(l)
  );
  const why = body[0] ?? "";
  return clip(code ? `Exit code ${code}${why ? `: ${why}` : ""}` : why || "(a failed call)", 200);
}

/** Folds a Codex rollout, one line at a time, into {@link TranscriptFacts}. Pure: no IO. */
export class CodexReader {
  #b: FactsBuilder;
  /** The working directory relative patch paths resolve against (the latest turn's). */
  #cwd?: string;
  #pending = new Map<string, PendingCall>();

  constructor(opts: ReaderOptions) {
    this.#b = new FactsBuilder(opts);
  }

  /** The calls since the assistant last spoke: a failed output names its tool. */
  #turnCalls = new Map<string, string>();

  /** Reads one physical line. */
  line(text: string): void {
    const n = ++this.#b.lines;
    const rec = this.#b.object(text);
    if (rec === undefined) return;
    const p = rec.payload;
    if (typeof p !== "object" || p === null) return;
    if (rec.type === "session_meta") {
      this.#b.header(p.id, p.cwd);
      if (typeof p.cwd === "string") this.#cwd ??= p.cwd;
    } else if (rec.type === "turn_context") {
      if (typeof p.cwd === "string") this.#cwd = p.cwd;
    } else if (rec.type === "response_item") {
      this.#item(p, n);
    } else if (rec.type === "event_msg") {
      if (p.type === "error" && typeof p.message === "string") {
        this.#b.apiFailed(clip(redacted(p.message), 200), n);
        return;
      }
      if (p.type === "turn_aborted") {
        this.#b.interrupted(TURN_ABORTED, n);
        return;
      }
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
      if (isCodexAbort(p)) {
        this.#b.interrupted(TURN_ABORTED, n);
        return;
      }
      const text = redacted(codexPromptText(p));
      if (text === undefined) return;
      this.#b.requested(text, n, clip(text, 300));
    } else if (p.type === "message" && p.role === "assistant") {
      const text = redacted(
        Array.isArray(p.content)
          ? p.content.map((c: Json) => (typeof c?.text === "string" ? c.text : "")).join("\n")
            .trim()
          : "",
      );
      if (text === "") return;
      this.#b.said(text, n, tail(text, 300));
      this.#turnCalls.clear();
      this.#b.deferred(text, n);
    } else if (p.type === "function_call" || p.type === "custom_tool_call") {
      this.#call(p, n);
    } else if (p.type === "function_call_output" || p.type === "custom_tool_call_output") {
      const bad = failed(p.output);
      const tool = this.#turnCalls.get(String(p.call_id));
      if (bad && tool !== undefined) this.#b.failed(redacted(failureText(p.output)), n, tool);
      const call = this.#pending.get(String(p.call_id));
      if (!call) return;
      this.#pending.delete(String(p.call_id));
      if (!bad) this.#touch(call.files, call.line);
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
    this.#b.acted(name, n, redacted(callWhat(args)));
    this.#turnCalls.set(String(p.call_id), name);
    if (name === "update_plan" && Array.isArray(args?.plan)) {
      this.#b.plan(
        args.plan.filter((s: Json) => typeof s?.step === "string").map((s: Json, i: number) => ({
          id: String(i + 1),
          subject: s.step,
          status: String(s.status ?? "pending"),
          line: n,
        })),
      );
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
    for (const raw of paths) this.#b.touch(raw, "apply_patch", line, this.#cwd);
  }

  /** The facts so far. Calls still without an output count as done (the session died mid-call). */
  facts(): TranscriptFacts {
    for (const call of this.#pending.values()) this.#touch(call.files, call.line);
    this.#pending.clear();
    return this.#b.facts();
  }
}

/** What a call was given, as the last turn names it: its command (joined) or its file. */
function callWhat(args: Json): string {
  const cmd = args?.cmd ?? args?.command;
  const v = Array.isArray(cmd) ? cmd.filter((c) => typeof c === "string").join(" ") : cmd;
  const text = typeof v === "string"
    ? v
    : typeof args?.path === "string"
    ? args.path
    : typeof args === "string"
    ? args
    : "";
  return clip(text.split("\n")[0].trim(), 100);
}

/** Parses a whole rollout held in memory (tests, small inputs). */
export const parseCodexTranscript = textReader(CodexReader);

/** Streams the rollout at `path` into facts. Rejects only when the file cannot be opened. */
export const readCodexTranscript = fileReader(CodexReader);

/**
 * What a message says, redacted before anything cuts it to 300 characters or splits it into
 * sentences: a cut through a secret leaves a piece no rule finds (read.ts redacts the other facts).
 */
function redacted<T extends string | undefined>(text: T): T {
  return (text === undefined ? text : redact(text).text) as T;
}
