/**
 * The injected context when a handover does not fit whole: the digest (Goal, Files touched, Next
 * step and the recall command) capped to the agent's budget, and the short notice of an automatic
 * draft. Loaded only when one of them is needed (lib/hook/pending.ts); the whole body is
 * lib/hook/frame.ts `wholeContext`, which this module tries first.
 * @module
 */

import { utf8Length } from "../text/bytes.ts";
import { cliCommand } from "../agents/command.ts";
import { buildDigest, capLines } from "../handover/document.ts";
import { buildNotice, noticeBanner, summarizeDraft } from "../continuity/notice.ts";
import {
  bannerAge,
  type DocHead,
  frameCost,
  framed,
  injectedBody,
  longestBacktickRun,
  overDigest,
  restoreBanner,
  wholeContext,
} from "./frame.ts";
import type { Budget } from "./input.ts";

/** The context the agent receives: a one-line banner, then the body or its digest, fenced. */
export function buildContext(doc: DocHead & { body: string }, now: Date, budget: Budget): string {
  const { banner, recall } = restoreBanner(doc, now);
  const body = injectedBody(doc.body);
  return wholeContext(banner, body, budget) ?? fitFramed(banner, body, recall, budget);
}

/**
 * `banner` and `body` framed within `budget`: the body whole, or its digest when it is over
 * `digestOver` or the room, then capped; with a byte cap (Codex), digested smaller until it fits.
 */
export function fitFramed(banner: string, body: string, recall: string, budget: Budget): string {
  // Digest and cap only shorten lines and add single backticks: the body's fence is the widest.
  const room = budget.limit - frameCost(banner, longestBacktickRun(body));
  return withinBytes(room, budget, (room, again) => {
    const text = again || overDigest(body, budget) ? buildDigest(body, recall, room) : body;
    return framed(banner, capLines(text, room));
  });
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

/** The short notice of an automatic draft (lib/continuity/notice.ts). */
export function draftNotice(doc: DocHead & { body: string }, now: Date): string {
  const banner = noticeBanner(
    doc.slug,
    bannerAge(doc.created, now),
    doc.branch,
    cliCommand("recall", doc.slug),
  );
  return buildNotice(summarizeDraft(doc.body), banner);
}
