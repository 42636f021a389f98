/**
 * `mcp [--dir DIR]`: serves this project's store over MCP on stdio (lib/mcp/server.ts) until the
 * client closes it. The server's tools and `restore` prompt run the other modes through the
 * dispatcher (lib/cli/main.ts `main`) with a captured output, so they answer exactly as the CLI
 * does; both it and the server are loaded only here, by computed specifiers, so no other mode
 * and no hook loads the SDK. Stdout is the protocol's: nothing else is printed there.
 * @module
 */

import { EXIT } from "../errors.ts";
import { currentTime } from "../store/time.ts";
import type { Cli } from "../mcp/cli_run.ts";
import { modeSpec, parseOrHelp } from "./args.ts";
import type { Context } from "./run_context.ts";

/** Arguments and help of `mcp`. */
export const SPEC = modeSpec({
  mode: "mcp",
  usage: "mcp [--dir DIR]",
  summary: "Serves the store over MCP on stdio: prompts restore and dump, the handovers and " +
    "PARKED.md as resources, the modes as tools.",
  flags: {},
  notes: [
    "The project: --dir, else the client's roots, else the working directory, then the root rule.",
    "Register it for a client: session.ts install --mcp [--agent NAME] (docs/MCP.md).",
  ],
});

/** Runs `mcp`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const { main }: typeof import("./main.ts") = await import(import.meta.resolve("./main.ts"));
  const { serve }: typeof import("../mcp/server.ts") = await import(
    import.meta.resolve("../mcp/server.ts")
  );
  const cli: Cli = async (argv, where) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, {
      cwd: where.cwd,
      env: where.env,
      now: currentTime(where.env),
      readStdin: () => Promise.resolve(where.stdin ?? ""),
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };
  await serve({ cli, cwd: ctx.cwd, dir: a.dir, env: ctx.env, now: () => currentTime(ctx.env) });
  return EXIT.ok;
}
