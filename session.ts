/**
 * The session CLI: `deno run --allow-read --allow-write --allow-env --allow-run=git session.ts
 * <mode> …` (lib/agents/command.ts `CLI_FLAGS`). Thin: it wires the process to `lib/cli/main.ts` and sets
 * the exit code.
 * @module
 */

import { decodeStdin, readAll, writeLine } from "./lib/cli/run_context.ts";
import { main } from "./lib/cli/main.ts";
import { currentTime, safeEnv } from "./lib/store/time.ts";

const code = await main(Deno.args, {
  cwd: Deno.cwd(),
  env: safeEnv,
  now: currentTime(),
  // A terminal on stdin means nothing was piped: read nothing rather than wait for typing.
  readStdin: async () => Deno.stdin.isTerminal() ? "" : decodeStdin(await readAll(Deno.stdin)),
  out: (text) => writeLine(Deno.stdout, text),
  err: (text) => writeLine(Deno.stderr, text),
});
Deno.exit(code);
