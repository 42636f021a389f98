/**
 * Parked items: the open loops of a project, one bullet each in the store's PARKED.md, added by
 * `park`, removed by `drop` (logged to dropped.jsonl), listed by `list`, `sweep` and `evidence`.
 * The file is the user's as much as ours: any text round-trips byte for byte, an edit touches
 * only its bullet, and a 10,000-item file is edited without building its items.
 *
 * - grammar.ts: one bullet — the item model, reading and writing its fields, escaping, notes
 * - scanner.ts: a whole file — which lines are bullets, their byte spans; parse and render; the
 *   parsed file the edits and lookups work on (spans, items built on first use)
 * - lookup.ts: finding items by slug in place, unique slugs
 * - edit.ts: add, update and remove one bullet, splicing its bytes
 * - match.ts: which item a `drop` query names (exact slug, else fuzzy; ties are ambiguous)
 * - file.ts: PARKED.md on disk — reading, and the locked atomic edit every change goes through
 * - drop.ts: dropping the item a query names, logged to dropped.jsonl
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder); import the
 * concept file.
 * @module
 */
