/**
 * Search over all the store remembers (`search`): every handover section, parked item and dropped
 * item, exact words ranked before fuzzy matches.
 *
 * - corpus.ts: the store read once into searchable units with their dates (the IO edge)
 * - rank.ts: which units every query word matches, best first (Fuse.js over the distinct words)
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder); import the
 * concept file.
 * @module
 */
