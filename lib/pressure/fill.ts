/**
 * How full a session's context is (pure): the figure from the newest usage record in a
 * transcript's tail (Claude Code's assistant `message.usage`, Codex's `token_count` event), the
 * window it is measured against, the thresholds a fill has crossed, and the nudge's words. No
 * imports: the UserPromptSubmit hook loads this on every prompt.
 * @module
 */

/** A context fill: tokens in use of a window, and where the figure came from. */
export interface Fill {
  used: number;
  size: number;
  /** `transcript` (the newest usage record) or `statusline` (the client's exact figures). */
  source: "transcript" | "statusline";
}

/** The thresholds (percent) the nudge fires at unless `install --nudge A,B` says otherwise. */
export const NUDGE_THRESHOLDS = [70, 85];

/** The window Claude Code's models have unless their usage is already above it. */
export const STANDARD_WINDOW = 200_000;
/** The long-context window, assumed once the usage is above {@link STANDARD_WINDOW}. */
export const LONG_WINDOW = 1_000_000;

/** The longest nudge line, in characters. */
export const NUDGE_MAX = 400;

/** The window a fill of `used` tokens is measured against, when the client does not say. */
export function windowFor(used: number): number {
  return used > STANDARD_WINDOW ? LONG_WINDOW : STANDARD_WINDOW;
}

/** The fill in percent (0 when the window is unknown). */
export function percent(fill: Fill): number {
  return fill.size > 0 ? (fill.used / fill.size) * 100 : 0;
}

/** A non-negative whole count, or undefined. */
function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The tokens in use from a Claude Code usage object: input + cache creation + cache read
 * (+ output, which the next request carries); undefined unless `input_tokens` is a count and
 * every other field present is one too.
 */
export function claudeUsed(usage: unknown): number | undefined {
  if (typeof usage !== "object" || usage === null) return undefined;
  const u = usage as Record<string, unknown>;
  const fields = [
    "input_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "output_tokens",
  ];
  if (count(u.input_tokens) === undefined) return undefined;
  let sum = 0;
  for (const f of fields) {
    if (u[f] === undefined) continue;
    const n = count(u[f]);
    if (n === undefined) return undefined;
    sum += n;
  }
  return sum;
}

/**
 * What a tail's record says: a usage figure, a compaction (older figures no longer count), or
 * nothing.
 */
type Seen = { used: number; size?: number } | "compacted" | undefined;

/** What one raw transcript line says about the context, parsed only when it may say anything. */
function seen(line: string): Seen {
  const claude = line.includes('"usage"') && line.includes('"assistant"');
  const codex = line.includes('"token_count"');
  const boundary = line.includes('"compact_boundary"') || line.includes('"compacted"');
  if (!claude && !codex && !boundary) return undefined;
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof record !== "object" || record === null) return undefined;
  const r = record as Record<string, unknown>;
  if (r.type === "system" && r.subtype === "compact_boundary") return "compacted";
  if (r.type === "compacted") return "compacted";
  if (r.type === "assistant" && r.isSidechain !== true) {
    const message = r.message as Record<string, unknown> | undefined;
    // A synthetic record (an API error shown as a reply) carries zeros, not the context.
    if (typeof message !== "object" || message === null || message.model === "<synthetic>") {
      return undefined;
    }
    const used = claudeUsed(message.usage);
    return used === undefined ? undefined : { used };
  }
  const payload = r.payload as Record<string, unknown> | undefined;
  if (r.type === "event_msg" && payload?.type === "token_count") {
    const info = payload.info as Record<string, unknown> | undefined | null;
    const last = info?.last_token_usage as Record<string, unknown> | undefined;
    const used = count(last?.input_tokens);
    if (used === undefined) return undefined;
    const output = count(last?.output_tokens) ?? 0;
    const size = count(info?.model_context_window);
    return { used: used + output, size: size && size > 0 ? size : undefined };
  }
  return undefined;
}

/**
 * The fill from a transcript's tail (`text`, starting at byte `from` of the file: a first line cut
 * mid-way is skipped): the newest usage record's, against the window the record names (Codex) or
 * {@link windowFor}. Undefined when the tail holds none after the last compaction, or only
 * malformed ones.
 */
export function fillFromTail(text: string, from: number): Fill | undefined {
  const lines = text.split("\n");
  if (from > 0) lines.shift();
  for (let i = lines.length - 1; i >= 0; i--) {
    const s = seen(lines[i]);
    if (s === "compacted") return undefined;
    if (s !== undefined) {
      return { used: s.used, size: s.size ?? windowFor(s.used), source: "transcript" };
    }
  }
  return undefined;
}

/**
 * Parses `install --nudge A,B`: whole percents between 1 and 99, ascending, at least one; undefined
 * when the text is not that.
 */
export function parseThresholds(text: string): number[] | undefined {
  const words = text.split(",").map((w) => w.trim());
  if (!words.length || words.some((w) => !/^\d{1,2}$/.test(w))) return undefined;
  const values = [...new Set(words.map(Number))].sort((a, b) => a - b);
  return values.every((v) => v >= 1 && v <= 99) ? values : undefined;
}

/** The thresholds `fill` has reached that are not yet `marked` (ascending). */
export function crossed(fill: Fill, thresholds: number[], marked: number[]): number[] {
  const p = percent(fill);
  return thresholds.filter((t) => p >= t && !marked.includes(t));
}

/** Tokens as people say them: `144k`, `1.2M`. */
export function tokens(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(1))}M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)}k`;
  return `${Math.round(n)}`;
}

/** The fill as a status line and the nudge say it: `72 % (144k of 200k tokens)`. */
export function fillWords(fill: Fill): string {
  return `${Math.floor(percent(fill))} % (${tokens(fill.used)} of ${tokens(fill.size)} tokens)`;
}

/**
 * How the user asks for a dump, as the nudge tells the agent to offer it: Claude Code's skill is a
 * slash command; Codex CLI has no `/session` (it answers "Unrecognized command"), so its user asks
 * in words, as with every other agent.
 */
export function dumpAsk(agent: string): string {
  return agent === "claude" ? "`/session dump`" : 'a handover ("dump the session")';
}

/**
 * The nudge's words (lib/frame/banner.ts `sessionLine` makes them the one plain `[session]` line,
 * at most {@link NUDGE_MAX} characters, no fence: it quotes nothing): how full the context is and
 * what the agent should offer, in the words of `agent` (the `--agent` name): {@link dumpAsk}.
 */
export function nudgeText(fill: Fill, agent = "claude"): string {
  return `The context is ${fillWords(fill)} full. If the work goes on, offer the user ` +
    `${dumpAsk(agent)} now, once, before auto-compaction: a handover keeps the corrections, ` +
    "decisions and open loops a compaction summary drops. Do not dump unasked.";
}
