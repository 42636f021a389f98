/**
 * Sync: the store's handovers, PARKED.md and dropped.jsonl carried through a dedicated ref of the
 * project's own git remote (`refs/session/store`), with git plumbing only — never the work tree,
 * the index, HEAD or a branch.
 *
 * - `merge.ts` — the merge rules, pure: handovers by slug and content, parked items three-way by
 *   slug (a drop wins), the drop logs' union.
 * - `git.ts` — the git plumbing (fetch into a private ref, hash-object, mktree, commit-tree,
 *   update-ref, push with an explicit refspec, never forced).
 * - `snapshot.ts` — the store's side: handovers by content key (cached by mtime and size), and
 *   applying a merge through the store's locks and atomic writes.
 * - `ref_state.ts` — the store as a ref's commit holds it, and the merge's base.
 * - `identity.ts` — who syncs, and the `from` line / `-from-<user-host>` suffix naming them.
 * - `sync.ts` — `pull`: fetch, merge into the store; the report and the store's side push shares.
 * - `push.ts` — `push`: merge in memory, commit, push without force, retry when behind; then the
 *   store brought up to what was pushed.
 * - `report.ts` — what the modes print, and their shared run.
 * - `redaction.ts` — what travels, redacted on the way, the counts kept for the note.
 * - `text.ts` — what travels is text: a remote or local file that is not is refused, named.
 * @module
 */
