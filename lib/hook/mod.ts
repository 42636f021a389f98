/**
 * The restore hook (session_restore.ts): after `/clear`, inject the newest unconsumed handover
 * once, per agent. Why it is split this way, and what it may cost: docs/HOOK.md and
 * docs/PERFORMANCE.md.
 *
 * - fast.ts: the fast path: the hook's input (payload, flags, budgets, gates), the framing every
 *   injected context shares (banner, fence), and the whole answer for the common `/clear`, in
 *   one module that imports nothing; a text that may hold a secret (`suspectSecret`) it hands over
 * - restore.ts: the general restore every agent shares: decide, redact what it will print (the
 *   document where it is read), build the context (digest when big; an automatic draft's short
 *   notice), claim LATEST exactly once, mark it consumed
 * - answer.ts: the answer per agent, on which event and in which JSON (Gemini's deferred restore)
 *
 * Nothing imports this file: session_restore.ts imports fast.ts directly and loads answer.ts by a
 * computed specifier, only when the fast path hands over; a barrel would load both every time.
 * @module
 */

export * from "./fast.ts";
export * from "./restore.ts";
export * from "./answer.ts";
