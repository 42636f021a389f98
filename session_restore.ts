/**
 * SessionStart hook: after `/clear`, injects the newest unconsumed handover into the fresh
 * context, once (an automatic draft only as a short notice). PreCompact saves the continuity
 * card's material; SessionStart with `source: "compact"` injects the card; SessionEnd drafts a
 * handover when the session made no dump, or adds what came after the dump (lib/continuity/).
 * It never fails a session: every path exits 0; diagnostics go to stderr. With `--agent gemini`
 * it also answers Gemini CLI's BeforeAgent event (see lib/hook/answer.ts).
 *
 * Usage (as `session.ts install` registers it; every path single-quoted):
 *   deno run --no-config --no-prompt \
 *     --v8-flags=--no-lazy,--baseline-batch-compilation-threshold=16384 \
 *     --allow-read=<git top>,<this dir>/lib --allow-write=<store> \
 *     --allow-env=CLAUDE_PROJECT_DIR,SESSION_NOW,SESSION_DEBUG session_restore.ts \
 *     [--source compact,startup,resume] [--window-minutes 30] [--agent claude|codex|gemini] \
 *     [--no-notice]
 * (`--user` and the plugin: plain `--allow-read --allow-write`, see lib/agents/command.ts `hookFlags`.)
 * @module
 */

import {
  fastAnswer,
  hookNowMs,
  parseHookArgs,
  parsePayload,
  readEnv,
  readStdin,
  writeOut,
} from "./lib/hook/fast.ts";
import type * as General from "./lib/hook/answer.ts";
import type * as PreCompact from "./lib/continuity/pre_compact.ts";
import type * as Compact from "./lib/continuity/compact.ts";
import type * as End from "./lib/continuity/session_end.ts";

// Speed (docs/PERFORMANCE.md): the hook must stay within 1.15× of an empty `deno run`, and every
// module it loads costs ~1 % of that. lib/hook/fast.ts, which imports nothing, settles the common
// `/clear` — nothing to restore, or a plain handover — by itself; the general path (lib/hook/answer.ts
// and the modules it needs) is imported only for what the fast path hands over.
// Only messages are ever printed, and capturing stack traces costs start-up time.
Error.stackTraceLimit = 0;

let printed = false;
let ended = false;
try {
  const payload = parsePayload(readStdin());
  if (!payload) {
    console.error("session_restore: no usable payload on stdin; nothing injected");
  } else if (payload.hook_event_name === "SessionEnd") {
    // SessionEnd (every reason): a draft for a session that made no dump, or what came after
    // the dump (lib/continuity/session_end.ts). Prints nothing: no model reads SessionEnd output.
    const end = import.meta.resolve("./lib/continuity/session_end.ts");
    const r = await ((await import(end)) as typeof End).answerSessionEnd(
      payload,
      parseHookArgs(Deno.args),
      { projectDir: readEnv("CLAUDE_PROJECT_DIR") },
      hookNowMs(),
    );
    if (readEnv("SESSION_DEBUG")) console.error(`session_restore: ${r.reason}`);
    ended = true;
  } else {
    const options = parseHookArgs(Deno.args);
    const projectDir = readEnv("CLAUDE_PROJECT_DIR");
    const nowMs = hookNowMs();
    // Gemini sets CLAUDE_PROJECT_DIR to its own cwd; the walk-up rule decides for it (answer.ts).
    const env = { projectDir: options.agent === "gemini" ? undefined : projectDir };
    // Compaction is told apart by two string compares before anything else is loaded; each
    // branch loads its module by a computed specifier (see below), only for its event.
    const event = payload.hook_event_name;
    let result: { stdout?: string; reason: string };
    if (event === "PreCompact") {
      const url = import.meta.resolve("./lib/continuity/pre_compact.ts");
      result = await ((await import(url)) as typeof PreCompact)
        .answerPreCompact(payload, options, env, new Date(nowMs));
    } else if (event === "SessionStart" && payload.source === "compact") {
      const url = import.meta.resolve("./lib/continuity/compact.ts");
      result = await ((await import(url)) as typeof Compact)
        .answerCompact(payload, options, env, new Date(nowMs));
    } else {
      const fast = fastAnswer(payload, options, { projectDir, now: nowMs });
      if ("general" in fast && readEnv("SESSION_DEBUG")) {
        console.error(`session_restore: the general path decides (${fast.general})`);
      }
      // A computed specifier: with a literal one Deno would read the general path's whole module
      // graph on every start to prepare it; computed, it is read only when imported (which needs
      // the read permission on lib/ that `install` grants). Resolved only here, and with
      // `import.meta.resolve`, not a `URL` (whose first use costs ~0.4 ms in a fresh process).
      if ("general" in fast) {
        const general = import.meta.resolve("./lib/hook/answer.ts");
        result = await ((await import(general)) as typeof General).answer(
          payload,
          options,
          { projectDir },
          new Date(nowMs),
        );
      } else result = fast;
    }
    if (result.stdout !== undefined) {
      writeOut(result.stdout + "\n");
      printed = true;
    }
    // Every outcome's reason, an inject's too: what it redacted, by kind (never a value).
    if (readEnv("SESSION_DEBUG")) console.error(`session_restore: ${result.reason}`);
  }
} catch (err) {
  console.error(`session_restore: ${err instanceof Error ? err.message : err}`);
}
// How this process ends is measured (docs/PERFORMANCE.md). Deno stores the modules' compiled code
// when the main module's evaluation completes or a dynamic import's does; an inject imports nothing
// dynamically, so had it always called Deno.exit its modules would never be cached and would be
// compiled afresh each run (~3 % of the budget). Ending normally costs the runtime's teardown
// instead (~1.5 %). So the silent paths (almost every `/clear`) end normally and keep the cache
// filled; a run that injected exits at once, and so does SessionEnd (its teardown measured ~1.5
// ms, ~6 %), whose computed imports have its modules cached all the same.
if (printed || ended) Deno.exit(0);
