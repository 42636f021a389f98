/**
 * The MCP server (`session.ts mcp`): the store's prompts, resources and tools registered on the
 * official SDK's `McpServer`, served on stdio until the client closes it. The project of every
 * request is lib/mcp/project.ts's; the tools and the `restore` prompt run the CLI's modes
 * (lib/mcp/cli_run.ts), the resources read the store (lib/mcp/resources.ts). While it serves,
 * the store is polled: a change by anyone (this server, the CLI, a hook, another server) sends
 * `notifications/resources/list_changed`.
 * @module
 */

// The SDK's subpaths name their types only through a `*` pattern Deno does not apply to `.js`
// specifiers: each import names its declarations (`@ts-types`) by the extensionless subpath.
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/completable"
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ErrorCode,
  type JSONRPCMessage,
  McpError,
  RootsListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import process from "node:process";
import { z } from "zod";
import { projectFile } from "../agents/command.ts";
import { EXIT } from "../errors.ts";
import { catalog } from "../store/catalog.ts";
import type { Store } from "../store/store.ts";
import { type Cli, oneAtATime } from "./cli_run.ts";
import { dirArgs, type Place, placeEnv, placeOf, type Root, storeOf } from "./project.ts";
import { dumpText, restoreText } from "./prompts.ts";
import {
  fingerprint,
  handoverList,
  readHandover,
  readParkedFile,
  readPending,
  URIS,
} from "./resources.ts";
import { toolResult, TOOLS } from "./tools.ts";

/** How often the store is looked at for changes by others. */
export const POLL_MS = 500;

/** How long the client gets to answer `roots/list` before the working directory stands. */
const ROOTS_TIMEOUT_MS = 5_000;

/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

/** What the server is given. */
export interface ServeOptions {
  /** The CLI's dispatcher with a captured output (lib/cli/mcp.ts). */
  cli: Cli;
  /** The server's working directory. */
  cwd: string;
  /** `mcp --dir DIR`: the project, whatever the client's roots say. */
  dir?: string;
  env: (name: string) => string | undefined;
  now: () => Date;
  /** The store poll's period (default {@link POLL_MS}). */
  pollMs?: number;
}

/** The product's version, as the plugin manifest says it. */
function version(): string {
  try {
    const manifest = JSON.parse(Deno.readTextFileSync(projectFile(".claude-plugin/plugin.json")));
    return typeof manifest.version === "string" ? manifest.version : "0.0.0";
  } catch {
    return "0.0.0";
  }
}

/** Slugs starting with `prefix`, newest first (completions). */
function slugsFrom(store: Store, now: Date, prefix: string | undefined): string[] {
  const p = (prefix ?? "").toLowerCase();
  return catalog(store, now).map((d) => d.slug).filter((s) => s.startsWith(p)).slice(0, 100);
}

