/**
 * Evidence, as a pipeline: collectors gather facts about a project (git, the transcript, parked
 * items, artifacts), a pure merge turns them into one {@link Evidence}, and a renderer shows it.
 * `dump` and `recover` write handovers from it; `evidence` prints it (`--json`: the model as is,
 * documented in docs/CLI.md).
 *
 * - model.ts: the Evidence model (files, artifacts, open items) and what is the project's own state
 * - window.ts: the session's window: `--since` parsed, its default, the transcript's start
 * - git.ts: the git collector (branch, numstat, untracked, commits, stashes, unpushed)
 * - merge.ts: the pure merge (files from git, buildEvidence, withTranscript)
 * - collect.ts: the transcript, parked-items and artifacts collectors, and the one IO entry:
 *   everything for a root, gathered once, merged
 * - render.ts: the human-readable report
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder); import the
 * concept file.
 * @module
 */
