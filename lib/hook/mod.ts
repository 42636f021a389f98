/**
 * The restore hook (session_restore.ts): after `/clear`, inject the newest unconsumed handover
 * once, per agent. How it decides: docs/HOOK.md.
 *
 * - input.ts: the hook's input: the payload, its own flags (the agent's budget from
 *   lib/frame/budget.ts), the event and source gates
 * - restore.ts: the decision every agent shares, claiming nothing: the gates, the root rule, the
 *   store, LATEST or the predecessor session's own handover; then the rest of the restore
 * - pending.ts: what runs only once a handover is pending, loaded by restore.ts only then: redact
 *   what the hook will print (the document where it is read), build the context (whole when it
 *   fits), claim LATEST exactly once under the docs lock, mark it consumed
 * - output.ts: a handover's banner and body as injected (framed by lib/frame/) and the JSON the
 *   hook prints
 * - context.ts: the digest and the draft's notice, loaded only when a handover does not fit whole
 * - notice.ts: the short notice of an automatic draft after `/clear` (≤ 700 characters)
 * - answer.ts: the answer per agent, on which event and in which JSON (Gemini's deferred restore)
 *
 * session_restore.ts imports input.ts and loads the module of each event when it comes; on a
 * `/clear` with nothing pending the hook loads input.ts (and the budget table,
 * lib/frame/budget.ts), answer.ts, restore.ts and the store's read side only. Import the concept file, not this one: a barrel would load the whole folder.
 * @module
 */
