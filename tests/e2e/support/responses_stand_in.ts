/**
 * A loopback stand-in for the OpenAI Responses API, for Codex CLI: Codex talks to it through a
 * custom model provider (`base_url` in `config.toml`), it answers with scripted text or one
 * function call, streamed as server-sent events, and records every request body so a test can see
 * exactly what the model was sent.
 * @module
 */

import {
  type Recorded as LoopbackRecorded,
  type Script as LoopbackScript,
  sseResponse,
  type StandIn as LoopbackStandIn,
  startLoopback,
  type ToolReply,
} from "./loopback.ts";

/** The parsed body of a Responses API request (only the fields the tests read are typed). */
export interface Body {
  model?: string;
  instructions?: string;
  input?: { type?: string; role?: string; content?: unknown; output?: unknown }[];
  tools?: { name?: string; type?: string }[];
}

/** A request the stand-in received (path e.g. `/v1/responses`). */
export type Recorded = LoopbackRecorded<Body>;

/**
 * The usage figures a reply reports in `response.completed` (the Responses API's `usage`, which
 * Codex writes into its rollout as a `token_count` event); default 10 in, 10 out.
 */
export interface Usage {
  input_tokens: number;
  cached_tokens?: number;
  output_tokens: number;
}

/** What the stand-in answers: plain text, or one function call; `usage` sets its figures. */
export type Reply = ToolReply & { usage?: Usage };

/** Picks the reply to a request. */
export type Script = LoopbackScript<Recorded, Reply>;

/** A running stand-in: `url` is `http://127.0.0.1:<port>/v1`, for the provider's `base_url`. */
export type StandIn = LoopbackStandIn<Recorded, Reply>;

/** All the text a request carries in its input items (messages, tool outputs), joined. */
export function inputText(r: Recorded): string {
  const parts: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "string") parts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      if (typeof o.text === "string") parts.push(o.text);
      walk(o.content);
      walk(o.output);
    }
  };
  walk(r.body.input ?? []);
  return parts.join("\n");
}

/** True when the request's last input item is a tool's output (the agent reporting back). */
export function isToolOutput(r: Recorded): boolean {
  const input = r.body.input ?? [];
  const last = input[input.length - 1];
  return typeof last?.type === "string" && last.type.endsWith("_output");
}

let ids = 0;

function sse(event: Record<string, unknown>): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** A reply's figures as the Responses API's `usage` object. */
function usageOf(u: Usage): Record<string, unknown> {
  return {
    input_tokens: u.input_tokens,
    input_tokens_details: { cached_tokens: u.cached_tokens ?? 0 },
    output_tokens: u.output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.input_tokens + u.output_tokens,
  };
}

/** Renders a reply as the Responses API's server-sent events. */
export function replySse(reply: Reply, model: string): string {
  const id = `resp_e2e_${++ids}`;
  const item = "text" in reply
    ? {
      type: "message",
      id: `msg_e2e_${ids}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: reply.text, annotations: [] }],
    }
    : {
      type: "function_call",
      id: `fc_e2e_${ids}`,
      call_id: `call_e2e_${ids}`,
      name: reply.tool,
      arguments: JSON.stringify(reply.args),
      status: "completed",
    };
  const response = { id, object: "response", model, status: "in_progress", output: [] };
  let out = sse({ type: "response.created", response });
  out += sse({ type: "response.output_item.added", output_index: 0, item });
  if ("text" in reply) {
    out += sse({
      type: "response.output_text.delta",
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: reply.text,
    });
  }
  out += sse({ type: "response.output_item.done", output_index: 0, item });
  out += sse({
    type: "response.completed",
    response: {
      ...response,
      status: "completed",
      output: [item],
      usage: usageOf(reply.usage ?? { input_tokens: 10, output_tokens: 10 }),
    },
  });
  return out;
}

/** Starts a stand-in on a free loopback port; only `/responses` requests are recorded. */
export function startStandIn(script: Script = () => ({ text: "OK." })): StandIn {
  return startLoopback<Body, Reply>({
    script,
    basePath: "/v1",
    handle: ({ url, recorded, record, script }) => {
      if (!url.pathname.endsWith("/responses")) {
        // Model listings and other side calls: an empty, valid answer.
        return Response.json(url.pathname.endsWith("/models") ? { models: [], data: [] } : {});
      }
      record();
      return sseResponse(replySse(script(), recorded.body.model ?? "gpt-e2e"));
    },
  });
}
