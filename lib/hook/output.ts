/**
 * What the hook prints of a handover: its banner (lib/frame/banner.ts `recordBanner`: who left
 * what, the recall command), its body as injected, and the one JSON object the hook prints. The
 * body whole when it fits the agent's budget is lib/frame/budget.ts `wholeContext`; the digest,
 * when it does not, is lib/hook/context.ts's.
 * @module
 */

import { cliCommand } from "../agents/command.ts";
import { bannerAgo, branchWords, recordBanner } from "../frame/banner.ts";
import { shortenRuns } from "../frame/fence.ts";

/** What a banner names of a document: its slug, `created` and branch. */
export interface DocHead {
  slug: string;
  created?: string;
  branch?: string;
}

/** A handover's banner ({@link bannerLine}) and the recall command it names. */
export function restoreBanner(doc: DocHead, now: Date): { banner: string; recall: string } {
  const recall = cliCommand("recall", doc.slug);
  return { banner: bannerLine(doc.slug, bannerAgo(doc.created, now), doc.branch, recall), recall };
}

/** A body as it is injected: LF line ends, trimmed, backtick runs shortened. */
export function injectedBody(body: string): string {
  return shortenRuns(body.replace(/\r\n?/g, "\n").trim());
}

/**
 * The restore's first line, factual: who left what (slug, age as lib/store/time.ts `formatAgo`
 * says it, branch) and the command that recalls the whole document; the text follows fenced.
 */
export function bannerLine(
  slug: string,
  ago: string,
  branch: string | undefined,
  recall: string,
): string {
  return recordBanner(
    `The previous session left this handover: "${slug}" (dumped ${ago}, ${
      branchWords(branch)
    }). Full document: \`${recall}\`.`,
    "It",
    "that session's",
  );
}

/**
 * The one JSON object the hook prints (the form Claude Code, Codex CLI, Gemini CLI and Qwen Code
 * read). `event` names the event it answers: SessionStart, or BeforeAgent for Gemini's deferred
 * restore. `title`, for Claude Code's restore of a handover, names the session after it
 * (`sessionTitle`, read since 2.1.152).
 */
export function hookOutput(context: string, event = "SessionStart", title?: string): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: event,
      additionalContext: context,
      ...(title ? { sessionTitle: title } : {}),
    },
  });
}
