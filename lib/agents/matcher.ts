/**
 * What a registered SessionStart matcher covers, read the way each agent reads it, so `doctor`
 * can say whether `/clear` and compaction reach the hook. Pure.
 *
 * - Claude Code (hooks reference): `""`, `"*"` or none match every source; a matcher of only
 *   letters, digits, `_`, `-`, spaces, `,` and `|` is an exact name or a list of exact names
 *   (separated by `|` or `,`); anything else is an unanchored JavaScript regular expression.
 * - Codex CLI: none, `""` or `"*"` match all; otherwise a regular expression (`clear|compact`
 *   reads the same either way).
 * - Gemini CLI: lifecycle matchers are exact strings; none, `""` or `"*"` match all.
 * - Qwen Code: a `|` list of exact names, else a regular expression (read here as Codex's).
 * - opencode: no matcher; its plugin file stands for the sources it sends.
 * - GitHub Copilot CLI: registered with no matcher (every source).
 * - Kilo Code CLI: as opencode (the same plugin module).
 * - Factory Droid: Claude Code's hooks; a `|` list of exact names (read here as a regular
 *   expression, the same matches). It names the session its `/clear` starts `resume`.
 * - Cline CLI: its plugin file stands for the two sources it sends, as opencode's.
 * @module
 */

/** The SessionStart sources an agent has, in the order doctor names them. */
export const SOURCES: Record<string, string[]> = {
  claude: ["startup", "resume", "clear", "compact"],
  codex: ["startup", "resume", "clear", "compact"],
  gemini: ["startup", "resume", "clear"],
  qwen: ["startup", "resume", "clear", "compact"],
  // What opencode's plugin sends (hooks/opencode.ts): a new session as `clear`, and `compact`.
  opencode: ["clear", "compact"],
  // Copilot's, as the hook reads them (lib/hook/input.ts): `new` (a launch's or /clear's) as clear.
  copilot: ["resume", "clear"],
  // Kilo Code CLI runs opencode's plugin module: the same two.
  kilo: ["clear", "compact"],
  // Droid (0.215) validates these four; it sends `startup`, and `resume` for /clear and /new, for
  // a compaction's new session and for a resume alike (the hook tells them apart: lib/hook/input.ts).
  droid: ["startup", "resume", "clear", "compact"],
  // Cline CLI's plugin (hooks/cline.ts): a new session's first run as clear, the first after a
  // compaction as compact.
  cline: ["clear", "compact"],
};

/** Sources an agent must let through beyond `clear` and `compact`: Droid's /clear is `resume`. */
const ALSO_REQUIRED: Record<string, string[]> = { droid: ["resume"] };

/** Whether `matcher` (as `agent` reads it) lets `source` through. */
export function matcherCovers(agent: string, matcher: string, source: string): boolean {
  if (matcher === "" || matcher === "*") return true;
  if (agent === "gemini") return matcher === source;
  if (agent === "claude" && /^[A-Za-z0-9_\- ,|]+$/.test(matcher)) {
    return matcher.split(/[|,]/).some((name) => name.trim() === source);
  }
  try {
    return new RegExp(matcher).test(source);
  } catch {
    return false; // an invalid expression matches nothing
  }
}

/** The sources of `agent` that `matcher` lets through. */
export function coveredSources(agent: string, matcher: string): string[] {
  return (SOURCES[agent] ?? SOURCES.claude).filter((s) => matcherCovers(agent, matcher, s));
}

/**
 * The sources SessionStart must cover for the agent: `clear`, and `compact` where it exists (and
 * Droid's `resume`).
 */
export function requiredSources(agent: string): string[] {
  const also = ALSO_REQUIRED[agent] ?? [];
  return (SOURCES[agent] ?? SOURCES.claude).filter((s) =>
    s === "clear" || s === "compact" || also.includes(s)
  );
}
