/**
 * The injected context when a handover does not fit whole: the digest (Goal, Files touched, Next
 * step and the recall command) capped to the agent's budget, and the short notice of an automatic
 * draft (lib/hook/notice.ts). Loaded only when one of them is needed (lib/hook/pending.ts); the
 * whole body is lib/frame/fit.ts `wholeContext`, which this module tries first.
 * @module
 */

import { cliCommand } from "../agents/command.ts";
import { buildDigest, capLines } from "../handover/document.ts";
import { bannerAgo } from "../frame/banner.ts";
import type { Budget } from "../frame/budget.ts";
import { overDigest, wholeContext, withinBytes } from "../frame/fit.ts";
import { frameCost, framed, longestBacktickRun } from "../frame/fence.ts";
import { buildNotice, noticeBanner, summarizeDraft } from "./notice.ts";
import { type DocHead, injectedBody, restoreBanner } from "./output.ts";

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

/** The short notice of an automatic draft (lib/hook/notice.ts). */
export function draftNotice(doc: DocHead & { body: string }, now: Date): string {
  const banner = noticeBanner(
    doc.slug,
    bannerAgo(doc.created, now),
    doc.branch,
    cliCommand("recall", doc.slug),
  );
  return buildNotice(summarizeDraft(doc.body), banner);
}
