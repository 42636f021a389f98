/**
 * SessionStart hook: after `/clear`, injects the newest unconsumed handover into the fresh
 * context, once (an automatic draft only as a short notice). PreCompact saves the continuity
 * card's material; SessionStart with `source: "compact"` injects the card; SessionEnd drafts a
 * handover when the session made no dump, or adds what came after the dump (lib/continuity/).
 * UserPromptSubmit adds one line when the context fills past a threshold (lib/pressure/).
 * It never fails a session: every path exits 0; diagnostics go to stderr. With `--agent gemini`
 * it also answers Gemini CLI's BeforeAgent event (see lib/hook/answer.ts).
 *
 * Usage (as `session.ts install` registers it; every path single-quoted):
 *   deno run --no-config --no-prompt \
 *     --allow-read=<git top>,<this dir>/lib --allow-write=<store> \
 *     --allow-env=CLAUDE_PROJECT_DIR,SESSION_NOW,SESSION_DEBUG session_restore.ts \
 *     [--source compact,startup,resume] [--window-minutes 30] [--agent claude|codex|gemini|qwen|opencode|copilot|kilo|droid|cline] \
 *     [--no-notice] [--nudge 70,85]
 * (`--user` and the plugin: plain `--allow-read --allow-write`, see lib/agents/command.ts `hookFlags`.)
 * @module
 */

import {
  cardOnPrompt,
  ourPayload,
  parseHookArgs,
  parsePayload,
  type Payload,
  type RestoreOptions,
} from "./lib/hook/input.ts";
import { readAll, writeLine } from "./lib/fs/stdio.ts";
import { currentTime, safeEnv } from "./lib/store/time.ts";

/** What an event's answer prints (nothing when `stdout` is undefined) and why. */
type Answer = { stdout?: string; reason: string };

/**
 * The answer to one payload, each event's module loaded only for its event (a computed
 * specifier: Deno reads a module's graph when it is imported, not at start).
 */
async function answer(payload: Payload, options: RestoreOptions): Promise<Answer> {
  const projectDir = safeEnv("CLAUDE_PROJECT_DIR");
  const now = currentTime();
  const load = (path: string) => import(import.meta.resolve(path));
  const event = payload.hook_event_name;
  if (event === "UserPromptSubmit" && cardOnPrompt(options.agent)) {
    const env = { projectDir };
    return (await load("./lib/continuity/compact.ts")).answerPromptCard(payload, options, env, now);
  }
  if (event === "UserPromptSubmit") {
    const nudge = await load("./lib/pressure/nudge.ts");
    return nudge.answerPrompt(payload, options, { projectDir }, now);
  }
  if (event === "SessionEnd") {
    const end = await load("./lib/continuity/session_end.ts");
    return end.answerSessionEnd(payload, options, { projectDir }, now.getTime());
  }
  // Gemini sets CLAUDE_PROJECT_DIR to its own cwd; the walk-up rule decides for it (answer.ts).
  const env = { projectDir: options.agent === "gemini" ? undefined : projectDir };
  if (event === "PreCompact") {
    return (await load("./lib/continuity/pre_compact.ts")).answerPreCompact(
      payload,
      options,
      env,
      now,
    );
  }
  if (event === "SessionStart" && payload.source === "compact") {
    return (await load("./lib/continuity/compact.ts")).answerCompact(payload, options, env, now);
  }
  return (await load("./lib/hook/answer.ts")).answer(payload, options, { projectDir }, now);
}

try {
  const payload = parsePayload(new TextDecoder().decode(await readAll(Deno.stdin)));
  if (!payload) {
    console.error("session_restore: no usable payload on stdin; nothing injected");
  } else {
    const options = parseHookArgs(Deno.args);
    const result: Answer = await answer(ourPayload(payload, options.agent), options);
    if (result.stdout !== undefined) writeLine(Deno.stdout, result.stdout);
    // Every outcome's reason, an inject's too: what it redacted, by kind (never a value).
    if (safeEnv("SESSION_DEBUG")) console.error(`session_restore: ${result.reason}`);
  }
} catch (err) {
  console.error(`session_restore: ${err instanceof Error ? err.message : err}`);
}
