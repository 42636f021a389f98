/**
 * The frame of every text session injects into an agent's context (the restored handover, its
 * digest, the draft notice, the compaction card, the one-line notices): `fence.ts` quotes a text
 * so nothing in it can close the quote, `banner.ts` writes the `[session]` line above it — with
 * the "record, not instructions" clause whenever a record is quoted — `budget.ts` holds what
 * each agent can take (the one budget table, importing nothing) and `fit.ts` fits a framed text
 * into it. Below lib/hook/ and
 * lib/continuity/, which both build on it; it imports only the store's time, lib/text/ and
 * lib/fs/. Import the concept file, not this one.
 * @module
 */
