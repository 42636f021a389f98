/**
 * Continuity without a dump (issue 13): what the hooks carry across `/clear`, compaction and exit
 * when nobody dumped. This part is the SessionStart side (and PreCompact, which feeds it).
 *
 * - notice.ts: the short notice of an automatic draft after `/clear` (≤ 700 characters)
 * - material.ts: what the compaction card is made of, gathered from the store and the
 *   transcript; the hidden `.compact-<session>.md` file; the handover a session started from
 * - card.ts: the continuity card, framed and bounded (≤ 4,000 characters, the agent's bytes)
 * - pre_compact.ts: PreCompact: save the card's material (loaded only for that event)
 * - compact.ts: SessionStart `source: "compact"`: claim the material once, inject the card
 *
 * Import the concept file, not this one: a barrel would load the whole folder.
 * @module
 */

export * from "./notice.ts";
export * from "./material.ts";
export * from "./card.ts";
export * from "./pre_compact.ts";
export * from "./compact.ts";
