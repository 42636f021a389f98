/**
 * What each agent can take of an injected text: the one budget table, keyed by the agent's name
 * as `--agent` takes it (the {@link Agent} type is its keys), and the rules that fit a framed text
 * into a budget — whole when it fits, else rebuilt smaller until its bytes fit too.
 * @module
 */

import { utf8Length } from "../fs/atomic.ts";
import { frameCost, framed, longestBacktickRun } from "./fence.ts";

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
 * Claude Code previews only ~2,000 characters of a context over 10,000: a body over 8,000 is
 * digested, a context stays under 9,500. Gemini CLI (0.61), Qwen Code (0.24) and opencode (1.18)
 * have no such limit (the last two put it in the system prompt whole); they get these numbers.
 */
const CHARACTERS: Budget = { digestOver: 8_000, limit: 9_500 };

/**
 * Per-agent budgets. Codex CLI (0.171) spills hook output over 2,500 tokens, counted as
 * ceil(UTF-8 bytes / 4), to a file and shows the model a preview: 10,000 bytes is the line, so
 * Codex also gets a byte cap with a margin.
 */
export const BUDGETS = {
  claude: CHARACTERS,
  codex: { ...CHARACTERS, maxBytes: 9_800 },
  gemini: CHARACTERS,
  qwen: CHARACTERS,
  opencode: CHARACTERS,
} as const satisfies Record<string, Budget>;

/** The agents the hook knows, by the name `--agent` takes. */
export type Agent = keyof typeof BUDGETS;

/** Whether `name` is an agent of the table (own keys only: `toString` is none). */
export function isAgent(name: string): name is Agent {
  return Object.hasOwn(BUDGETS, name);
}

/** Whether `body` is too long to be injected whole: over the budget's `digestOver` characters. */
export function overDigest(body: string, budget: Budget): boolean {
  return body.length > budget.digestOver;
}

/**
 * `body` framed under `banner` whole, when it needs no digest ({@link overDigest}) and the whole
 * context fits the budget's characters and bytes; else undefined.
 */
export function wholeContext(banner: string, body: string, budget: Budget): string | undefined {
  if (overDigest(body, budget)) return undefined;
  if (body.length > budget.limit - frameCost(banner, longestBacktickRun(body))) return undefined;
  const context = framed(banner, body);
  return budget.maxBytes !== undefined && utf8Length(context) > budget.maxBytes
    ? undefined
    : context;
}

/**
 * `build(room)`, then — with a byte cap (Codex) — built again with the room shrunk by the
 * overshoot's ratio (`again` set) until it fits, at most 8 times.
 */
export function withinBytes(
  room: number,
  budget: Budget,
  build: (room: number, again: boolean) => string,
): string {
  let context = build(room, false);
  for (let i = 0; budget.maxBytes !== undefined && i < 8; i++) {
    const bytes = utf8Length(context);
    if (bytes <= budget.maxBytes) break;
    // From the context's own length, not the room: a text far under the room (emoji: 4 bytes per
    // 2 UTF-16 units) would otherwise shrink by a few percent a round and never fit.
    room = Math.max(0, Math.floor((Math.min(room, context.length) * budget.maxBytes) / bytes) - 64);
    context = build(room, true);
  }
  return context;
}
