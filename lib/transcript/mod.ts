/**
 * Transcripts: what the session really did, read from the agent's own record of it (Claude
 * Code's JSONL transcript, Codex's rollout) into one {@link TranscriptFacts}: files touched,
 * tasks, questions left open, deferrals, first and last requests. Streaming, so memory stays flat
 * however long the file (but for the id of each record read, so a repeated one is read once);
 * tolerant of bad lines, unknown record types and future fields.
 *
 * - facts.ts: the facts model, and the one builder both readers feed (state, shared rules, assembly)
 * - prose.ts: closing questions, whether a reply answers one, deferral phrases
 * - paths.ts: path arithmetic on the paths transcripts carry (absolute, relative, normalized),
 *   and Claude Code's folder name for a project
 * - open.ts: the one way a transcript file is opened (a regular file inside its transcripts
 *   folder, symlinks resolved: no FIFO blocks, no symlink leads out); imports nothing
 * - tail.ts: a transcript's last bytes, through open.ts (SessionEnd's glance, the nudge)
 * - lines.ts: line by line, streamed from a file in chunks or split from text
 * - prompt.ts: what a person typed, in a Claude Code or Codex user message (the one rule: who
 *   the record says wrote it, then `typedText`, the client's wrappers, notices and appended lines
 *   set aside), and whether it asks for something (`isSubstantive`: not a "thanks" or "ok");
 *   imports nothing
 * - claude.ts: Claude Code's record shapes, read into the builder
 * - subagents.ts: the subagents' own transcripts beside a Claude Code session's
 * - codex.ts: Codex's rollout shapes and V4A patches, read into the builder
 * - read.ts: a transcript file of either agent (which reader; Codex's loaded only for a rollout)
 * - locate.ts: finding the session's file (flag, session id, newest of this project)
 * - newest.ts: the project's newest Claude Code transcript by metadata alone (list's unsaved notice)
 * - load.ts: locate, choose the reader, read; the locate inputs from the environment
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder); import the
 * concept file.
 * @module
 */
