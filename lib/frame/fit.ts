/**
 * Fitting a framed text into an agent's budget (lib/frame/budget.ts): whole when it fits, else
 * rebuilt smaller until its bytes fit too (Codex's byte cap).
 * @module
 */

import { utf8Length } from "../text/bytes.ts";
import type { Budget } from "./budget.ts";
import { frameCost, framed, longestBacktickRun } from "./fence.ts";

/** Whether `body` is too long to be injected whole: over the budget's `digestOver` characters. */
export function overDigest(body: string, budget: Budget): boolean {
  return body.length > budget.digestOver;
}

/**
 * `body` framed under `banner` whole, when it needs no digest ({@link overDigest}) and the whole
 * context fits the budget's characters and bytes; else undefined.
 */
export function wholeContext(banner: string, body: string, budget: Budget): string | undefined {
  if (overDigest(body, budget)) return undefined;
  if (body.length > budget.limit - frameCost(banner, longestBacktickRun(body))) return undefined;
  const context = framed(banner, body);
  return budget.maxBytes !== undefined && utf8Length(context) > budget.maxBytes
    ? undefined
    : context;
}

/**
 * `build(room)`, then — with a byte cap (Codex) — built again with the room shrunk by the
 * overshoot's ratio (`again` set) until it fits, at most 8 times.
 */
export function withinBytes(
  room: number,
  budget: Budget,
  build: (room: number, again: boolean) => string,
): string {
  let context = build(room, false);
  for (let i = 0; budget.maxBytes !== undefined && i < 8; i++) {
    const bytes = utf8Length(context);
    if (bytes <= budget.maxBytes) break;
    // From the context's own length, not the room: a text far under the room (emoji: 4 bytes per
    // 2 UTF-16 units) would otherwise shrink by a few percent a round and never fit.
    room = Math.max(0, Math.floor((Math.min(room, context.length) * budget.maxBytes) / bytes) - 64);
    context = build(room, true);
  }
  return context;
}
