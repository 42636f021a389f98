/**
 * The continuity card injected after a compaction: Goal, Standing instructions, Decisions and Next
 * step of the handover the session started from (or dumped last), where the session stood (its last
 * request, state and the next step that follows, from the transcript), the user's own words (typed
 * prompts, newest first, within {@link USER_WORDS_SHARE} of the room), its unfinished tasks, the
 * open parked items and the files it touched (names only: Claude Code re-attaches recently edited
 * files itself). Framed like every injected context (lib/frame/) and bounded to
 * {@link CARD_LIMIT} characters — and the agent's byte cap (Codex) — by the digest's rule: each
 * section gets a share, what short sections leave goes to the cut ones, lines are elided with a
 * count. Pure.
 * @module
 */

import { capLines, type Section } from "../handover/document.ts";
import { branchWords, recordBanner } from "../frame/banner.ts";
import type { Budget } from "../frame/budget.ts";
import { withinBytes } from "../frame/fit.ts";
import { frameCost, framed, longestBacktickRun, shortenRuns } from "../frame/fence.ts";
import { FILES, type Material, PARKED, STOPPED, TASKS, USER_WORDS } from "./material.ts";

/** The card never exceeds this many characters (banner and fence included). */
export const CARD_LIMIT = 4_000;

/**
 * The most of the card's room the user's own words take, whatever else fits: a long session's
 * prompts must not crowd out the handover's parts, tasks and parked items.
 */
export const USER_WORDS_SHARE = 0.25;

/** Each section's share of the room when the card must be cut. */
const SHARES: Record<string, number> = {
  [USER_WORDS]: USER_WORDS_SHARE,
  "Goal": 0.15,
  "Standing instructions": 0.15,
  "Decisions": 0.2,
  "Next step": 0.15,
  [STOPPED]: 0.15,
  [TASKS]: 0.15,
  [PARKED]: 0.1,
  [FILES]: 0.1,
};

/**
 * The card's banner: what happened, where the card comes from (`ago`: `12 min ago`), the recall
 * command.
 */
export function cardBanner(
  material: Material,
  ago: string | undefined,
  recall: string | undefined,
): string {
  const h = material.handover;
  const from = h
    ? `the handover "${h.slug}" (dumped ${ago}, ${
      branchWords(h.branch)
    }; full document: \`${recall}\`), this session's transcript and PARKED.md`
    : "this session's transcript and PARKED.md";
  return recordBanner(
    "The context was just compacted.",
    `The continuity card of this session, from ${from},`,
    "a",
  );
}

/** The sections under `room` characters in all: whole when they fit, else shared out and capped. */
export function fitSections(sections: Section[], room: number): string {
  const render = (title: string, content: string) => `## ${title}\n\n${content}`;
  const whole = sections.map((s) => render(s.title, s.content)).join("\n\n");
  if (whole.length <= room) return whole;
  const overhead = sections.reduce((n, s) => n + s.title.length + 7, 0);
  const space = Math.max(0, room - overhead);
  const total = sections.reduce((n, s) => n + (SHARES[s.title] ?? 0.1), 0);
  const give = sections.map((s) =>
    Math.min(s.content.length, Math.floor((space * (SHARES[s.title] ?? 0.1)) / total))
  );
  let spare = space - give.reduce((a, b) => a + b, 0);
  sections.forEach((s, i) => {
    const extra = Math.min(spare, s.content.length - give[i]);
    if (extra > 0) {
      give[i] += extra;
      spare -= extra;
    }
  });
  return capLines(
    sections.map((s, i) => render(s.title, capLines(s.content, give[i]))).join("\n\n"),
    room,
  );
}

/** The card: the banner, then the sections fenced, within the card's limit and the budget. */
export function buildCard(
  material: Material,
  ago: string | undefined,
  recall: string | undefined,
  budget: Budget,
): string {
  const banner = cardBanner(material, ago, recall);
  const sections = material.sections.map((s) => ({ ...s, content: shortenRuns(s.content) }));
  const run = Math.max(...sections.map((s) => longestBacktickRun(s.content)), 0);
  const room = Math.min(CARD_LIMIT, budget.limit) - frameCost(banner, run);
  // The user's words within their fixed share, newest kept (they come first).
  for (const s of sections) {
    if (s.title === USER_WORDS) {
      s.content = capLines(s.content, Math.floor(room * USER_WORDS_SHARE));
    }
  }
  return withinBytes(room, budget, (room) => framed(banner, fitSections(sections, room)));
}
