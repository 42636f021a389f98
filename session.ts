/**
 * The session CLI: `deno run --allow-read --allow-write --allow-env --allow-run=git session.ts
 * <mode> …`. Thin: it wires the process to `lib/cli/main.ts` and sets the exit code.
 * @module
 */

import { writeLine } from "./lib/cli/context.ts";
import { main } from "./lib/cli/main.ts";
import { currentTime, safeEnv } from "./lib/time.ts";

const code = await main(Deno.args, {
  cwd: Deno.cwd(),
  env: safeEnv,
  now: currentTime(),
  // A terminal on stdin means nothing was piped: read nothing rather than wait for typing.
  readStdin: () =>
    Deno.stdin.isTerminal() ? Promise.resolve("") : new Response(Deno.stdin.readable).text(),
  out: (text) => writeLine(Deno.stdout, text),
  err: (text) => writeLine(Deno.stderr, text),
});
Deno.exit(code);
