/**
 * The part every loopback model-API stand-in shares: a server on a free 127.0.0.1 port that
 * parses each request (raw body kept, JSON body parsed when it is JSON), hands it to the
 * protocol's handler, and keeps the requests the handler records in a {@link RequestLog}. The
 * protocol (paths, reply formats, SSE events) stays in each stand-in's own module.
 * @module
 */

import { type RequestLog, requestLog } from "./request_log.ts";

/** A request a stand-in received. */
export interface Recorded<B> {
  /** Path and query, e.g. `/v1/messages?beta=true`. */
  path: string;
  /** The raw request body. */
  raw: string;
  /** The parsed body, when it is a JSON object (else empty). */
  body: B;
}

/** The reply the Responses and Gemini stand-ins script: plain text, or one function call. */
export type ToolReply = { text: string } | { tool: string; args: Record<string, unknown> };

/** Picks the reply to a request. */
export type Script<R, P> = (request: R) => P;

/** A running stand-in. */
export interface StandIn<R, P> {
  /** The base URL the client is pointed at (`http://127.0.0.1:<port>` plus any path). */
  url: string;
  /** Every request recorded, oldest first. */
  requests: R[];
  /** Replaces the script. */
  setScript: (script: Script<R, P>) => void;
  /** Resolves once `predicate` holds for a request recorded at or after index `since`. */
  waitFor: RequestLog<R>["waitFor"];
  /** Stops the server. */
  close: () => Promise<void>;
}

/** What a protocol handler gets for each request. */
export interface Exchange<B, P> {
  url: URL;
  recorded: Recorded<B>;
  /** Adds the request to the log (a handler skips side calls the tests never wait for). */
  record: () => void;
  /** The current script's reply to this request. */
  script: () => P;
}

/** Starts a recording loopback server; `handle` answers each request in its protocol. */
export function startLoopback<B, P>(
  options: {
    script: Script<Recorded<B>, P>;
    handle: (exchange: Exchange<B, P>) => Response;
    /** Appended to the origin in {@link StandIn.url}, e.g. `/v1`. */
    basePath?: string;
  },
): StandIn<Recorded<B>, P> {
  const log = requestLog<Recorded<B>>();
  let current = options.script;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const raw = await req.text();
    let body = {} as B;
    try {
      const parsed = JSON.parse(raw);
      if (parsed && typeof parsed === "object") body = parsed;
    } catch {
      // not JSON: recorded raw
    }
    const recorded: Recorded<B> = { path: url.pathname + url.search, raw, body };
    return options.handle({
      url,
      recorded,
      record: () => log.record(recorded),
      script: () => current(recorded),
    });
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}${options.basePath ?? ""}`,
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

/** A server-sent-events response with the given, already framed, events. */
export function sseResponse(events: string): Response {
  return new Response(events, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}
