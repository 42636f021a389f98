/**
 * A loopback stand-in for the Gemini API, for Gemini CLI: the CLI talks to it through
 * `GOOGLE_GEMINI_BASE_URL`, it answers `generateContent` and `streamGenerateContent` with scripted
 * text or one function call, and records every request body so a test can see exactly what the
 * model was sent.
 * @module
 */

import * as loopback from "./loopback.ts";

/** One part of a Gemini API content. */
export interface Part {
  text?: string;
  functionCall?: { name: string; args?: unknown };
  functionResponse?: { name: string; response?: unknown };
}

/** The parsed body of a Gemini API request (only the fields the tests read are typed). */
export interface Body {
  contents?: { role?: string; parts?: Part[] }[];
  tools?: { functionDeclarations?: { name: string }[] }[];
  systemInstruction?: unknown;
}

/**
 * A request the stand-in received (path e.g.
 * `/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`).
 */
export type Recorded = loopback.Recorded<Body>;

/** What the stand-in answers: plain text, or one function call. */
export type Reply = loopback.ToolReply;

/** Picks the reply to a request. */
export type Script = loopback.Script<Recorded, Reply>;

/** A running stand-in: `url` is `http://127.0.0.1:<port>`, for `GOOGLE_GEMINI_BASE_URL`. */
export type StandIn = loopback.StandIn<Recorded, Reply>;

/** All the text a request carries in its contents (text parts and function responses). */
export function contentsText(r: Recorded): string {
  return (r.body.contents ?? []).flatMap((c) =>
    (c.parts ?? []).map((p) =>
      typeof p.text === "string"
        ? p.text
        : p.functionResponse
        ? JSON.stringify(p.functionResponse.response)
        : ""
    )
  ).join("\n");
}

/** True when the request carries the agent's tools (a main turn, not a side call). */
export function isAgentTurn(r: Recorded): boolean {
  return (r.body.tools ?? []).some((t) => (t.functionDeclarations ?? []).length > 0);
}

/** True when the request's last content is a function response (the agent reporting back). */
export function isToolOutput(r: Recorded): boolean {
  const contents = r.body.contents ?? [];
  const last = contents[contents.length - 1];
  return (last?.parts ?? []).some((p) => p.functionResponse !== undefined);
}

/** One Gemini API response chunk for a reply. */
export function replyChunk(reply: Reply): Record<string, unknown> {
  const part = "text" in reply
    ? { text: reply.text }
    : { functionCall: { name: reply.tool, args: reply.args } };
  return {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
  };
}

/** Starts a stand-in on a free loopback port; only content-generating requests are recorded. */
export function startStandIn(script: Script = () => ({ text: "OK." })): StandIn {
  return loopback.startLoopback<Body, Reply>({
    script,
    handle: ({ url, recorded, record, script }) => {
      if (url.pathname.endsWith(":countTokens")) return Response.json({ totalTokens: 100 });
      const generating = /:(stream)?[gG]enerateContent$/.test(url.pathname);
      if (!generating) return Response.json({});
      record();
      // Side calls (no tools: titles, routing, summaries) get a short text.
      const chunk = replyChunk(isAgentTurn(recorded) ? script() : { text: "OK." });
      if (url.pathname.endsWith(":streamGenerateContent")) {
        return loopback.sseResponse(`data: ${JSON.stringify(chunk)}\n\n`);
      }
      return Response.json(chunk);
    },
  });
}
