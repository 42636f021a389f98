/**
 * Rendering: the human-readable `evidence` report (pure). `--json` needs no renderer: it prints
 * the {@link Evidence} object as is.
 * @module
 */

import { countChange, type Evidence } from "./model.ts";

/** The human-readable evidence report. */
export function renderEvidence(ev: Evidence): string {
  const out: string[] = [
    `Branch:          ${ev.branch}${ev.git ? "" : " (not a git repository)"}`,
    `Created:         ${ev.created}`,
    `Suggested slug:  ${ev.suggestedSlug}`,
    `Session since:   ${ev.since}`,
    `Store:           ${ev.store}`,
    "",
  ];
  let width = 0; // a loop, not a spread: one argument per file overflows the stack at ~200,000
  for (const f of ev.files) if (f.change.length > width) width = f.change.length;
  out.push(
    ev.files.length
      ? `Files (${ev.files.length}):`
      : `Files: none changed${ev.git ? "" : " (outside git)"}`,
  );
  for (const f of ev.files) {
    out.push(`  ${f.change.padEnd(width)}  ${f.state.padEnd(4)}  ${f.path}  (${f.ref})`);
  }
  out.push(
    "",
    ev.commits.length ? `Commits since ${ev.since} (${ev.commits.length}):` : "Commits: none",
  );
  for (const c of ev.commits) {
    out.push(`  ${c.hash}  ${c.date}  ${c.subject}`);
    for (const f of c.files) {
      out.push(`      ${countChange(f.added, f.deleted, f.binary)}  ${f.path}`);
    }
  }
  out.push("", ev.artifacts.length ? "Artifacts changed within a day:" : "Artifacts: none recent");
  for (const a of ev.artifacts) out.push(`  ${a.dir}/  ${a.files} file(s), newest ${a.newest}`);
  const parked = ev.outstanding.filter((o) => o.source === "parked").length;
  out.push("", ev.outstanding.length ? `Outstanding (${parked} parked):` : "Outstanding: none");
  for (const o of ev.outstanding) out.push(`  - ${o.text}`);
  if (ev.outside?.length) {
    out.push("", `Written outside the project (${ev.outside.length}):`);
    for (const p of ev.outside) out.push(`  ${p}`);
  }
  if (ev.transcript) out.push("", `Transcript: ${ev.transcript}`);
  else if (ev.transcriptNote) out.push("", `Transcript: none (${ev.transcriptNote})`);
  return out.join("\n");
}
