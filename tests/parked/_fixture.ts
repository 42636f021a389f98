/** A well-formed PARKED.md the parked tests read and edit. */
export const WELL_FORMED = [
  "# Parked items",
  "",
  "- **fix-flaky-parser** — Fix the flaky parser test. Raised: 2026-11-20. Why: CI fails 1 in 10. Next: run with seed 42.",
  "- **docs-install** — Document install on Windows. Raised: 2026-11-29.",
  "",
].join("\n");
