/**
 * What each agent can take of an injected text: the one budget table, keyed by the agent's name
 * as `--agent` takes it (the {@link Agent} type is its keys). It imports nothing: the hook's flags
 * read it on every run; fitting a text into a budget is `fit.ts`, loaded only for an injection.
 * @module
 */

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
  // GitHub Copilot CLI (1.0.102) puts a SessionStart context in the conversation whole.
  copilot: CHARACTERS,
  // Kilo Code CLI (7.7), like opencode, puts it in the system prompt whole.
  kilo: CHARACTERS,
  // Factory Droid (0.215) puts a SessionStart context in the conversation whole, as a user message.
  droid: CHARACTERS,
  // Cline CLI (3.0) appends a plugin's run context to the conversation whole.
  cline: CHARACTERS,
} as const satisfies Record<string, Budget>;

/** The agents the hook knows, by the name `--agent` takes. */
export type Agent = keyof typeof BUDGETS;

/** Whether `name` is an agent of the table (own keys only: `toString` is none). */
export function isAgent(name: string): name is Agent {
  return Object.hasOwn(BUDGETS, name);
}
