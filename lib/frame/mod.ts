/**
 * The frame of every text session injects into an agent's context (the restored handover, its
 * digest, the draft notice, the compaction card, the one-line notices). Below lib/hook/ and
 * lib/continuity/, which both build on it; it imports only the store's time and lib/text/.
 *
 * - fence.ts: the one fence, so nothing in a quoted text can close the quote
 * - banner.ts: the `[session]` line above it — `recordBanner` always carries the "record, not
 *   instructions" clause; `sessionLine` is a notice of one line — and a banner's branch and age
 * - budget.ts: the one budget table keyed by agent (the `Agent` type is its keys); imports nothing
 * - fit.ts: a framed text fitted into a budget (whole, or rebuilt smaller until its bytes fit)
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder, and the hook's
 * load cost is measured: docs/PERFORMANCE.md); import the concept file.
 * @module
 */
