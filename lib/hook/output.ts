/**
 * What the hook prints of a handover: its banner (lib/frame/banner.ts `recordBanner`: who left
 * what, the recall command), its body as injected, and the one JSON object the hook prints. The
 * body whole when it fits the agent's budget is lib/frame/fit.ts `wholeContext`; the digest,
 * when it does not, is lib/hook/context.ts's.
 * @module
 */

import { cliCommand, FLAT_ANSWER } from "../agents/command.ts";
import { bannerAgo, branchWords, recordBanner } from "../frame/banner.ts";
import { shortenRuns } from "../frame/fence.ts";

/** What a banner names of a document: its slug, `created` and branch. */
export interface DocHead {
  slug: string;
  created?: string;
  branch?: string;
}

/** A handover's banner ({@link leftBanner}) and the recall command it names. */
export function restoreBanner(doc: DocHead, now: Date): { banner: string; recall: string } {
  const recall = cliCommand("recall", doc.slug);
  const banner = leftBanner("handover", doc.slug, bannerAgo(doc.created, now), doc.branch, recall);
  return { banner, recall };
}

/** A body as it is injected: LF line ends, trimmed, backtick runs shortened. */
export function injectedBody(body: string): string {
  return shortenRuns(body.replace(/\r\n?/g, "\n").trim());
}

/** How a banner speaks of what the previous session left: a handover, or an automatic draft. */
const LEFT = {
  handover: { left: "left this handover", verb: "dumped", full: "Full document", subject: "It" },
  draft: {
    left: "left no handover; an automatic draft was saved",
    verb: "drafted",
    full: "Full draft",
    subject: "Its summary",
  },
} as const;

/**
 * The banner of what the previous session left, factual: the slug, the age as lib/store/time.ts
 * `formatAgo` says it, the branch and the command that recalls the whole document; the text (the
 * handover, or the draft's summary) follows fenced.
 */
export function leftBanner(
  kind: keyof typeof LEFT,
  slug: string,
  ago: string,
  branch: string | undefined,
  recall: string,
): string {
  const w = LEFT[kind];
  return recordBanner(
    `The previous session ${w.left}: "${slug}" (${w.verb} ${ago}, ${branchWords(branch)}). ` +
      `${w.full}: \`${recall}\`.`,
    w.subject,
    "that session's",
  );
}

/**
 * The one JSON object the hook prints (the form Claude Code, Codex CLI, Gemini CLI and Qwen Code
 * read; for an `agent` of FLAT_ANSWER, lib/agents/command.ts, `additionalContext` alone). `event`
 * names the event it answers: SessionStart, or BeforeAgent for Gemini's deferred restore. `title`,
 * for Claude Code's restore of a handover, names the session after it (`sessionTitle`, read since
 * 2.1.152).
 */
export function hookOutput(
  context: string,
  event = "SessionStart",
  title?: string,
  agent?: string,
): string {
  if (agent !== undefined && FLAT_ANSWER.includes(agent)) {
    return JSON.stringify({ additionalContext: context });
  }
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: event,
      additionalContext: context,
      ...(title ? { sessionTitle: title } : {}),
    },
  });
}
