/**
 * A loopback stand-in for the OpenAI Responses API, for Codex CLI: Codex talks to it through a
 * custom model provider (`base_url` in `config.toml`), it answers with scripted text or one
 * function call, streamed as server-sent events, and records every request body so a test can see
 * exactly what the model was sent.
 * @module
 */

import { type RequestLog, requestLog } from "./request_log.ts";
/** A request the stand-in received. */
export interface Recorded {
  /** Path and query, e.g. `/v1/responses`. */
  path: string;
  /** The raw request body. */
  raw: string;
  /** The parsed body, when it is JSON (only the fields the tests read are typed). */
  body: {
    model?: string;
    instructions?: string;
    input?: { type?: string; role?: string; content?: unknown; output?: unknown }[];
    tools?: { name?: string; type?: string }[];
  };
}

/** What the stand-in answers: plain text, or one function call. */
export type Reply = { text: string } | { tool: string; args: Record<string, unknown> };

/** Picks the reply to a request. */
export type Script = (request: Recorded) => Reply;

/** A running stand-in. */
export interface StandIn {
  /** `http://127.0.0.1:<port>/v1`, for the provider's `base_url`. */
  url: string;
  /** Every `/responses` request received, oldest first. */
  requests: Recorded[];
  /** Replaces the script. */
  setScript: (script: Script) => void;
  /** Resolves once `predicate` holds for a request received at or after index `since`. */
  waitFor: RequestLog<Recorded>["waitFor"];
  /** Stops the server. */
  close: () => Promise<void>;
}

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
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 20,
      },
    },
  });
  return out;
}

/** Starts a stand-in on a free loopback port. */
export function startStandIn(script: Script = () => ({ text: "OK." })): StandIn {
  const log = requestLog<Recorded>();
  let current = script;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      const raw = await req.text();
      let body: Recorded["body"] = {};
      try {
        const parsed = JSON.parse(raw);
        if (parsed && typeof parsed === "object") body = parsed;
      } catch {
        // not JSON: recorded raw
      }
      if (!url.pathname.endsWith("/responses")) {
        // Model listings and other side calls: an empty, valid answer.
        return Response.json(url.pathname.endsWith("/models") ? { models: [], data: [] } : {});
      }
      const recorded: Recorded = { path: url.pathname + url.search, raw, body };
      log.record(recorded);
      return new Response(replySse(current(recorded), body.model ?? "gpt-e2e"), {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      });
    },
  );
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}/v1`,
    requests: log.requests,
    setScript: (s) => {
      current = s;
    },
    waitFor: log.waitFor,
    close: async () => {
      await server.shutdown();
    },
  };
}
