/**
 * A loopback stand-in for the OpenAI Chat Completions API, for Qwen Code and opencode: both talk
 * to it through an OpenAI-compatible base URL, it answers `/chat/completions` with scripted text
 * or one function call (streamed as server-sent events when asked, else one JSON object), and
 * records every request body so a test can see exactly what the model was sent, system prompt
 * included.
 * @module
 */

import * as loopback from "./loopback.ts";

/** One message of a Chat Completions request. */
export interface Message {
  role?: string;
  content?: unknown;
  tool_calls?: unknown[];
  tool_call_id?: string;
}

/** The parsed body of a Chat Completions request (only the fields the tests read are typed). */
export interface Body {
  model?: string;
  stream?: boolean;
  messages?: Message[];
  tools?: { type?: string; function?: { name?: string } }[];
}

/** A request the stand-in received (path e.g. `/v1/chat/completions`). */
export type Recorded = loopback.Recorded<Body>;

/** What the stand-in answers: plain text, or one function call. */
export type Reply = loopback.ToolReply;

/** Picks the reply to a request. */
export type Script = loopback.Script<Recorded, Reply>;

/** A running stand-in: `url` is `http://127.0.0.1:<port>/v1`, for the client's base URL. */
export type StandIn = loopback.StandIn<Recorded, Reply>;

/** A message's text: a string content, or the text parts of an array content. */
export function messageText(m: Message): string {
  if (typeof m.content === "string") return m.content;
  if (!Array.isArray(m.content)) return "";
  return m.content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("\n");
}

/** The text of every message of `role` in a request (all roles when omitted), joined. */
export function requestText(r: Recorded, role?: string): string {
  return (r.body.messages ?? []).filter((m) => role === undefined || m.role === role)
    .map(messageText).join("\n");
}

/** What the model is shown beyond the messages: the tools, as sent (names, descriptions, schemas). */
export function toolsText(r: Recorded): string {
  return JSON.stringify(r.body.tools ?? []);
}

/** The last user message's text. */
export function lastUser(r: Recorded): string {
  const users = (r.body.messages ?? []).filter((m) => m.role === "user");
  return users.length ? messageText(users[users.length - 1]) : "";
}

/** True when the request's last message is a tool's result (the agent reporting back). */
export function isToolOutput(r: Recorded): boolean {
  return (r.body.messages ?? []).at(-1)?.role === "tool";
}

/** True for the agent's own turns (tools offered), not side calls such as title generation. */
export function isTurn(r: Recorded): boolean {
  return (r.body.tools?.length ?? 0) > 0;
}

let ids = 0;

/**
 * The usage a reply reports: the prompt counted as ~4 bytes a token, as a real API roughly would
 * (Qwen Code judges a compaction by these counts: a fixed small one makes every compaction look
 * inflated, and it is dropped).
 */
function usage(promptBytes: number) {
  const prompt_tokens = Math.ceil(promptBytes / 4);
  return { prompt_tokens, completion_tokens: 10, total_tokens: prompt_tokens + 10 };
}

/** The assistant message a reply stands for. */
function assistant(reply: Reply) {
  return "text" in reply ? { role: "assistant", content: reply.text } : {
    role: "assistant",
    content: null,
    tool_calls: [{
      index: 0,
      id: `call_e2e_${ids}`,
      type: "function",
      function: { name: reply.tool, arguments: JSON.stringify(reply.args) },
    }],
  };
}

/**
 * Renders a reply as one Chat Completions response, or as its stream of chunks, for a request of
 * `promptBytes`.
 */
export function replyBody(
  reply: Reply,
  model: string,
  stream: boolean,
  promptBytes: number,
): string {
  const id = `chatcmpl-e2e-${++ids}`;
  const finish = "text" in reply ? "stop" : "tool_calls";
  const base = { id, model, created: 1_700_000_000 };
  if (!stream) {
    return JSON.stringify({
      ...base,
      object: "chat.completion",
      choices: [{ index: 0, message: assistant(reply), finish_reason: finish }],
      usage: usage(promptBytes),
    });
  }
  const chunk = (delta: unknown, finish_reason: string | null, usage?: unknown) =>
    `data: ${
      JSON.stringify({
        ...base,
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta, finish_reason }],
        ...(usage ? { usage } : {}),
      })
    }\n\n`;
  return chunk(assistant(reply), null) + chunk({}, finish, usage(promptBytes)) + "data: [DONE]\n\n";
}

/** Starts a stand-in on a free loopback port; only `/chat/completions` requests are recorded. */
export function startStandIn(script: Script = () => ({ text: "OK." })): StandIn {
  return loopback.startLoopback<Body, Reply>({
    script,
    basePath: "/v1",
    handle: ({ url, recorded, record, script }) => {
      if (!url.pathname.endsWith("/chat/completions")) {
        // Model listings and other side calls: an empty, valid answer.
        return Response.json(url.pathname.endsWith("/models") ? { object: "list", data: [] } : {});
      }
      record();
      const stream = recorded.body.stream === true;
      const body = replyBody(
        script(),
        recorded.body.model ?? "e2e-model",
        stream,
        recorded.raw.length,
      );
      return stream
        ? loopback.sseResponse(body)
        : new Response(body, { headers: { "content-type": "application/json" } });
    },
  });
}
