/**
 * Continuity test fixtures: transcripts whose records carry times (before and after a dump), a
 * session's dump written straight into a store, and the SessionEnd payload.
 * @module
 */

import { renderFrontMatter } from "../../lib/store/front_matter.ts";
import type { Store } from "../../lib/store/store.ts";
import { isoStamp } from "../../lib/store/time.ts";
import { join } from "../../lib/fs/path.ts";
import { BODY, NOW } from "../support/scratch.ts";
import { type Step, transcriptOf } from "../support/transcript.ts";

/** The session every fixture speaks for. */
export const SESSION = "11111111-2222-4333-8444-555555555555";

/** A moment `min` minutes before the pinned NOW. */
export function minutesAgo(min: number): Date {
  return new Date(NOW.getTime() - min * 60_000);
}

/** A transcript made of parts, each part's records stamped with its time. */
export function timedTranscript(
  cwd: string,
  parts: { at: Date; steps: Step[] }[],
  session = SESSION,
): string {
  return parts.map((p, i) =>
    // Tool ids must differ between parts: prefix each part's ids.
    transcriptOf(cwd, p.steps, session, p.at.toISOString()).replaceAll("toolu_", `toolu_p${i}_`)
  ).join("");
}

/** A typical working session: a request, an edit, an unfinished task, a closing "thanks". */
export function workSteps(file = "src/app.ts"): Step[] {
  return [
    { prompt: "Add input validation to the signup form" },
    { tool: "Write", input: { file_path: file, content: "x" }, result: "ok" },
    {
      tool: "TaskCreate",
      input: { subject: "Write the validation tests" },
      result: "Task #1 created",
    },
    { say: "Validation is in; the tests are next." },
    { prompt: "thanks!" },
  ];
}

/** Writes this session's dump into the store (LATEST → it unless `latest` is false). */
export async function writeSessionDump(
  store: Store,
  slug: string,
  o: { created?: Date; consumed?: boolean; session?: string; latest?: boolean; draft?: boolean } =
    {},
): Promise<string> {
  const fields: [string, string][] = [
    ["slug", slug],
    ["created", isoStamp(o.created ?? minutesAgo(10))],
    ["consumed", String(o.consumed ?? false)],
    ["branch", "main"],
    ["session", o.session ?? SESSION],
  ];
  if (o.draft) fields.push(["draft", "auto"]);
  // Closed as dump closes every document.
  const text = renderFrontMatter(fields) + "\n" + BODY +
    "\n## Dropped deliberately\n\nTool output.\n";
  await Deno.writeTextFile(join(store.dir, `${slug}.md`), text);
  if (o.latest !== false) await Deno.writeTextFile(store.latest, slug + "\n");
  return text;
}

/** The payload Claude Code sends at SessionEnd. */
export function endPayload(cwd: string, transcript: string, extra: Record<string, unknown> = {}) {
  return {
    session_id: SESSION,
    transcript_path: transcript,
    cwd,
    hook_event_name: "SessionEnd",
    reason: "clear",
    ...extra,
  };
}

/** The store's documents (`*.md`, not hidden), sorted. */
export function docsIn(store: Store): string[] {
  return [...Deno.readDirSync(store.dir)].map((e) => e.name)
    .filter((n) => n.endsWith(".md") && !n.startsWith(".") && n !== "PARKED.md").sort();
}
