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
 * - An answer's `systemMessage` (the launcher's line when Deno is missing) is shown as a toast.
 *
 * `install --agent opencode` writes a thin plugin file into opencode's plugins folder that calls
 * {@link sessionRestore} with the registered command (lib/agents/plugin_file.ts); `install --agent
 * kilo` writes the same into Kilo Code CLI's, a fork of opencode with these events and hooks. It
 * runs inside the agent (Bun), so it imports nothing but `node:` built-ins.
 * @module
 */

import { spawn } from "node:child_process";
import process from "node:process";

/** What opencode hands a plugin (only the fields used here are typed). */
interface PluginInput {
  directory: string;
  /** opencode's SDK client: its TUI shows a toast (the hook's `systemMessage`). */
  client?: { tui?: { showToast?: (options: unknown) => Promise<unknown> } };
}

/** What one hook run answered: the context for the model and the line for the user. */
export interface HookAnswer {
  context?: string;
  message?: string;
}

/** An opencode bus event (only the fields used here are typed). */
interface OpencodeEvent {
  type: string;
  properties?: { info?: { id?: string; parentID?: string } };
}

/** How long a hook run may take before it is stopped and counts as silent (as in settings: 10 s). */
const TIMEOUT_MS = 10_000;

/**
 * The registered command for `event`: it is registered for SessionStart, and the launcher
 * (bin/with-deno) is told the event by its `--event` word, so a PreCompact run says nothing when
 * Deno is missing.
 */
export function commandFor(command: string, event: string): string {
  return command.replace(" --event SessionStart ", ` --event ${event} `);
}

/**
 * Runs `command` with `payload` on stdin; resolves with the answer's `additionalContext` and
 * `systemMessage` (each undefined when it printed none: every failure is silent, as the hook
 * itself is).
 */
export function runHook(command: string, payload: Record<string, unknown>): Promise<HookAnswer> {
  return new Promise((resolve) => {
    // The hook finds the project from the payload's cwd, as the CLI in opencode's shell does.
    const env = { ...process.env };
    delete env.CLAUDE_PROJECT_DIR;
    let out = "";
    const event = String(payload.hook_event_name ?? "SessionStart");
    const child = spawn("sh", ["-c", commandFor(command, event)], {
      env,
      stdio: ["pipe", "pipe", "ignore"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.stdout.on("data", (chunk: unknown) => out += String(chunk));
    child.on("error", () => resolve({}));
    child.on("close", () => {
      clearTimeout(timer);
      try {
        const answer = JSON.parse(out);
        const text = (value: unknown) =>
          typeof value === "string" && value !== "" ? value : undefined;
        resolve({
          context: text(answer?.hookSpecificOutput?.additionalContext),
          message: text(answer?.systemMessage),
        });
      } catch {
        resolve({});
      }
    });
    child.stdin.on("error", () => {}); // a hook that exits before reading its stdin
    child.stdin.end(JSON.stringify(payload));
  });
}

/**
 * Shows `message` as a toast in opencode's TUI, where the hook's `systemMessage` goes. Both shapes
 * of its SDK's call are given (`{ body }`, and the flat one); a client without it shows nothing.
 */
function toast(client: PluginInput["client"], message: string | undefined): void {
  if (message === undefined) return;
  const body = { message, variant: "warning", duration: 10_000 };
  try {
    client?.tui?.showToast?.({ body, ...body })?.catch?.(() => {});
  } catch {
    // no TUI (opencode run): the context still tells the agent
  }
}

/** The plugin for the registered hook `command`. */
export function sessionRestore(command: string) {
  return ({ directory, client }: PluginInput) => {
    /** Each session's context (the handover, later the card), once its hook has answered. */
    const contexts = new Map<string, Promise<string | undefined>>();
    const hook = async (sessionID: string, event: string, extra: Record<string, unknown>) => {
      const answer = await runHook(command, {
        session_id: sessionID,
        cwd: directory,
        hook_event_name: event,
        ...extra,
      });
      toast(client, answer.message);
      return answer.context;
    };
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
