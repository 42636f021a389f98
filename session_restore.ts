/**
 * SessionStart hook: after `/clear`, injects the newest unconsumed handover into the fresh
 * context, once. It never fails a session: every path exits 0; diagnostics go to stderr.
 *
 * Usage (as `session.ts install` registers it):
 *   deno run --allow-read=<root> --allow-write=<store> --allow-env --no-prompt session_restore.ts \
 *     [--source compact,startup,resume] [--window-minutes 30] [--agent claude|codex|gemini]
 * @module
 */

import { gate, parseHookArgs, parsePayload } from "./lib/hook_input.ts";
import { findRoot, readLatest, storeAt } from "./lib/store.ts";
import { currentTime, safeEnv } from "./lib/time.ts";

// Speed (docs/PERFORMANCE.md): almost every `/clear` finds no pointer. That path loads only the
// three small modules above and decides with a stat walk and one failed read; the inject code
// (front matter, digest, atomic writes) is imported only when LATEST names something. Stack
// traces are never printed (only messages), and capturing them costs start-up time.
Error.stackTraceLimit = 0;

/** Reads all of stdin synchronously (measurably cheaper at start-up than a stream). */
function readStdin(): string {
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(1 << 16);
  let total = 0;
  for (;;) {
    const n = Deno.stdin.readSync(buf);
    if (n === null || n === 0) break;
    chunks.push(buf.slice(0, n));
    total += n;
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all);
}

try {
  const payload = parsePayload(readStdin());
  if (!payload) {
    console.error("session_restore: no usable payload on stdin; nothing injected");
  } else {
    const options = parseHookArgs(Deno.args);
    const env = { projectDir: safeEnv("CLAUDE_PROJECT_DIR") };
    const quiet = gate(payload, options) ??
      (readLatest(storeAt(findRoot({ projectDir: env.projectDir, cwd: payload.cwd }))) === undefined
        ? "no LATEST pointer"
        : undefined);
    if (quiet !== undefined) {
      if (safeEnv("SESSION_DEBUG")) console.error(`session_restore: ${quiet}`);
    } else {
      const { hookOutput, restore } = await import("./lib/restore.ts");
      const outcome = restore(payload, options, env, currentTime());
      if (outcome.injected) console.log(hookOutput(outcome.context));
      else if (safeEnv("SESSION_DEBUG")) console.error(`session_restore: ${outcome.reason}`);
    }
  }
} catch (err) {
  console.error(`session_restore: ${err instanceof Error ? err.message : err}`);
}
Deno.exit(0);
