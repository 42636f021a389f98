/**
 * The hook's input: the payload an agent sends on stdin, the hook's own flags (the agent's budget
 * from lib/frame/budget.ts's table), and the event and source gates.
 * @module
 */

import { type Agent, type Budget, BUDGETS, isAgent } from "../frame/budget.ts";
import { WINDOW_MS } from "../store/time.ts";

/** The hook payload fields we read (Claude Code, Codex CLI and Gemini CLI send these). */
export interface Payload {
  session_id?: string;
  transcript_path?: string;
  cwd: string;
  hook_event_name?: string;
  source?: string;
  /** PreCompact's `manual` or `auto`. */
  trigger?: string;
  /** SessionEnd: why the session ended (`clear`, `prompt_input_exit`, `logout`, `other`, …). */
  reason?: string;
  /** Factory Droid's SessionStart of a compaction's new session: the session it continues. */
  previous_session_id?: string;
}

/** Hook options: which sources inject, the window, the agent and its budget. */
export interface RestoreOptions {
  sources: string[];
  windowMs: number;
  budget: Budget;
  agent: Agent;
  /** Tests only (`--test-fault short-write|pause`): lib/fs/atomic.ts `setFault` at the write. */
  fault?: string;
  /** `--no-notice`: an automatic draft is not announced after `/clear` (it stays for recall). */
  noNotice?: boolean;
  /** `--nudge A,B`: the context fill thresholds (percent) of the UserPromptSubmit nudge. */
  nudge?: number[];
}

/** Default options: `clear` only, 30 minutes, Claude Code and its budget. */
export const DEFAULT_OPTIONS: RestoreOptions = {
  sources: ["clear"],
  windowMs: WINDOW_MS,
  budget: BUDGETS.claude,
  agent: "claude",
};

/** Parses the hook payload; undefined unless it is a JSON object with a non-empty `cwd`. */
export function parsePayload(text: string): Payload | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const p = value as Record<string, unknown>;
  if (typeof p.cwd !== "string" || p.cwd === "") return undefined;
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const payload: Payload = {
    cwd: p.cwd,
    session_id: str(p.session_id),
    transcript_path: str(p.transcript_path),
    hook_event_name: str(p.hook_event_name),
    source: str(p.source),
  };
  // Only when sent: the SessionStart payload stays the object it always was.
  if (typeof p.trigger === "string") payload.trigger = p.trigger;
  if (typeof p.reason === "string") payload.reason = p.reason;
  if (typeof p.previous_session_id === "string") {
    payload.previous_session_id = p.previous_session_id;
  }
  return payload;
}

/**
 * An agent's own names for our SessionStart sources. GitHub Copilot CLI (1.0.102) sends `new` for
 * a launch's first session and for `/clear` alike (at that session's first prompt): its `clear`.
 */
const SOURCE_NAMES: Partial<Record<Agent, Record<string, string>>> = {
  copilot: { new: "clear" },
};

/**
 * The agents whose transcripts the hook does not read, though their payload names one (Copilot's
 * events.jsonl is no format lib/transcript/ reads): the path is dropped, so nothing misreads it.
 */
const UNREAD_TRANSCRIPTS: readonly Agent[] = ["copilot", "droid"];

/**
 * The agents that name the session their `/clear` starts `resume`, as they name a real resume:
 * Factory Droid (0.215). Their `resume` is a clear only when the session before left SessionEnd's
 * clearing mark (lib/hook/restore.ts); a compaction's new session names the session it continues
 * (`previous_session_id`), and is read as `compact` of that session, whose card it gets.
 */
const CLEAR_AS_RESUME: readonly Agent[] = ["droid"];

/** Whether `agent`'s SessionStart `resume` may be its `/clear` ({@link CLEAR_AS_RESUME}). */
export function clearAsResume(agent: Agent): boolean {
  return CLEAR_AS_RESUME.includes(agent);
}

/**
 * The agents whose compaction card comes with the next prompt (UserPromptSubmit), because no
 * SessionStart follows their compaction: GitHub Copilot CLI (1.0.102).
 */
const CARD_ON_PROMPT: readonly Agent[] = ["copilot"];

/** Whether `agent`'s UserPromptSubmit delivers the card ({@link CARD_ON_PROMPT}), not the nudge. */
export function cardOnPrompt(agent: Agent): boolean {
  return CARD_ON_PROMPT.includes(agent);
}

/**
 * `payload` as the hook reads it for `agent`: its source in our names ({@link SOURCE_NAMES}), a
 * transcript it does not read dropped ({@link UNREAD_TRANSCRIPTS}).
 */
export function ourPayload(payload: Payload, agent: Agent): Payload {
  const continued = payload.previous_session_id;
  if (clearAsResume(agent) && payload.source === "resume" && continued) {
    // The compaction's new session continues the one PreCompact saved the material of.
    return { ...payload, source: "compact", session_id: continued, transcript_path: undefined };
  }
  const source = payload.source === undefined ? undefined : SOURCE_NAMES[agent]?.[payload.source];
  const unread = payload.transcript_path !== undefined && UNREAD_TRANSCRIPTS.includes(agent);
  if (source === undefined && !unread) return payload;
  return {
    ...payload,
    ...(source === undefined ? {} : { source }),
    ...(unread ? { transcript_path: undefined } : {}),
  };
}

/** The event and source gates: why the restore stays silent, or undefined when it may go on. */
export function gate(payload: Payload, options: RestoreOptions): string | undefined {
  if (payload.hook_event_name !== "SessionStart") return "not a SessionStart event";
  if (payload.source !== undefined && !options.sources.includes(payload.source)) {
    return `source "${payload.source}" is not enabled`;
  }
  return undefined;
}

/**
 * Parses the hook's own flags: `--source a,b`, `--window-minutes N`, `--agent NAME`,
 * `--no-notice`, `--nudge A,B`, `--test-fault F`. Unknown words are ignored: a hook never fails a
 * session.
 */
export function parseHookArgs(args: string[]): RestoreOptions {
  const options = { ...DEFAULT_OPTIONS, sources: [...DEFAULT_OPTIONS.sources] };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split("=", 2) as [string, string | undefined];
    const value = () => inline ?? args[++i] ?? "";
    if (flag === "--source") {
      for (const s of value().split(",")) {
        if (s && !options.sources.includes(s)) options.sources.push(s);
      }
    } else if (flag === "--window-minutes") {
      const n = Number(value());
      if (Number.isFinite(n) && n > 0) options.windowMs = n * 60_000;
    } else if (flag === "--nudge") {
      const values = value().split(",").map(Number);
      if (values.every((n) => Number.isInteger(n) && n > 0 && n < 100)) options.nudge = values;
    } else if (flag === "--no-notice") {
      options.noNotice = true;
    } else if (flag === "--test-fault") {
      options.fault = value();
    } else if (flag === "--agent") {
      const agent = value();
      if (isAgent(agent)) {
        options.agent = agent;
        options.budget = BUDGETS[agent];
      }
    }
  }
  return options;
}