/** A server with everything registered, and the poll that watches the store; not connected. */
export function buildServer(o: ServeOptions): { server: McpServer; stop: () => void } {
  const cli = oneAtATime(o.cli);
  const server = new McpServer(
    { name: "session", version: version() },
    {
      capabilities: { resources: { listChanged: true }, completions: {} },
      instructions: "Handovers of this project that outlive a context reset. Before the " +
        "context is cleared, the dump prompt says what to write and the dump tool writes it; " +
        "after, the restore prompt (or the recall tool) brings the handover back, once.",
    },
  );

  // ----------------------------------------------------------------------- which project
  let roots: Promise<Root[] | undefined> | undefined;
  let current: Place = placeOf({ dir: o.dir, cwd: o.cwd });
  const place = async (): Promise<Place> => {
    if (o.dir === undefined && server.server.getClientCapabilities()?.roots) {
      roots ??= server.server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS })
        .then((r) => r.roots)
        .catch(() => undefined);
      current = placeOf({ roots: await roots, cwd: o.cwd });
    }
    return current;
  };
  const store = async () => storeOf(await place(), o.env);
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    roots = undefined;
    await place();
    check();
  });

  // ------------------------------------------------------------------- the store's changes
  let seen: string | undefined;
  const check = () => {
    const now = fingerprint(storeOf(current, o.env));
    if (seen !== undefined && now !== seen && server.isConnected()) {
      server.sendResourceListChanged();
    }
    seen = now;
  };
  const timer = setInterval(check, o.pollMs ?? POLL_MS);
  Deno.unrefTimer(timer);
  server.server.oninitialized = () => {
    place().then(check, () => {});
  };

  /** Runs a mode from the current project, `--dir` added after the mode when it is pinned. */
  const run = async (argv: string[], stdin?: string) => {
    const p = await place();
    const [mode, ...rest] = argv;
    const ran = await cli([mode, ...dirArgs(p), ...rest], {
      cwd: p.start,
      env: placeEnv(p, o.env),
      stdin,
    });
    check();
    return ran;
  };

  // ------------------------------------------------------------------------------ prompts
  server.registerPrompt(
    "restore",
    {
      title: "Restore the handover",
      description: "Bring back the pending handover of this project (or the named one) and " +
        "mark it consumed, as `recall` does: once.",
      argsSchema: {
        name: completable(
          z.string().optional().describe("a handover's slug (default: the pending one)"),
          async (value) => slugsFrom(await store(), o.now(), value),
        ),
      },
    },
    async ({ name }) => {
      const ran = await run(["recall", ...(name ? ["--", name] : [])]);
      if (ran.code !== EXIT.ok) {
        throw new McpError(ErrorCode.InvalidParams, ran.err.trim() || "nothing to restore");
      }
      return {
        description: "The handover, quoted as the previous session's record",
        messages: [{ role: "user", content: { type: "text", text: restoreText(ran.out) } }],
      };
    },
  );
  server.registerPrompt(
    "dump",
    {
      title: "Dump the session",
      description: "What to write in the handover before the context is cleared, and the " +
        "`dump` tool that writes it.",
      argsSchema: { name: z.string().optional().describe("the handover's name") },
    },
    ({ name }) => ({
      messages: [{ role: "user", content: { type: "text", text: dumpText(name) } }],
    }),
  );

  // ---------------------------------------------------------------------------- resources
  server.registerResource(
    "pending",
    URIS.pending,
    {
      title: "The pending handover",
      description: "The handover LATEST names, as stored (reading it consumes nothing)",
      mimeType: "text/markdown",
    },
    async () => ({ contents: [await readPending(await store())] }),
  );
  server.registerResource(
    "parked",
    URIS.parked,
    {
      title: "PARKED.md",
      description: "The open loops parked in this project",
      mimeType: "text/markdown",
    },
    async () => ({ contents: [await readParkedFile(await store())] }),
  );
  server.registerResource(
    "handover",
    new ResourceTemplate(URIS.handover, {
      list: async () => ({ resources: handoverList(await store(), o.now()) }),
      complete: { slug: async (value) => slugsFrom(await store(), o.now(), value) },
    }),
    {
      title: "A handover",
      description: "One handover by its slug, as stored (reading it consumes nothing)",
      mimeType: "text/markdown",
    },
    async (uri, variables) => {
      const raw = variables.slug;
      const slug = decodeURIComponent(Array.isArray(raw) ? raw.join("/") : raw ?? "");
      const s = await store();
      const doc = await readHandover(s, slug, uri.href);
      if (doc === undefined) {
        throw new McpError(RESOURCE_NOT_FOUND, `No handover "${slug}" in ${s.dir}`);
      }
      return { contents: [doc] };
    },
  );

  // -------------------------------------------------------------------------------- tools
  for (const [name, def] of Object.entries(TOOLS)) {
    server.registerTool(
      name,
      { description: def.description, inputSchema: def.shape },
      async (args: Record<string, unknown>) => {
        const call = def.invoke(args);
        if (name === "dump" && !call.stdin) {
          return toolResult(name, {
            code: EXIT.usage,
            out: "",
            err: "session dump: no section given; give at least goal and next_step. " +
              "Nothing was written",
          });
        }
        return toolResult(name, await run(call.argv, call.stdin), args.json === true);
      },
    );
  }

  return { server, stop: () => clearInterval(timer) };
}

/** How long a closed stdin waits for the answers still being worked on. */
const DRAIN_MS = 10_000;

/**
 * Serves on stdin/stdout until the client closes the connection. A client that writes its last
 * requests and closes stdin at once (a script, `printf … | session.ts mcp`) still gets every
 * answer: the server ends once none is outstanding.
 */
export async function serve(o: ServeOptions): Promise<void> {
  const { server, stop } = buildServer(o);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  // Requests answered so far, counted where they pass: in through onmessage, out through send.
  let open = 0;
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ("id" in message && "method" in message) open++;
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    if ("id" in message && !("method" in message)) open--;
    return send(message);
  };
  // The SDK's transport does not see stdin end; the client closing it ends the server.
  const ended = new Promise<void>((resolve) => process.stdin.once("end", () => resolve()));
  await Promise.race([closed, ended]);
  for (const deadline = Date.now() + DRAIN_MS; open > 0 && Date.now() < deadline;) {
    await new Promise((r) => setTimeout(r, 5));
  }
  stop();
  await server.close();
}
