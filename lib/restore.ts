/**
 * The SessionStart restore: decide whether to inject, build the context, claim the pointer
 * exactly once and mark the document consumed. Sync and light: it runs on every `/clear`.
 * @module
 */

import { writeFileAtomicSync } from "./atomic.ts";
import { cliCommand } from "./command.ts";
import { markConsumed, splitFrontMatter } from "./front_matter.ts";
import { buildDigest, capLines } from "./handover.ts";
import {
  docPath,
  findRoot,
  isSafeSlug,
  readDoc,
  readLatest,
  type Store,
  storeAt,
  takeLatest,
} from "./store.ts";
import { ageMs, formatAge, WINDOW_MS } from "./time.ts";

/** The hook payload fields we read (Claude Code, Codex CLI and Gemini CLI send these). */
export interface Payload {
  session_id?: string;
  transcript_path?: string;
  cwd: string;
  hook_event_name?: string;
  source?: string;
}

/** Size budget of the injected context for one agent. */
export interface Budget {
  /** A body longer than this (characters) is replaced by a digest. */
  digestOver: number;
  /** The whole context never exceeds this many characters. */
  limit: number;
  /** When set, the whole context never exceeds this many UTF-8 bytes either. */
  maxBytes?: number;
}

/**
 * Per-agent budgets. Claude Code previews only ~2,000 characters of a context over 10,000.
 * Codex CLI (0.171) spills hook output over 2,500 tokens, counted as ceil(UTF-8 bytes / 4), to a
 * file and shows the model a preview: 10,000 bytes is the line, so Codex also gets a byte cap
 * with a margin. Gemini CLI (0.61) has no such limit; it gets Claude Code's numbers.
 */
export const BUDGETS: Record<string, Budget> = {
  claude: { digestOver: 8_000, limit: 9_500 },
  gemini: { digestOver: 8_000, limit: 9_500 },
  codex: { digestOver: 8_000, limit: 9_500, maxBytes: 9_800 },
};

/** The agents the hook knows, by the name `--agent` takes. */
export type Agent = "claude" | "codex" | "gemini";

/** Hook options: which sources inject, the window, the agent and its budget. */
export interface RestoreOptions {
  sources: string[];
  windowMs: number;
  budget: Budget;
  agent: Agent;
}

/** Default options: `clear` only, 30 minutes, Claude Code and its budget. */
export const DEFAULT_OPTIONS: RestoreOptions = {
  sources: ["clear"],
  windowMs: WINDOW_MS,
  budget: BUDGETS.claude,
  agent: "claude",
};

/** A future `created` within this skew (clock differences) still counts as fresh. */
const FUTURE_SKEW_MS = 60_000;

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
  return {
    cwd: p.cwd,
    session_id: str(p.session_id),
    transcript_path: str(p.transcript_path),
    hook_event_name: str(p.hook_event_name),
    source: str(p.source),
  };
}

/** Why the hook stayed silent, or that it injected: for stderr diagnostics and tests. */
export type Outcome =
  | { injected: true; slug: string; context: string }
  | { injected: false; reason: string };

/** The event and source gates. */
export function gate(payload: Payload, options: RestoreOptions): string | undefined {
  if (payload.hook_event_name !== "SessionStart") return "not a SessionStart event";
  if (payload.source !== undefined && !options.sources.includes(payload.source)) {
    return `source "${payload.source}" is not enabled`;
  }
  return undefined;
}

