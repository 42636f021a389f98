/**
 * What a person typed, in a Claude Code user record: not tool results, slash-command wrappers,
 * shell input, interruption notices, meta or sidechain records. Its own module, importing
 * nothing, so SessionEnd's quick look at a short transcript (lib/continuity/idle.ts) needs no
 * reader.
 * @module
 */

import type { Json } from "./facts.ts";

/** Text of a user message that a person typed, or undefined for tool results and wrappers. */
export function promptText(record: Json): string | undefined {
  if (record?.type !== "user" || record.isMeta || record.isSidechain) return undefined;
  if (record.isCompactSummary || record.isVisibleInTranscriptOnly) return undefined;
  const content = record.message?.content;
  let text: string;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const b of content) {
      if (b?.type === "tool_result") return undefined;
      if (b?.type === "text" && typeof b.text === "string") parts.push(b.text);
    }
    text = parts.join("\n");
  } else return undefined;
  text = text.trim();
  if (!text) return undefined;
  // Slash commands, their output, `!` shell input and interruption notices are not requests.
  if (/^<(?:command-|local-command-|bash-|system-reminder|user-prompt-submit-hook)/.test(text)) {
    return undefined;
  }
  if (text.startsWith("[Request interrupted") || text.startsWith("Caveat: ")) return undefined;
  return text;
}
