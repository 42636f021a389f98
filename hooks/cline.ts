/**
 * The Cline CLI plugin: Cline's shell hooks run, but what they answer never reaches the model,
 * while a plugin's `beforeRun` answer does (`appendContext`, added after the run's input as a
 * `<hook_context>` user message, kept in the session's history). Cline calls `beforeRun` at every
 * message the user sends. So this module is a Cline plugin that maps runs to the payloads
 * `session_restore.ts` answers in every other agent, runs the registered hook command with them
 * (hooks/opencode.ts `runHook`: through `sh -c`, the payload on stdin) and hands the answer's
 * `additionalContext` back to Cline. No restore rule lives here: what to inject, and exactly once,
 * is the hook's to decide.
 *
 * - Cline loads its plugins afresh for every session it starts (at launch, `/clear`), each with
 *   that session's id. The session's first run, holding only the user's message, is SessionStart
 *   with `source: "clear"`. A resumed session (`cline --id`) starts with its history: nothing.
 * - Cline tells a plugin of no compaction (`/compact`, or automatic), but a compacted request
 *   starts with a message of kind `compaction_summary` (`beforeModel` sees it): the first request
 *   with a summary not seen before is PreCompact, then SessionStart with `source: "compact"`, and
 *   its card is placed right after the summary in that request and every later one with the same
 *   summary (the request's messages, not the stored history: opencode's card is in the system
 *   prompt the same way).
 * - No session-end event reaches a plugin: no draft.
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

/** A message of Cline's history (only the fields used here are typed). */
interface HistoryMessage {
  id?: string;
  content?: unknown;
  createdAt?: number;
  metadata?: { kind?: string };
}

/** What Cline hands `beforeRun` (only the fields used here are typed). */
export interface RunContext {
  snapshot?: { messages?: HistoryMessage[] };
}

/** What Cline hands `beforeModel` (only the fields used here are typed). */
export interface ModelContext {
  request?: { messages?: HistoryMessage[] };
}

/** Whether a run starts a fresh session: its first, holding only the user's message. */
export function startsSession(ranBefore: boolean, run: RunContext | undefined): boolean {
  return !ranBefore && (run?.snapshot?.messages?.length ?? 0) <= 1;
}

/** Where a request's compaction summary is, and its key; undefined when it has none. */
export function summaryOf(
  messages: HistoryMessage[] | undefined,
): { at: number; key: string } | undefined {
  const at = messages?.findIndex((m) => m?.metadata?.kind === "compaction_summary") ?? -1;
  if (!messages || at < 0) return undefined;
  return { at, key: messages[at].id ?? JSON.stringify(messages[at].content ?? null) };
}

/** `messages` with the card as a user message right after the summary at `at` (and of its time). */
export function withCard(messages: HistoryMessage[], at: number, card: string): HistoryMessage[] {
  const message = {
    id: "session-restore-card",
    role: "user",
    content: [{ type: "text", text: card }],
    createdAt: messages[at].createdAt,
  };
  return [...messages.slice(0, at + 1), message, ...messages.slice(at + 1)];
}

/** The plugin for the registered hook `command`; `hook` runs it (injectable for tests). */
export function sessionRestore(command: string, hook = runHook) {
  let session: SetupContext = {};
  let ran = false;
  /** The last summary seen (a resumed session's own is no news) and the card made for it. */
  let card: { key: string; text?: string } | undefined;
  const call = async (event: string, extra: Record<string, unknown>) =>
    (await hook(command, {
      session_id: session.session?.sessionId ?? "",
      cwd: session.workspaceInfo?.rootPath ?? process.cwd(),
      hook_event_name: event,
      ...extra,
    })).context;
  return {
    name: "session-restore",
    manifest: { capabilities: ["hooks"] },
    setup(_api: unknown, ctx: SetupContext | undefined) {
      session = ctx ?? {};
      ran = false;
      card = undefined;
    },
    hooks: {
      async beforeRun(run: RunContext | undefined) {
        const fresh = startsSession(ran, run);
        if (!ran) {
          const summary = summaryOf(run?.snapshot?.messages);
          if (summary) card = { key: summary.key };
        }
        ran = true;
        const context = fresh ? await call("SessionStart", { source: "clear" }) : undefined;
        return context ? { appendContext: context } : undefined;
      },
      async beforeModel(model: ModelContext | undefined) {
        const messages = model?.request?.messages;
        const summary = summaryOf(messages);
        if (!messages || !summary) return undefined;
        if (card?.key !== summary.key) {
          await call("PreCompact", { trigger: "auto" });
          card = { key: summary.key, text: await call("SessionStart", { source: "compact" }) };
        }
        return card.text ? { messages: withCard(messages, summary.at, card.text) } : undefined;
      },
    },
  };
}
