/**
 * SessionStart hook: after `/clear`, injects the newest unconsumed handover into the fresh
 * context, once. It never fails a session: every path exits 0; diagnostics go to stderr.
 * With `--agent gemini` it also answers Gemini CLI's BeforeAgent event (see lib/hook.ts).
 *
 * Usage (as `session.ts install` registers it):
 *   deno run --allow-read=<root> --allow-write=<store> --allow-env --no-prompt session_restore.ts \
 *     [--source compact,startup,resume] [--window-minutes 30] [--agent claude|codex|gemini]
 * @module
 */

import { answer } from "./lib/hook.ts";
import { parseHookArgs, parsePayload } from "./lib/restore.ts";
import { currentTime, safeEnv } from "./lib/time.ts";

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
    const result = answer(
      payload,
      parseHookArgs(Deno.args),
      { projectDir: safeEnv("CLAUDE_PROJECT_DIR") },
      currentTime(),
    );
    if (result.stdout !== undefined) console.log(result.stdout);
    else if (safeEnv("SESSION_DEBUG")) console.error(`session_restore: ${result.reason}`);
  }
} catch (err) {
  console.error(`session_restore: ${err instanceof Error ? err.message : err}`);
}
Deno.exit(0);
