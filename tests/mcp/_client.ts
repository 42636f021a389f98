/**
 * Test support for the MCP server: the SDK's own Client over stdio, spawning
 * `deno run <CLI flags> session.ts mcp` in a scratch project as a client would, with an exact
 * environment (a pinned clock, the runner's Deno cache), optionally offering roots.
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ListRootsRequestSchema,
  ResourceListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { CLI_FLAGS } from "../../lib/agents/command.ts";
import { isoStamp } from "../../lib/store/time.ts";
import { CLI, NOW } from "../support/scratch.ts";

/** The runner's Deno cache, so the child finds the SDK already fetched. */
let cache: Promise<string> | undefined;
export function denoDir(): Promise<string> {
  cache ??= new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    env: { NO_COLOR: "1" },
  }).output().then((out) => JSON.parse(new TextDecoder().decode(out.stdout)).denoDir);
  return cache;
}

/** How a test connects. */
export interface ConnectOptions {
  /** The server's working directory. */
  cwd: string;
  /** Roots the client offers (directories); undefined: no roots capability. */
  roots?: string[];
  /** Offer roots but never answer `roots/list`. */
  rootsHang?: boolean;
  /** Arguments after `mcp`. */
  args?: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** The pinned clock (default NOW); null: the real clock. */
  now?: Date | null;
}

/** A connected client; disposing it closes the server. */
export interface Connected extends AsyncDisposable {
  client: Client;
  /** How many `resources/list_changed` notifications arrived so far. */
  changes: () => number;
  /** Resolves at the next `list_changed` (rejects after `ms`). */
  nextChange: (ms?: number) => Promise<void>;
  /** What the server wrote on stderr so far. */
  stderr: () => string;
  /** Replaces the roots and tells the server. */
  setRoots: (dirs: string[]) => Promise<void>;
}

/** Starts `session.ts mcp` and connects the SDK's Client to it. */
export async function connect(o: ConnectOptions): Promise<Connected> {
  let roots = o.roots ?? [];
  const client = new Client(
    { name: "session-test", version: "1.0.0" },
    { capabilities: o.roots ? { roots: { listChanged: true } } : {} },
  );
  if (o.roots) {
    client.setRequestHandler(
      ListRootsRequestSchema,
      () =>
        o.rootsHang ? new Promise<never>(() => {}) : {
          roots: roots.map((d) => ({ uri: new URL(`file://${d}`).href, name: d })),
        },
    );
  }
  let changes = 0;
  let waiters: (() => void)[] = [];
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    changes++;
    const now = waiters;
    waiters = [];
    for (const w of now) w();
  });
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/nonexistent",
    DENO_DIR: await denoDir(),
    NO_COLOR: "1",
    ...o.env,
  };
  if (o.now !== null) env.SESSION_NOW = isoStamp(o.now ?? NOW);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...CLI_FLAGS, CLI, "mcp", ...(o.args ?? [])],
    cwd: o.cwd,
    env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
  });
  await client.connect(transport);
  return {
    client,
    changes: () => changes,
    nextChange: (ms = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no list_changed in ${ms} ms`)), ms);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
    stderr: () => stderr,
    setRoots: async (dirs) => {
      roots = dirs;
      await client.sendRootsListChanged();
    },
    [Symbol.asyncDispose]: () => client.close(),
  };
}

/** The text of a tool result's contents, joined. */
export function textOf(result: object): string {
  const content = ((result as { content?: unknown }).content ?? []) as { text?: string }[];
  return content.map((c) => c.text ?? "").join("\n");
}
