/**
 * What a Claude Code request carries from the SessionStart hook: its "SessionStart hook
 * additional context" passages, told apart from everything else in the request, so a test can
 * prove a name reached the model from the hook and from nowhere else.
 * @module
 */

import assert from "node:assert/strict";
import { messageText, type Recorded } from "./stand_in.ts";

const HOOK_CONTEXT = "SessionStart hook additional context";

/**
 * What follows a hook context passage. Both versions open a system-role message with it and
 * append their other attachments after a blank line (2.1.197 the agent and skill listings,
 * 2.1.332 its environment section or the deferred tools); a system reminder closes it elsewhere.
 */
const FOLLOWERS = [
  "</system-reminder>",
  "\n\n# Environment\n",
  "\n\nAvailable agent types for the Agent tool:",
  "\n\nThe following deferred tools are now available",
  "\n\nThe following skills are available",
  `\n\n${HOOK_CONTEXT}`,
];

/** Where the hook context passage at `at` ends. */
function passageEnd(text: string, at: number): number {
  const ends = FOLLOWERS.map((e) => text.indexOf(e, at + 1)).filter((i) => i >= 0);
  return ends.length ? Math.min(...ends) : text.length;
}

/** A request's text split into its hook context passages and everything else. */
export function splitRequest(r: Recorded): { hook: string; rest: string } {
  const hook: string[] = [];
  const rest: string[] = [JSON.stringify(r.body.system ?? "")];
  for (const m of r.body.messages ?? []) {
    const text = messageText(m);
    let from = 0;
    for (let at = text.indexOf(HOOK_CONTEXT); at >= 0; at = text.indexOf(HOOK_CONTEXT, from)) {
      rest.push(text.slice(from, at));
      from = passageEnd(text, at);
      hook.push(text.slice(at, from));
    }
    rest.push(text.slice(from));
  }
  return { hook: hook.join("\n"), rest: rest.join("\n") };
}

/** The hook context a request carries: every "SessionStart hook additional context" passage. */
export function hookContext(r: Recorded): string {
  return splitRequest(r).hook;
}

/**
 * Asserts `name` reached the model in the hook context and nowhere else (not in `git status`,
 * the commit subjects or the conversation): the hook brought it.
 */
export function onlyFromHook(r: Recorded, name: string, what: string) {
  const { hook, rest } = splitRequest(r);
  assert.ok(hook.includes(name), `${what} (${name}) in the hook context:\n${hook}`);
  assert.ok(!rest.includes(name), `${name} reached the model outside the hook context too`);
}
