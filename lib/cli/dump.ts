/**
 * `dump [name] [--force]`: writes the handover from the agent's sections on stdin and the
 * evidence (lib/handover/write.ts), then LATEST; prints the path, the counts, the size, the next
 * step and `/clear`. The agent's text is redacted here, the evidence as it is collected
 * (lib/handover/evidence/collect.ts): no credential reaches the handover, and stderr says how many
 * of which kinds were taken out.
 * @module
 */

import { EXIT, UsageError } from "../errors.ts";
import {
  CAP,
  countItems,
  findSection,
  largestSections,
  measure,
  overage,
} from "../handover/document.ts";
import { collectRedacted } from "../handover/evidence/collect.ts";
import { type Dumped, writeHandover } from "../handover/write.ts";
import { splitFrontMatter } from "../store/front_matter.ts";
import { refusal } from "../store/slug.ts";
import { redactionNoteLazily, redactLazily } from "../secrets/lazy.ts";
import { type ModeSpec, parseOrHelp } from "./args.ts";
import type { Context } from "./context.ts";
import { evidenceOptions, SESSION_FLAG, SINCE_FLAG, TRANSCRIPT_FLAG } from "./flags.ts";

/** Arguments and help of `dump`. */
export const SPEC: ModeSpec = {
  mode: "dump",
  usage:
    "dump [name] [--force] [--since SPEC] [--transcript PATH] [--session ID] [--dir DIR] < sections.md",
  summary:
    "Writes a handover from the agent's sections (markdown on stdin) and points LATEST at it.",
  flags: {
    force: {
      type: "boolean",
      help: "overwrite an existing handover of that name (else -2, -3, …)",
    },
    since: SINCE_FLAG,
    transcript: TRANSCRIPT_FLAG,
    session: SESSION_FLAG,
  },
  maxPositionals: 1,
  notes: [
    "Sections: ## Goal, ## Decisions, ## Lessons / corrections, ## Standing instructions,",
    "## Files touched, ## Outstanding, ## Artifacts, ## Next step. The files table is filled",
    "from git where you give none; open parked items are copied into ## Outstanding.",
    "Example: session.ts dump auth-refactor < handover.md",
  ],
};

/** The agent's markdown from stdin: refused when empty or binary; a pasted front matter dropped. */
export function agentMarkdown(stdin: string): string {
  const text = stdin.replace(/^\uFEFF/, "");
  const body = splitFrontMatter(text)?.body ?? text;
  if (body.trim() === "") {
    throw new UsageError(
      "nothing on stdin. Pipe the handover's sections, e.g. " +
        `"printf '## Goal\\n\\n…\\n' | session.ts dump". Nothing was written`,
    );
  }
  return body;
}

/** Runs `dump`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const name = a.positionals[0];
  const why = name === undefined ? undefined : refusal(name);
  if (why) throw new UsageError(`${why}. Nothing was written`);
  const body = await redactLazily(agentMarkdown(await ctx.readStdin()));
  const { evidence: ev, redacted } = await collectRedacted(evidenceOptions(ctx, {
    since: a.flags.since as string | undefined,
    dir: a.dir,
    transcript: a.flags.transcript as string | undefined,
    session: a.flags.session as string | undefined,
  }));
  const dumped = await writeHandover(body.text, ev, {
    now: ctx.now,
    name,
    force: a.flags.force === true,
    // Which session this is, so its SessionEnd knows it dumped (lib/continuity/session_end.ts):
    // Claude Code's id, else Codex's thread id (its hooks' session_id).
    session: ctx.env("CLAUDE_CODE_SESSION_ID") || ctx.env("CODEX_THREAD_ID"),
  });
  const note = await redactionNoteLazily(body.counts, redacted);
  if (note) ctx.err(note);
  report(dumped, ctx);
  return EXIT.ok;
}

/** Prints what was written; `/clear` is always the very last line. */
export function report(d: Dumped, ctx: Context): void {
  const size = measure(d.text);
  const decisions = countItems(findSection(d.sections, "Decisions"));
  const outstanding = countItems(findSection(d.sections, "Outstanding"));
  const lines = [
    `Wrote ${d.path}`,
    `LATEST → ${d.slug}`,
    `Counts: ${d.files} file${d.files === 1 ? "" : "s"}, ${decisions} decision${
      decisions === 1 ? "" : "s"
    }, ${outstanding} outstanding`,
    `Size: ${size.lines} lines, ~${size.tokens} tokens (cap ${CAP.lines} lines / ~1,500 tokens)`,
  ];
  const over = overage(size);
  if (over) {
    const largest = largestSections(d.sections).map((s) =>
      `${s.title} (${s.lines} lines, ~${s.tokens} tokens)`
    );
    lines.push(`Over the cap: ${over}. Written anyway; largest sections: ${largest.join(", ")}.`);
  }
  const missing = ["Goal", "Next step"].filter((t) => !findSection(d.sections, t));
  if (missing.length) {
    lines.push(
      `Missing: ${missing.map((t) => `## ${t}`).join(", ")} (the next session will want it)`,
    );
  }
  const next = findSection(d.sections, "Next step");
  if (next) lines.push(`Next step: ${next.split("\n").find((l) => l.trim())!.trim()}`);
  lines.push(
    "Now clear the context: the SessionStart hook restores this handover once, within 30 minutes.",
    "/clear",
  );
  ctx.out(lines.join("\n"));
}
