/**
 * Context pressure: how full a session's context is, and the one-line nudge that asks the agent to
 * offer a dump before auto-compaction (UserPromptSubmit). How it decides: docs/HOOK.md, "Before a
 * compaction: the nudge".
 *
 * - fill.ts: the fill from a transcript's tail (Claude Code's `message.usage`, Codex's
 *   `token_count`), the window, the thresholds crossed, the nudge line (pure, no imports)
 * - state.ts: the per-session files in the store: the thresholds fired (`.nudged-<id>`), the
 *   status line's exact figures (`.fill-<id>`)
 * - nudge.ts: the UserPromptSubmit answer, loaded by session_restore.ts for that event only
 *
 * `session.ts statusline` (lib/cli/statusline.ts) records the status line's figures through
 * state.ts. Import the concept file, not this one.
 * @module
 */
