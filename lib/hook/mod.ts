/**
 * The restore hook (session_restore.ts): after `/clear`, inject the newest unconsumed handover
 * once, per agent. How it decides: docs/HOOK.md.
 *
 * - input.ts: the hook's input: the payload, its own flags, the per-agent budgets, the event and
 *   source gates
 * - frame.ts: the framing every injected context shares (banner, fence) and the JSON it prints
 * - restore.ts: the restore every agent shares: decide, redact what it will print (the document
 *   where it is read), build the context (digest when big; an automatic draft's short notice),
 *   claim LATEST exactly once, mark it consumed
 * - context.ts: the digest and the draft's notice, loaded only when a handover does not fit whole
 * - answer.ts: the answer per agent, on which event and in which JSON (Gemini's deferred restore)
 *
 * session_restore.ts imports input.ts and loads the module of each event when it comes.
 * @module
 */

export * from "./input.ts";
export * from "./frame.ts";
export * from "./restore.ts";
export * from "./context.ts";
export * from "./answer.ts";
