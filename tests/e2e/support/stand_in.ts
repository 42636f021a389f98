/**
 * A loopback stand-in for the Anthropic Messages API: Claude Code talks to it through
 * `ANTHROPIC_BASE_URL`, it answers with scripted text or tool calls (streamed as SSE when asked)
 * and records every request body, so an end-to-end test can see exactly what the model was sent.
 * @module
 */

import {
  type Recorded as LoopbackRecorded,
  type Script as LoopbackScript,
  sseResponse,
  type StandIn as LoopbackStandIn,
  startLoopback,
} from "./loopback.ts";

/** One content block of a Messages API request (only the fields the tests read). */
export interface Block {
  type: string;
  text?: string;
  content?: unknown;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
}

/** A Messages API message. */
export interface Message {
  role: string;
  content: string | Block[];
}

/** The parsed body of a Messages API request (only the fields the tests read are typed). */
export interface Body {
  model?: string;
  stream?: boolean;
  system?: unknown;
  tools?: { name: string }[];
  messages?: Message[];
}

/** A request the stand-in received. */
export type Recorded = LoopbackRecorded<Body>;

/** The usage figures a reply reports (the Messages API's `usage`); default 10 in, 10 out. */
export interface Usage {
  input_tokens: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** What the stand-in answers: plain text, or one tool call; `usage` sets its figures. */
export type Reply =
  | { text: string; usage?: Usage }
  | { tool: string; input: Record<string, unknown>; text?: string; usage?: Usage };

/** The usage a reply reports at its start: its own figures, output counted at the end. */
function startUsage(reply: Reply): Usage {
  return reply.usage
    ? { ...reply.usage, output_tokens: 1 }
    : { input_tokens: 10, output_tokens: 1 };
}

/** Picks the reply to a request; the default answers every request with a short text. */
export type Script = LoopbackScript<Recorded, Reply>;

/** A running stand-in (`url` is for `ANTHROPIC_BASE_URL`). */
export interface StandIn extends LoopbackStandIn<Recorded, Reply> {
  /** Requests to `/v1/messages` that carry tools (the agent's own turns, not side calls). */
  turns: () => Recorded[];
}

/** The text of a message's content (text blocks and tool results, flattened). */
export function messageText(message: Message): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((b) => {
    if (typeof b.text === "string") return b.text;
    if (typeof b.content === "string") return b.content;
    if (Array.isArray(b.content)) {
      return b.content.map((c) => (typeof c?.text === "string" ? c.text : "")).join("\n");
    }
    return "";
  }).join("\n");
}

/**
 * The last user-role message of a request, or undefined. (Claude Code may append a `system`
 * message after it, e.g. the agent and skill listings and hook context.)
 */
export function lastMessage(r: Recorded): Message | undefined {
  return r.body.messages?.findLast((m) => m.role === "user");
}

/** True when the request's last message is a tool result (the agent reporting back). */
export function isToolResult(r: Recorded): boolean {
  const last = lastMessage(r);
  return Array.isArray(last?.content) && last.content.some((b) => b.type === "tool_result");
}

/** The text of the last user turn typed by the user (ignoring tool results). */
export function lastUserText(r: Recorded): string {
  const last = lastMessage(r);
  return last && !isToolResult(r) ? messageText(last) : "";
}

/** An agent turn (not a side call, not the compaction) carrying what the user typed. */
export function carriesPrompt(r: Recorded, prompt: string): boolean {
  return (r.body.tools?.length ?? 0) > 0 && !isSummaryRequest(r) &&
    lastUserText(r).includes(prompt);
}

/** What Claude Code asks the model when it compacts (`/compact` or auto-compaction). */
export const SUMMARY_REQUEST =
  "Your task is to create a detailed summary of the conversation so far";

/** True for Claude Code's compaction request: its last user message asks for the summary. */
export function isSummaryRequest(r: Recorded): boolean {
  const last = lastMessage(r);
  return last !== undefined && messageText(last).includes(SUMMARY_REQUEST);
}

/**
 * The stand-in's answer to a compaction request: the shape Claude Code parses (`<analysis>` is
 * dropped, `<summary>` kept); `mark` makes the summary findable in later requests.
 */
export function summaryReply(mark = "E2E-COMPACT-SUMMARY"): Reply {
  return {
    text: `<analysis>The user worked with the e2e stand-in.</analysis>\n<summary>\n` +
      `1. Primary Request and Intent: ${mark}: the e2e scenario.\n</summary>`,
  };
}

let ids = 0;

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The content blocks of a reply, as the Messages API returns them. */
function blocks(reply: Reply): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if ("text" in reply && reply.text) out.push({ type: "text", text: reply.text });
  if ("tool" in reply) {
    out.push({ type: "tool_use", id: `toolu_e2e_${++ids}`, name: reply.tool, input: reply.input });
  }
  return out;
}

/** Renders a reply as a JSON Messages API response. */
export function replyJson(reply: Reply, model: string): string {
  const content = blocks(reply);
  return JSON.stringify({
    id: `msg_e2e_${++ids}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: "tool" in reply ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: reply.usage ?? { input_tokens: 10, output_tokens: 10 },
  });
}

/** Renders a reply as the Messages API's server-sent events. */
export function replySse(reply: Reply, model: string): string {
  let out = sse("message_start", {
    type: "message_start",
    message: {
      id: `msg_e2e_${++ids}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: startUsage(reply),
    },
  });
  blocks(reply).forEach((block, index) => {
    if (block.type === "text") {
      out += sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      out += sse("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      });
    } else {
      out += sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { ...block, input: {} },
      });
      out += sse("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    out += sse("content_block_stop", { type: "content_block_stop", index });
  });
  out += sse("message_delta", {
    type: "message_delta",
    delta: { stop_reason: "tool" in reply ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: reply.usage?.output_tokens ?? 10 },
  });
  out += sse("message_stop", { type: "message_stop" });
  return out;
}

/** Starts a stand-in on a free loopback port. */
export function startStandIn(script: Script = () => ({ text: "OK." })): StandIn {
  const server = startLoopback<Body, Reply>({
    script,
    handle: ({ url, recorded, record, script }) => {
      if (!url.pathname.startsWith("/v1/messages")) {
        record();
        return Response.json({});
      }
      if (url.pathname.endsWith("/count_tokens")) return Response.json({ input_tokens: 100 });
      record();
      const body = recorded.body;
      // A compaction request is answered with a summary whatever the script says: the script
      // plays the agent's turns, and would take the summary request for one.
      const reply = isSummaryRequest(recorded)
        ? summaryReply()
        : body.tools && body.tools.length > 0
        ? script()
        : { text: "OK." };
      const model = body.model ?? "claude-e2e";
      if (body.stream) return sseResponse(replySse(reply, model));
      return new Response(replyJson(reply, model), {
        headers: { "content-type": "application/json" },
      });
    },
  });
  const turns = () =>
    server.requests.filter((r) =>
      r.path.startsWith("/v1/messages") && (r.body.tools?.length ?? 0) > 0
    );
  return { ...server, turns };
}