/** The context the agent receives: a one-line banner, then the body or its digest. */
export function buildContext(
  doc: { slug: string; created?: string; branch?: string; body: string },
  now: Date,
  budget: Budget,
): string {
  const recall = cliCommand("recall", doc.slug);
  const age = formatAge(ageMs(doc.created, now));
  const when = age === "just now" ? "just now" : `${age} ago`;
  const banner = `[session] Handover "${doc.slug}" restored (dumped ${when}, branch ${
    doc.branch || "none"
  }). Full document: \`${recall}\``;
  const body = doc.body.replace(/\r\n?/g, "\n").trim();
  let room = budget.limit - banner.length - 2;
  const text = body.length > budget.digestOver ? buildDigest(body, recall, room) : body;
  let context = `${banner}\n\n${capLines(text, room)}`;
  // A byte cap (Codex): shrink the room by the overshoot's ratio and digest until it fits.
  for (let i = 0; budget.maxBytes !== undefined && i < 8; i++) {
    const bytes = utf8Length(context);
    if (bytes <= budget.maxBytes) break;
    room = Math.max(0, Math.floor((room * budget.maxBytes) / bytes) - 64);
    context = `${banner}\n\n${capLines(buildDigest(body, recall, room), room)}`;
  }
  return context;
}

const encoder = new TextEncoder();

/** Length of `text` in UTF-8 bytes. */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** A handover that passed every gate and may be injected now; nothing is claimed yet. */
export interface Pending {
  store: Store;
  slug: string;
  /** The document's full text. */
  text: string;
  created?: string;
  branch?: string;
  /** The body without front matter. */
  body: string;
}

/** Every gate of the restore, claiming nothing: the pending handover, or why there is none. */
export function findPending(
  payload: Payload,
  options: RestoreOptions,
  env: { projectDir?: string },
  now: Date,
): Pending | { reason: string } {
  const closed = gate(payload, options);
  if (closed) return { reason: closed };
  const store = storeAt(findRoot({ projectDir: env.projectDir, cwd: payload.cwd }));
  const slug = readLatest(store);
  if (slug === undefined) return { reason: "no LATEST pointer" };
  if (!isSafeSlug(slug)) return { reason: "LATEST names an unsafe slug" };
  const text = readDoc(store, slug);
  if (text === undefined || text.includes("\0")) {
    return { reason: `document "${slug}" is missing or unreadable` };
  }
  const split = splitFrontMatter(text);
  if (!split) return { reason: `document "${slug}" has no front matter` };
  if (split.fields.consumed !== "false") {
    return { reason: `document "${slug}" is already consumed` };
  }
  const age = ageMs(split.fields.created, now);
  if (age === undefined || age > options.windowMs || age < -FUTURE_SKEW_MS) {
    return { reason: `document "${slug}" is outside the restore window` };
  }
  const { created, branch } = split.fields;
  return { store, slug, text, created, branch, body: split.body };
}

/**
 * Runs the restore for one payload against the store of its project: every gate, then the
 * atomic claim of LATEST (so two hooks firing together inject once), then the byte-exact flip of
 * `consumed`. Never throws for bad data; IO errors surface as a silent outcome.
 */
export function restore(
  payload: Payload,
  options: RestoreOptions,
  env: { projectDir?: string },
  now: Date,
): Outcome {
  const found = findPending(payload, options, env, now);
  if ("reason" in found) return { injected: false, reason: found.reason };
  const { store, slug, text } = found;
  if (takeLatest(store, slug) !== slug) {
    return { injected: false, reason: "another hook claimed the pointer" };
  }
  const consumed = markConsumed(text);
  if (consumed !== undefined) writeFileAtomicSync(docPath(store, slug), consumed);
  const context = buildContext(found, now, options.budget);
  return { injected: true, slug, context };
}

/**
 * The one JSON object the hook prints (the form Claude Code, Codex CLI and Gemini CLI read).
 * `event` names the event it answers: SessionStart, or BeforeAgent for Gemini's deferred restore.
 */
export function hookOutput(context: string, event = "SessionStart"): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: event, additionalContext: context },
  });
}

/** Parses the hook's own flags: `--source a,b`, `--window-minutes N`, `--agent NAME`. */
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
    } else if (flag === "--agent") {
      const agent = value();
      if (agent === "claude" || agent === "codex" || agent === "gemini") {
        options.agent = agent;
        options.budget = BUDGETS[agent];
      }
    }
  }
  return options;
}
