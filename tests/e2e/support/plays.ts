/**
 * A scripted model for the Claude Code stand-in: after each typed prompt it plays a fixed list of
 * replies, one per agent request, so a test reads as "this prompt makes the model do these
 * steps". A tool that the client lists only as deferred (2.1.332 defers TaskCreate & co. behind
 * ToolSearch) is loaded first with a ToolSearch call, as the real model does.
 * @module
 */

import {
  type Block,
  isSummaryRequest,
  type Message,
  messageText,
  type Recorded,
  type Reply,
  summaryReply,
} from "./stand_in.ts";

/** A prompt (substring of what the user typed) and the replies it plays, in order. */
export interface Play {
  prompt: string;
  steps: Reply[];
}

function isTypedPrompt(m: Message): boolean {
  if (m.role !== "user") return false;
  return !(Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result"));
}

function isToolSearchCall(m: Message | undefined): boolean {
  return Array.isArray(m?.content) &&
    m.content.some((b: Block) => b.type === "tool_use" && b.name === "ToolSearch");
}

function offers(r: Recorded, tool: string): boolean {
  return (r.body.tools ?? []).some((t) => t.name === tool);
}

/**
 * The script for `plays`: finds the newest typed prompt a play matches, counts the model's
 * replies since (ToolSearch loads not counted) and returns the next step; "OK." when none.
 * Compaction requests get a summary. Tool results can quote a prompt: only typed prompts count.
 */
export function playScript(plays: Play[]): (r: Recorded) => Reply {
  return (r) => {
    if (isSummaryRequest(r)) return summaryReply();
    const messages = r.body.messages ?? [];
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i];
      if (!isTypedPrompt(m)) continue;
      const text = messageText(m);
      const play = plays.find((p) => text.includes(p.prompt));
      if (!play) continue;
      const replies = messages.slice(i + 1).filter((m) => m.role === "assistant");
      const k = replies.length - replies.filter((m) => isToolSearchCall(m)).length;
      const step = play.steps[k] ?? { text: "OK." };
      if (
        "tool" in step && !offers(r, step.tool) && offers(r, "ToolSearch") &&
        !isToolSearchCall(replies.at(-1))
      ) {
        return { tool: "ToolSearch", input: { query: `select:${step.tool}` } };
      }
      return step;
    }
    return { text: "OK." };
  };
}
