/**
 * Reading and scripting Codex CLI's conversation at the Responses API stand-in: which requests are
 * the agent's own turns (not title generation or compaction), the user's last message, and
 * replies per typed prompt.
 * @module
 */

import { inputText, type Recorded, type Reply } from "./responses_stand_in.ts";

/** Codex's compaction turn (its metadata names the compaction). */
export function isCompaction(r: Recorded): boolean {
  return r.raw.includes('\\"compaction\\":{') || r.raw.includes('"compaction":{');
}

/** The agent's own turns (with tools), not title generation or compaction. */
export const isTurn = (r: Recorded) => (r.body.tools?.length ?? 0) > 0 && !isCompaction(r);

/** The text of the last user message of a request. */
export function lastUser(r: Recorded): string {
  const users = (r.body.input ?? []).filter((i) => i.role === "user");
  const last = users[users.length - 1];
  return last ? inputText({ ...r, body: { input: [last] } }) : "";
}

/** An agent turn carrying what the user typed. */
export const carries = (r: Recorded, prompt: string) => isTurn(r) && lastUser(r).includes(prompt);

/** Replies per typed prompt: the newest matching user message, then one step per tool call since. */
export function plays(list: { prompt: string; steps: Reply[] }[]): (r: Recorded) => Reply {
  return (r) => {
    if (!isTurn(r)) return { text: isCompaction(r) ? "E2E summary of the work." : "Session title" };
    const input = r.body.input ?? [];
    for (let i = input.length - 1; i >= 0; i--) {
      const item = input[i];
      if (item.role !== "user") continue;
      const text = inputText({ ...r, body: { input: [item] } });
      const play = list.find((p) => text.includes(p.prompt));
      if (!play) continue;
      const calls = input.slice(i + 1).filter((x) => x.type === "function_call").length;
      return play.steps[calls] ?? { text: "OK." };
    }
    return { text: "OK." };
  };
}
