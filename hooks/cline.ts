/**
 * The Cline CLI plugin: Cline's shell hooks run, but what they answer never reaches the model,
 * while a plugin's `beforeRun` answer does (`appendContext`, added after the run's input as a
 * `<hook_context>` user message). So this module is a Cline plugin that maps a new session's
 * first run to the payload `session_restore.ts` answers in every other agent, runs the registered
 * hook command with it (hooks/opencode.ts `runHook`: through `sh -c`, the payload on stdin) and
 * hands the answer's `additionalContext` back to Cline. No restore rule lives here: what to
 * inject, and exactly once, is the hook's to decide.
 *
 * - Cline loads its plugins afresh for every session it starts (at launch, a new task, `/clear`),
 *   each with that session's id: the first run of a session is SessionStart with
 *   `source: "clear"`; later runs of the session get nothing.
 * - A resumed session (`cline --id`) starts with its history already there: its first run gets
 *   nothing either.
 * - Cline sends plugins no compaction and no session-end event: no card, no draft.
 *
 * `install --agent cline` writes a thin plugin file into Cline's plugins folder that exports
 * {@link sessionRestore} of the registered command as `plugin` (lib/agents/plugin_file.ts). It runs
 * inside Cline's plugin sandbox (Node), so it imports nothing but `node:` built-ins and the
 * opencode plugin's runner.
 * @module
 */

import process from "node:process";
import { runHook } from "./opencode.ts";

/** What Cline hands a plugin's `setup` (only the fields used here are typed). */
export interface SetupContext {
  session?: { sessionId?: string };
  workspaceInfo?: { rootPath?: string };
}

/** What Cline hands `beforeRun` (only the fields used here are typed). */
export interface RunContext {
  snapshot?: { messages?: unknown[] | number };
}

/**
 * Whether a run is the start of a fresh session: its first run, holding only the user's message
 * (a resumed session's first run holds its history too).
 */
export function startsSession(alreadyRan: boolean, run: RunContext | undefined): boolean {
  if (alreadyRan) return false;
  const messages = run?.snapshot?.messages;
  const count = Array.isArray(messages) ? messages.length : messages ?? 0;
  return count <= 1;
}

/** The plugin for the registered hook `command`; `hook` runs it (injectable for tests). */
export function sessionRestore(command: string, hook = runHook) {
  let session: SetupContext = {};
  let ran = false;
  return {
    name: "session-restore",
    manifest: { capabilities: ["hooks"] },
    setup(_api: unknown, ctx: SetupContext | undefined) {
      session = ctx ?? {};
      ran = false;
    },
    hooks: {
      async beforeRun(run: RunContext | undefined) {
        const fresh = startsSession(ran, run);
        ran = true;
        if (!fresh) return undefined;
        const answer = await hook(command, {
          session_id: session.session?.sessionId ?? "",
          cwd: session.workspaceInfo?.rootPath ?? process.cwd(),
          hook_event_name: "SessionStart",
          source: "clear",
        });
        return answer.context ? { appendContext: answer.context } : undefined;
      },
    },
  };
}
