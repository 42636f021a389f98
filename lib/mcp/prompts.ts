/**
 * The two prompts' text. `restore`: what `recall` printed (its Confidence block left out), quoted
 * under a banner that says it is the previous session's record, not instructions (lib/frame/).
 * `dump`: what the agent writes in each section and that the `dump` tool takes them.
 * @module
 */

import { recordBanner } from "../frame/banner.ts";
import { framed, shortenRuns } from "../frame/fence.ts";
import { SECTION_LIST } from "./sections.ts";
import { splitConfidence } from "./tools.ts";

/** The slug a recall's first line names (`[session] Handover "<slug>" (…`), if any. */
export function recalledSlug(out: string): string | undefined {
  return /^\[session\] Handover "([^"\n]+)"/.exec(out)?.[1];
}

/** The `restore` prompt's one message from a successful recall's stdout. */
export function restoreText(out: string): string {
  const [printed] = splitConfidence(out);
  const slug = recalledSlug(printed);
  const said = `The handover${slug ? ` "${slug}"` : ""} is restored and now marked consumed; ` +
    "continue from its Next step as far as the user's current request agrees.";
  return framed(
    recordBanner(said, "It", "the previous session's"),
    shortenRuns(printed.replace(/\r\n?/g, "\n").trim()),
  );
}

/** The `dump` prompt: the sections to write and the tool that takes them. */
export function dumpText(name?: string): string {
  const lines = SECTION_LIST.map((s) => `- \`${s.arg}\` (## ${s.title}): ${s.what}`);
  return [
    "Write the handover of this session now, before the context is cleared, and send it with " +
    "the `dump` tool of the session MCP server" +
    (name ? `, with \`name\`: ${JSON.stringify(name)}` : "") + ".",
    "",
    "Give only what you alone know, as terse fragments, no filler; leave out empty sections. " +
    "The tool adds the branch, the files table (from git and the session's transcript), the " +
    "parked items, the size cap and LATEST. Its arguments:",
    "",
    ...lines,
    "",
    "The result ends with a `## Confidence` block: each ⚠ line is a weak point (a decision " +
    "without why:, a vague next step, a files row no evidence shows, over the cap). Fix what is " +
    "flagged and call `dump` once more with the name it printed and `force: true`; do not loop " +
    'on a ⚠ you cannot fix. Then tell the user: "Handover saved — send /clear."',
  ].join("\n");
}
