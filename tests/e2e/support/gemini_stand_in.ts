/**
 * A loopback stand-in for the Gemini API, for Gemini CLI: the CLI talks to it through
 * `GOOGLE_GEMINI_BASE_URL`, it answers `generateContent` and `streamGenerateContent` with scripted
 * text or one function call, and records every request body so a test can see exactly what the
 * model was sent.
 * @module
 */

import { type RequestLog, requestLog } from "./request_log.ts";
/** One part of a Gemini API content. */
export interface Part {
  text?: string;
  functionCall?: { name: string; args?: unknown };
  functionResponse?: { name: string; response?: unknown };
}

/** A request the stand-in received. */
export interface Recorded {
  /** Path and query, e.g. `/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`. */
  path: string;
  /** The raw request body. */
  raw: string;
  /** The parsed body, when it is JSON (only the fields the tests read are typed). */
  body: {
    contents?: { role?: string; parts?: Part[] }[];
    tools?: { functionDeclarations?: { name: string }[] }[];
    systemInstruction?: unknown;
  };
}

/** What the stand-in answers: plain text, or one function call. */
export type Reply = { text: string } | { tool: string; args: Record<string, unknown> };

/** Picks the reply to a request. */
export type Script = (request: Recorded) => Reply;

/** A running stand-in. */
export interface StandIn {
  /** `http://127.0.0.1:<port>`, for `GOOGLE_GEMINI_BASE_URL`. */
  url: string;
  /** Every content-generating request received, oldest first. */
  requests: Recorded[];
  /** Replaces the script. */
  setScript: (script: Script) => void;
  /** Resolves once `predicate` holds for a request received at or after index `since`. */
  waitFor: RequestLog<Recorded>["waitFor"];
  /** Stops the server. */
  close: () => Promise<void>;
}

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
      if (url.pathname.endsWith(":countTokens")) return Response.json({ totalTokens: 100 });
      const generating = /:(stream)?[gG]enerateContent$/.test(url.pathname);
      if (!generating) return Response.json({});
      const recorded: Recorded = { path: url.pathname + url.search, raw, body };
      log.record(recorded);
      // Side calls (no tools: titles, routing, summaries) get a short text.
      const chunk = replyChunk(isAgentTurn(recorded) ? current(recorded) : { text: "OK." });
      if (url.pathname.endsWith(":streamGenerateContent")) {
        return new Response(`data: ${JSON.stringify(chunk)}\n\n`, {
          headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
        });
      }
      return Response.json(chunk);
    },
  );
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
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
