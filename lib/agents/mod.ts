/**
 * The agents session serves (Claude Code, Codex CLI, Gemini CLI, Qwen Code, opencode, GitHub
 * Copilot CLI, Kilo Code CLI, Cline CLI): where each registers the hook for each event
 * (SessionStart, SessionEnd, PreCompact; Gemini's BeforeAgent; the plugin file of opencode, Kilo
 * Code CLI and Cline CLI),
 * the command registered, editing their settings files, and what `doctor` finds.
 * The modes `install`, `uninstall` and `doctor` (lib/cli/) are thin over these.
 *
 * - targets.ts: each agent's settings files per scope and the shape of its hook entry (data)
 * - homes.ts: where each agent keeps its user files, and whether a `--user` path may be written
 * - command.ts: the exact CLI and hook commands, with their least-privilege Deno flags
 * - settings.ts: pure edits of a JSONC settings file, comments and formatting kept: find, add, remove our hook
 * - plugin_file.ts: the registration of opencode, Kilo and Cline, a whole plugin file: its text, the command read back
 * - gitignore.ts: whether `.gitignore` keeps `.claude/state/` out of git, and the line to add
 * - registration.ts: the IO around those edits: read, edit, write atomically; the gitignore
 * - installed.ts: whether an install names this project (its Claude Code settings register the hook)
 * - finding.ts: one line of doctor's report
 * - doctor.ts: doctor's findings: Deno, each registration read back, the store, gitignore
 * - registered_command.ts: one registered command read back: words, script, grants, and its own faults
 * - matcher.ts: what a SessionStart matcher covers, read the way each agent reads it
 * - event_findings.ts: doctor on the continuity events: matcher, older registration, transcripts, plugin
 * - runtime.ts: which Deno was found, where, and whether it is new enough
 * - trust.ts: whether Codex and Gemini will run the hook (feature flag, hook and folder trust)
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder); import the
 * concept file.
 * @module
 */
