/**
 * A loopback stand-in for the Anthropic Messages API, so the real Claude Code can run offline
 * with scripted replies (`ANTHROPIC_BASE_URL=http://127.0.0.1:PORT`, any `ANTHROPIC_API_KEY`).
 *
 * It answers `POST /v1/messages` (streaming SSE or plain JSON, as asked) and
 * `POST /v1/messages/count_tokens`; everything else gets an empty 200 JSON object. Which reply a
 * request gets is decided by the caller's `reply` function from the request body, so one module
 * serves fixture generation and end-to-end tests alike.
 * @module
 */

/** One content block of a scripted assistant reply. */
export type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** A request body as Claude Code sends it (only the parts the script needs are typed). */
export interface MessagesRequest {
  model?: string;
  stream?: boolean;
  system?: unknown;
  tools?: { name: string }[];
  messages: { role: string; content: unknown }[];
  [key: string]: unknown;
}

/** Decides the reply to a request; return undefined for a plain "OK." text reply. */
export type ReplyFn = (req: MessagesRequest) => Block[] | undefined;

/** A running stand-in. */
export interface StandIn {
  /** `http://127.0.0.1:PORT`, the value for `ANTHROPIC_BASE_URL`. */
  url: string;
  /** Every request body received, in order (for assertions and debugging). */
  requests: MessagesRequest[];
  /** Stops the server. */
  close: () => Promise<void>;
}

/** True when the request is the agent's main loop (it offers tools), not a side query. */
export function isAgentTurn(req: MessagesRequest): boolean {
  return Array.isArray(req.tools) && req.tools.length > 0;
}

/** How many assistant turns the conversation in `req` already holds (the script's step). */
export function stepOf(req: MessagesRequest): number {
  return req.messages.filter((m) => m.role === "assistant").length;
}

/** The text of the last user message in `req` (tool results excluded). */
export function lastUserText(req: MessagesRequest): string {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i];
    if (m.role !== "user") continue;
    if (typeof m.content === "string") return m.content;
    if (Array.isArray(m.content)) {
      const texts = m.content
        .filter((b) => b && typeof b === "object" && (b as { type?: string }).type === "text")
        .map((b) => String((b as { text?: unknown }).text ?? ""));
      if (texts.length) return texts.join("\n");
    }
  }
  return "";
}

/** The tool results of the last user message in `req`: tool_use_id → {isError, text}. */
export function lastToolResults(
  req: MessagesRequest,
): Map<string, { isError: boolean; text: string }> {
  const out = new Map<string, { isError: boolean; text: string }>();
  const m = req.messages.at(-1);
  if (!m || m.role !== "user" || !Array.isArray(m.content)) return out;
  for (const b of m.content as Record<string, unknown>[]) {
    if (b?.type !== "tool_result") continue;
    const c = b.content;
    const text = typeof c === "string"
      ? c
      : Array.isArray(c)
      ? c.map((x) => String((x as { text?: unknown }).text ?? "")).join("\n")
      : "";
    out.set(String(b.tool_use_id), { isError: b.is_error === true, text });
  }
  return out;
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The SSE stream of one assistant message made of `blocks`. */
export function streamBody(blocks: Block[], model: string, id: string): string {
  const usage = { input_tokens: 10, output_tokens: 1 };
  let out = sse("message_start", {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });
  blocks.forEach((b, index) => {
    if (b.type === "text") {
      out += sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      out += sse("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: b.text },
      });
    } else {
      out += sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: b.id, name: b.name, input: {} },
      });
      out += sse("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) },
      });
    }
    out += sse("content_block_stop", { type: "content_block_stop", index });
  });
  const stop = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  out += sse("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 20 },
  });
  out += sse("message_stop", { type: "message_stop" });
  return out;
}

/** Starts the stand-in on a free loopback port. */
export function startStandIn(reply: ReplyFn): StandIn {
  const requests: MessagesRequest[] = [];
  let n = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      if (request.method !== "POST") return Response.json({});
      let body: MessagesRequest;
      try {
        body = await request.json();
      } catch {
        return Response.json({ error: "bad json" }, { status: 400 });
      }
      if (url.pathname.endsWith("/count_tokens")) return Response.json({ input_tokens: 100 });
      if (!url.pathname.endsWith("/v1/messages")) return Response.json({});
      requests.push(body);
      const blocks = reply(body) ?? [{ type: "text", text: "OK." }];
      const model = body.model ?? "claude-stand-in";
      const id = `msg_standin_${String(++n).padStart(4, "0")}`;
      if (body.stream) {
        return new Response(streamBody(blocks, model, id), {
          headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
        });
      }
      const stop = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
      return Response.json({
        id,
        type: "message",
        role: "assistant",
        model,
        content: blocks,
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 20 },
      });
    },
  );
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    requests,
    close: async () => {
      await server.shutdown();
    },
  };
}
