/**
 * Driving a client turn by turn, whatever its stand-in: type a prompt and wait for the model
 * request it causes; type one and wait for the play's closing text on screen. A timeout says what
 * was asked and shows the screen.
 * @module
 */

import type { RequestLog } from "./request_log.ts";
import { sleep, type Tmux } from "./tmux.ts";

/** A client in tmux and the stand-in it talks to. */
export interface Driven<R> {
  tmux?: Tmux;
  standIn: { requests: R[]; waitFor: RequestLog<R>["waitFor"] };
}

/** Types `prompt`; returns the first request from then on that `carries` it. */
export async function ask<R>(
  s: Driven<R>,
  prompt: string,
  carries: (r: R, prompt: string) => boolean,
): Promise<R> {
  const since = s.standIn.requests.length;
  await s.tmux!.submit(prompt);
  try {
    return await s.standIn.waitFor((r) => carries(r, prompt), { since, timeoutMs: 45_000 });
  } catch (err) {
    throw new Error(
      `${(err as Error).message} (asked "${prompt}")\nscreen:\n${await s.tmux!.screen()}`,
    );
  }
}

/**
 * Types `prompt` and waits until the play's closing text `done` is on screen, and a second
 * more: the screen shows a reply before the client has appended it to its transcript.
 */
export async function work<R>(
  s: Driven<R>,
  prompt: string,
  done: string,
  carries: (r: R, prompt: string) => boolean,
) {
  await ask(s, prompt, carries);
  await s.tmux!.waitForScreen(done, 60_000);
  await sleep(1_000);
}
