/**
 * The store: the handovers of one project under `<root>/.claude/state/session`, what names them,
 * what their front matter says, and the LATEST pointer. Formats and rules: docs/STORE.md.
 *
 * - store.ts: which project (the `<root>` rule, and the git top-level it stops at), the layout
 *   (paths of one store), safe slugs, documents read confined to the store
 * - latest.ts: the LATEST pointer and the restored marker, read side
 * - lifecycle.ts: every change of LATEST and `consumed` (point, consume, expire, repair, legacy
 *   claims): pure decisions, applied under the docs lock
 * - docs_lock.ts: the docs lock every writer of a document or LATEST holds
 * - front_matter.ts: the hand-written front matter reader and writer (our schema only)
 * - catalog.ts: the stored handovers with their heads, ages and staleness, cached
 * - lineage.ts: the chains `parent:` makes: a handover's ancestors, the forest of all (pure)
 * - slug.ts: slugs from names or unnamed, refusals, `-2` on collision (pure)
 * - time.ts: stamps, ages, the store's thresholds and the pinned clock
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder); import the
 * concept file.
 * @module
 */
