/**
 * SessionStart hook: after `/clear`, injects the newest unconsumed handover into the fresh
 * context, once. It never fails a session: every path exits 0; diagnostics go to stderr.
 * With `--agent gemini` it also answers Gemini CLI's BeforeAgent event (see lib/hook.ts).
 *
 * Usage (as `session.ts install` registers it):
 *   deno run --no-config --no-prompt --allow-read=<root> --allow-write=<store> \
 *     --allow-env=CLAUDE_PROJECT_DIR,SESSION_NOW,SESSION_DEBUG session_restore.ts \
 *     [--source compact,startup,resume] [--window-minutes 30] [--agent claude|codex|gemini]
 * @module
 */

import { fastAnswer, hookNow, parseHookArgs, parsePayload, readEnv } from "./lib/hook_fast.ts";

// Speed (docs/PERFORMANCE.md): the hook must stay within 1.15× of an empty `deno run`, and every
// module it loads costs ~1 % of that. lib/hook_fast.ts, which imports nothing, settles the common
// `/clear` — nothing to restore, or a plain handover — by itself; the general path (lib/hook.ts
// and the modules it needs) is imported only for what the fast path hands over.
// Only messages are ever printed, and capturing stack traces costs start-up time.
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
  return decodeUtf8(all);
}

/**
 * UTF-8 to text. A payload is almost always ASCII, and building the string from char codes skips
 * TextDecoder, whose first use costs ~0.2 ms (~1 % of the hook's whole time) in a fresh process.
 */
function decodeUtf8(bytes: Uint8Array): string {
  let ascii = bytes.length <= 1 << 16;
  for (let i = 0; ascii && i < bytes.length; i++) ascii = bytes[i] < 0x80;
  return ascii
    ? String.fromCharCode.apply(null, bytes as unknown as number[])
    : new TextDecoder().decode(bytes);
}

/** Writes to stdout directly: console.log's formatting machinery costs start-up time. */
function writeOut(text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length;) at += Deno.stdout.writeSync(bytes.subarray(at));
}

try {
  const payload = parsePayload(readStdin());
  if (!payload) {
    console.error("session_restore: no usable payload on stdin; nothing injected");
  } else {
    const options = parseHookArgs(Deno.args);
    const projectDir = readEnv("CLAUDE_PROJECT_DIR");
    const now = hookNow();
    const fast = fastAnswer(payload, options, { projectDir, now });
    if ("general" in fast && readEnv("SESSION_DEBUG")) {
      console.error(`session_restore: the general path decides (${fast.general})`);
    }
    const result = "general" in fast
      ? (await import("./lib/hook.ts")).answer(payload, options, { projectDir }, now)
      : fast;
    if (result.stdout !== undefined) writeOut(result.stdout + "\n");
    else if (readEnv("SESSION_DEBUG")) console.error(`session_restore: ${result.reason}`);
  }
} catch (err) {
  console.error(`session_restore: ${err instanceof Error ? err.message : err}`);
}
// Exiting here skips the runtime's teardown (it closes its caches), which measured dearer than
// what exiting costs: Deno stores a module's code cache only once its evaluation completes, so
// this script is compiled afresh each run (~0.3 ms); its imports are cached.
Deno.exit(0);
