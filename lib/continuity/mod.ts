/**
 * Continuity without a dump: what the hooks carry across `/clear`, compaction, an
 * exit or a crash when nobody dumped. session_restore.ts dispatches on `hook_event_name`.
 *
 * SessionEnd — draft a handover for a session that made no dump, or append what came after the
 * dump to the one it made:
 * - session_end.ts: `answerSessionEnd`, the decision: did this session dump, did it work after,
 *   was anything worth carrying; loads the rest only when there is something to write
 * - glance.ts: what SessionEnd looks at first, cheaply: the store's documents of one session
 *   (`session:` front matter), whether a transcript's tail shows work after a moment
 * - idle.ts: whether a short transcript shows nothing worth a handover (no reader loaded)
 * - after.ts: a whole transcript read around a moment: the facts then and at the end, commits
 * - since_dump.ts: the "Since the dump" section (pure)
 * - draft.ts: the automatic draft (`draft: auto`): recover's markdown, the transcript's files and
 *   tasks, no git; what is worth carrying; which project a transcript is of; HEAD's branch
 * - _store.ts: the store by the root rule, refused when it leads outside the project
 * - _write.ts: the writes, under the docs lock, decided again there: the draft and LATEST, the
 *   appended section
 *
 * SessionStart and PreCompact — what the fresh or compacted context gets:
 * - material.ts: what the compaction card is made of, gathered from the store and the
 *   transcript; the hidden `.compact-<session>.md` file; the handover a session started from
 * - card.ts: the continuity card, framed and bounded (≤ 4,000 characters, the agent's bytes)
 * - pre_compact.ts: PreCompact: save the card's material (loaded only for that event)
 * - compact.ts: SessionStart `source: "compact"`: claim the material once, inject the card
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder, and the hook's
 * load cost is measured: docs/PERFORMANCE.md); import the concept file.
 * @module
 */
