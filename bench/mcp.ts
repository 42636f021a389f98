/**
 * The MCP rows of bench/run.ts ({@link mcpRows}), each beside the CLI: `session.ts mcp` started,
 * initialized and closed against an empty `deno run` with the CLI's flags (what loading the SDK
 * costs, once per client session: a reference); `restore` in a running server (what a client
 * pays after /clear: one `prompts/get`) against the CLI's own `recall` of the same handover as a
 * process; and the same round trip from a cold start (a reference).
 * @module
 */

import { compare, median, type Proc, timeOnce } from "./harness.ts";
import { makeProject } from "./fixtures.ts";
import { CLI_FLAGS, projectFile } from "../lib/agents/command.ts";

type RowFn = (
  name: string,
  size: string,
  unit: "×",
  goal: number | undefined,
  measure: () => Promise<number | undefined>,
) => Promise<void>;

/** JSON-RPC lines a client writes: initialize, initialized, then `more`; stdin then closes. */
function session(...more: Record<string, unknown>[]): string {
  return [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    ...more.map((m, i) => ({ jsonrpc: "2.0", id: i + 2, ...m })),
  ].map((m) => JSON.stringify(m)).join("\n") + "\n";
}

/** A check that every request of a session got its answer, and none failed. */
function answered(ids: number) {
  return (r: { code: number; stdout: string; stderr: string }) => {
    const got = r.stdout.trim().split("\n").map((l) => JSON.parse(l)).filter((m) => "id" in m);
    if (r.code !== 0 || got.length !== ids || got.some((m) => m.error)) {
      throw new Error(`mcp: exit ${r.code}, ${got.length} of ${ids} answers: ${r.stderr.trim()}`);
    }
  };
}

/** Adds the MCP rows. */
export async function mcpRows(
  row: RowFn,
  o: { base: string; empty: string; runs: number; env: Record<string, string> },
): Promise<void> {
  const deno = Deno.execPath();
  const docs = 1_000;
  const p = makeProject(o.base, docs, 100);
  const cli = projectFile("session.ts");
  const opts = { runs: o.runs, warmup: 3 };
  const mcp = (stdin: string, ids: number): Proc => ({
    cmd: deno,
    args: ["run", ...CLI_FLAGS, cli, "mcp"],
    cwd: p.root,
    stdin,
    env: o.env,
    check: answered(ids),
  });
  // A reference: a client starts the server once per session, and the SDK's own modules (its
  // zod schemas, ajv) are most of it (docs/PERFORMANCE.md).
  await row("mcp start", "initialize", "×", undefined, async () => {
    const floor: Proc = {
      cmd: deno,
      args: ["run", ...CLI_FLAGS, o.empty],
      cwd: p.root,
      env: o.env,
    };
    return await compare(floor, mcp(session(), 1), opts);
  });
  // The same named handover each round: recalled before, so both sides do the same work.
  const slug = "handover-00007";
  const recall: Proc = {
    cmd: deno,
    args: ["run", ...CLI_FLAGS, cli, "recall", slug],
    cwd: p.root,
    env: o.env,
    check: (r) => {
      if (r.code !== 0) throw new Error(`recall exited ${r.code}: ${r.stderr.trim()}`);
    },
  };
  const get = { method: "prompts/get", params: { name: "restore", arguments: { name: slug } } };
  await row("mcp restore", `${docs} docs, running, vs recall`, "×", 1, async () => {
    await using server = await running(deno, [...CLI_FLAGS, cli, "mcp"], p.root, o.env);
    const once = async () => {
      const t0 = performance.now();
      const answer = await server.request(get);
      if (answer.error) throw new Error(`prompts/get: ${JSON.stringify(answer.error)}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < opts.warmup; i++) await once(), await timeOnce(recall);
    const s: number[] = [];
    const f: number[] = [];
    for (let i = 0; i < opts.runs; i++) s.push(await once()), f.push(await timeOnce(recall));
    return median(s) / median(f);
  });
  await row("mcp cold restore", `${docs} docs, vs recall`, "×", undefined, async () => {
    return await compare(recall, mcp(session(get), 2), opts);
  });
}

/** A server kept running: one request at a time, its answer by id; disposing it closes stdin. */
async function running(
  deno: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
) {
  const child = new Deno.Command(deno, {
    args: ["run", ...args],
    cwd,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let id = 0;
  const request = async (m: Record<string, unknown>) => {
    const want = ++id;
    await writer.write(
      new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: want, ...m }) + "\n"),
    );
    while (true) {
      const nl = buffered.indexOf("\n");
      if (nl >= 0) {
        const line = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        if (line.id === want) return line;
        continue;
      }
      const { value, done } = await lines.read();
      if (done) throw new Error("the server closed its stdout");
      buffered += value;
    }
  };
  const init = JSON.parse(session().split("\n")[0]);
  delete init.id;
  await request(init);
  await writer.write(new TextEncoder().encode(session().split("\n")[1] + "\n"));
  return {
    request,
    async [Symbol.asyncDispose]() {
      await writer.close().catch(() => {});
      await lines.cancel().catch(() => {});
      await child.status;
    },
  };
}
