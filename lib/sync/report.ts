/**
 * What `push` and `pull` print: one line per kind of change, renames spelled out (the merge rules
 * promise that a collision is said in the output); and the two modes' shared run (their flag,
 * the call, the lines), so each mode file holds only its help.
 * @module
 */

import type { Store } from "../store/store.ts";
import { redactionNote } from "../secrets/redact.ts";
import { whoAmI } from "./identity.ts";
import { pull, type SyncReport } from "./sync.ts";
import { push } from "./push.ts";

/** The lines reporting a sync. */
export function describe(report: SyncReport, mode: "push" | "pull"): string[] {
  const out: string[] = [];
  const remote = report.remote;
  if (mode === "pull" && report.empty) {
    return [
      `The remote "${remote}" holds no session store yet ("session.ts push" puts one there).`,
    ];
  }
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  if (mode === "push") {
    out.push(
      report.pushed
        ? `Pushed to "${remote}" (refs/session/store, ${report.pushed.slice(0, 12)})` +
          (report.docsOut.length ? `: ${plural(report.docsOut.length, "new handover")}` : "") +
          (report.attempts > 1 ? `, after ${report.attempts} attempts (the remote moved)` : "")
        : `"${remote}" already holds this store; nothing to push.`,
    );
    for (const d of report.docsOut) {
      if (d.to !== d.from) {
        out.push(`  ${d.from} is "${d.to}" there: the remote had another ${d.from}`);
      }
    }
  }
  const { added, removed, changed } = report.parked;
  const brought = [
    report.docsIn.length ? plural(report.docsIn.length, "handover") : "",
    added ? `${plural(added, "parked item")} added` : "",
    removed ? `${plural(removed, "parked item")} dropped elsewhere` : "",
    changed ? `${plural(changed, "parked item")} updated` : "",
  ].filter((s) => s !== "");
  if (brought.length) out.push(`From "${remote}": ${brought.join(", ")}.`);
  else if (mode === "pull") out.push(`Up to date with "${remote}".`);
  for (const d of report.docsIn) {
    if (d.to !== d.from) {
      out.push(`  ${d.from} came in as ${d.to}: this store has another ${d.from}`);
    }
  }
  for (const slug of report.superseded) {
    out.push(
      `  ${slug} was edited on both sides: the newer edit is kept, the other is logged in ` +
        `dropped.jsonl (superseded)`,
    );
  }
  return out;
}

/** The `--remote NAME` flag both modes take (a lib/cli/args.ts FlagDef). */
export const REMOTE_FLAG = {
  type: "string",
  value: "NAME",
  help: "the git remote (default: the branch's upstream remote, else origin)",
} as const;

/**
 * Runs `push` or `pull` for a store and returns the lines to print, the note on what was
 * redacted on the way (for stderr; "" when nothing), and the report they describe.
 */
export async function syncLines(
  mode: "push" | "pull",
  store: Store,
  o: { remote?: string; now: Date; env: (name: string) => string | undefined },
): Promise<{ lines: string[]; note: string; report: SyncReport }> {
  const opts = { remote: o.remote, now: o.now, who: await whoAmI(store.root, o.env) };
  const report = await (mode === "push" ? push : pull)(store, opts);
  return { lines: describe(report, mode), note: redactionNote(report.redacted), report };
}
