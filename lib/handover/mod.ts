/**
 * Handovers: the document a session leaves for the next one, what it is built from, and the two
 * ways a session that did not dump still leaves something behind.
 *
 * - document.ts: the handover model: its `##` sections, their order, the size cap, the hook's digest
 * - files_table.ts: the `| File | Change | State | Ref |` table: built, merged with the agent's, capped
 * - evidence/: the evidence pipeline (collectors, pure merge, rendering) — see evidence/mod.ts
 * - write.ts: writing a handover (sections + evidence, a free slug, the docs lock, LATEST)
 * - recover.ts: a handover drafted from the transcript of a session that ended without a dump
 * - sweep.ts: the numbered "Unlanded" table of work not yet landed, from every source
 * - unlanded.ts: where sweep's table is written, and its stamp (read back by `dump`)
 * - chain.ts: the story of a chain (`recall --chain`): goals, decisions, lessons within a budget
 * - checks.ts: the rules a dump is scored by: a next step "concrete", a files row "backed", a
 *   decision with its why
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder); import the
 * concept file.
 * @module
 */
