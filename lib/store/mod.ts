/**
 * The store: the handovers of one project under `<root>/.claude/state/session`, what names them,
 * what their front matter says, and the LATEST pointer. Formats and rules: docs/STORE.md.
 *
 * - root.ts: the `<root>` rule (which project), and the git top-level it stops at
 * - store.ts: the layout (paths of one store), safe slugs, documents read confined to the store
 * - latest.ts: the LATEST pointer: read, write, take under the docs lock, recover old claims
 * - front_matter.ts: the hand-written front matter reader and writer (our schema only)
 * - catalog.ts: the stored handovers with their heads, ages and staleness, cached
 * - slug.ts: slugs from names or unnamed, refusals, `-2` on collision (pure)
 * - time.ts: stamps, ages, the spec's thresholds and the pinned clock
 *
 * Import the concept file, not this one: a barrel would load the whole folder.
 * @module
 */

export * from "./root.ts";
export * from "./store.ts";
export * from "./latest.ts";
export * from "./front_matter.ts";
export * from "./catalog.ts";
export * from "./slug.ts";
export * from "./time.ts";
