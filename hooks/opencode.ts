/**
 * The opencode plugin: opencode has no shell hooks, so this module maps its plugin events to the
 * payloads `session_restore.ts` answers in every other agent, runs the registered hook command
 * with each (as Claude Code runs it: through `sh -c`, the payload on stdin), and puts the answer's
 * `additionalContext` where opencode lets a plugin add context. No restore rule lives here: what
 * to inject, and exactly once, is the hook's to decide.
 *
 * - A new top-level session (`session.created` without a parent: after `/new`, or the first
 *   message of a run) is SessionStart with `source: "clear"`; its context is added to that
 *   session's system prompt (`experimental.chat.system.transform`) on each of its requests.
 * - A compaction (`experimental.session.compacting`) is PreCompact, then SessionStart with
 *   `source: "compact"`: the continuity card replaces the session's context from then on.
 *
 * `install --agent opencode` writes a thin plugin file into opencode's plugins folder that calls
 * {@link sessionRestore} with the registered command (lib/agents/plugin_file.ts). It runs inside
 * opencode (Bun), so it imports nothing but `node:` built-ins.
 * @module
 */

import { spawn } from "node:child_process";
import process from "node:process";

/** What opencode hands a plugin (only the field used here is typed). */
interface PluginInput {
  directory: string;
}

/** An opencode bus event (only the fields used here are typed). */
interface OpencodeEvent {
  type: string;
  properties?: { info?: { id?: string; parentID?: string } };
}

/** How long a hook run may take before it is stopped and counts as silent (as in settings: 10 s). */
const TIMEOUT_MS = 10_000;

/**
 * Runs `command` with `payload` on stdin; resolves with the answer's `additionalContext`, or
 * undefined when it printed none (every failure is silent, as the hook itself is).
 */
export function runHook(
  command: string,
  payload: Record<string, unknown>,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    // The hook finds the project from the payload's cwd, as the CLI in opencode's shell does.
    const env = { ...process.env };
    delete env.CLAUDE_PROJECT_DIR;
    let out = "";
    const child = spawn("sh", ["-c", command], { env, stdio: ["pipe", "pipe", "ignore"] });
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.stdout.on("data", (chunk: unknown) => out += String(chunk));
    child.on("error", () => resolve(undefined));
    child.on("close", () => {
      clearTimeout(timer);
      try {
        const context = JSON.parse(out)?.hookSpecificOutput?.additionalContext;
        resolve(typeof context === "string" && context !== "" ? context : undefined);
      } catch {
        resolve(undefined);
      }
    });
    child.stdin.on("error", () => {}); // a hook that exits before reading its stdin
    child.stdin.end(JSON.stringify(payload));
  });
}

/** The plugin for the registered hook `command`. */
export function sessionRestore(command: string) {
  return ({ directory }: PluginInput) => {
    /** Each session's context (the handover, later the card), once its hook has answered. */
    const contexts = new Map<string, Promise<string | undefined>>();
    const hook = (sessionID: string, event: string, extra: Record<string, unknown>) =>
      runHook(command, { session_id: sessionID, cwd: directory, hook_event_name: event, ...extra });
    return Promise.resolve({
      event: ({ event }: { event: OpencodeEvent }) => {
        const info = event.properties?.info;
        if (event.type === "session.created" && info?.id && !info.parentID) {
          contexts.set(info.id, hook(info.id, "SessionStart", { source: "clear" }));
        }
        return Promise.resolve();
      },
      "experimental.chat.system.transform": async (
        input: { sessionID?: string },
        output: { system: string[] },
      ) => {
        const context = input.sessionID ? await contexts.get(input.sessionID) : undefined;
        if (context) output.system.push(context);
      },
      "experimental.session.compacting": async (input: { sessionID: string }) => {
        await hook(input.sessionID, "PreCompact", { trigger: "auto" });
        contexts.set(input.sessionID, hook(input.sessionID, "SessionStart", { source: "compact" }));
      },
    });
  };
}
