/**
 * The story of a task in one read (`recall --chain`): the Goal, Decisions and Lessons of a
 * handover and its ancestors (lib/store/lineage.ts walks them), newest first, each item once —
 * a decision carried forward from handover to handover is printed where it was last written —
 * within a character budget: the newest handovers whole, then a one-line digest of each older one
 * while it fits, then how many more there are. Pure.
 * @module
 */

import type { ChainEnd, Link } from "../store/lineage.ts";
import { ageMs, formatAgo } from "../store/time.ts";
import { clip } from "../text/cut.ts";
import { oneLine } from "../store/slug.ts";
import { capLines, findSection, knownTitle, listItems, parseSections } from "./document.ts";

/** The sections a chain tells, in this order. */
export const CHAIN_PARTS = ["Goal", "Decisions", "Lessons / corrections"] as const;

/** What the story printed, for its Confidence points. */
export interface Story {
  text: string;
  /** Handovers printed with their sections. */
  whole: number;
  /** Older handovers printed as one digest line each. */
  digested: number;
  /** Older handovers not printed at all (named by count). */
  omitted: number;
  /** Items left out because a newer handover of the chain said the same. */
  repeats: number;
}

/** The items of a section: its list items, else its paragraphs. */
function items(content: string): string[] {
  const listed = listItems(content);
  if (listed.length) return listed;
  return content.split(/\n[ \t]*\n/).map((p) => p.trim()).filter(Boolean);
}

/** What makes two items the same: their words, whatever the bullet, spacing or case. */
function itemKey(item: string): string {
  return oneLine(item.replace(/^ ?(?:[-*+]|\d+[.)])[ \t]+/, "")).toLowerCase();
}

/** One handover's block with the items no newer one printed; `repeats` counts the others. */
function block(link: Link, seen: Set<string>, now: Date): { text: string; repeats: number } {
  const sections = parseSections(link.body);
  const parts: string[] = [];
  let repeats = 0;
  for (const title of CHAIN_PARTS) {
    // By the title a dump would give it: a hand-written `## Lessons` or `## Goals` counts too.
    const content = sections.filter((s) => knownTitle(s.title) === title).map((s) => s.content)
      .join("\n\n");
    if (!content.trim()) continue;
    const fresh = items(content).filter((item) => {
      const key = itemKey(item);
      if (seen.has(key)) {
        repeats++;
        return false;
      }
      seen.add(key);
      return true;
    });
    if (fresh.length) parts.push(`### ${title}\n\n${fresh.join("\n")}`);
  }
  const head = `## ${link.slug} — dumped ${formatAgo(ageMs(link.fields.created, now))}, branch ${
    link.fields.branch || "none"
  }`;
  const body = parts.length ? parts.join("\n\n") : "(nothing the newer handovers do not say)";
  return { text: `${head}\n\n${body}`, repeats };
}

/** One line for a handover over the budget: its goal's first line, and how to read it whole. */
function digestLine(link: Link, now: Date): string {
  const goal = findSection(parseSections(link.body), "Goal")?.split("\n").find((l) => l.trim());
  const what = goal ? `: ${clip(oneLine(goal), 160)}` : "";
  return `- ${link.slug} (${formatAgo(ageMs(link.fields.created, now))})${what} — ` +
    `\`session.ts recall ${link.slug}\``;
}

/** How the chain ends, in one line. */
export function endLine(end: ChainEnd): string {
  if (end.kind === "root") return "The chain starts at the oldest handover above.";
  if (end.kind === "missing") {
    return `Its parent "${end.parent}" is not in this store (expired, or never pulled).`;
  }
  return `Its parent "${end.parent}" is already above: a cycle in hand-edited front matter; ` +
    "the walk stopped there.";
}

/** The longest line that counts the handovers not printed. */
const REST_LINE = 150;

/**
 * The chain's story within `limit` characters: a heading, each handover's block newest first
 * while it fits (the newest one cut to fit when it alone is over), then digest lines for the
 * older ones while they fit, then the count of the rest, then how the chain ends.
 */
export function chainStory(
  links: Link[],
  end: ChainEnd,
  now: Date,
  limit: number,
): Story {
  const heading = `[session] The chain of "${links[0].slug}": ${links.length} handover${
    links.length === 1 ? "" : "s"
  }, newest first (Goal, Decisions, Lessons; each item once, where it was last written)`;
  const closing = endLine(end);
  const title = `## Older handovers, one line each (over the ${
    limit.toLocaleString("en-US")
  }-character budget)`;
  // What an older handover that does not fit still needs: the title and the line counting them.
  const rest = title.length + 4 + REST_LINE + 1;
  const out = [heading];
  let used = heading.length + closing.length + 2;
  const seen = new Set<string>();
  const story: Story = { text: "", whole: 0, digested: 0, omitted: 0, repeats: 0 };
  let i = 0;
  for (; i < links.length; i++) {
    const b = block(links[i], seen, now);
    const room = limit - used - 2 - (i + 1 < links.length ? rest : 0);
    if (b.text.length > room) {
      if (i > 0) break;
      b.text = capLines(b.text, Math.max(0, room)); // the newest alone is over: cut, never lost
    }
    out.push(b.text);
    used += b.text.length + 2;
    story.whole++;
    story.repeats += b.repeats;
  }
  if (i < links.length) {
    const lines: string[] = [];
    let size = used + title.length + 4;
    for (; i < links.length; i++) {
      const line = digestLine(links[i], now);
      if (size + line.length + 1 + (i + 1 < links.length ? REST_LINE + 1 : 0) > limit) break;
      lines.push(line);
      size += line.length + 1;
      story.digested++;
    }
    story.omitted = links.length - i;
    if (story.omitted) {
      lines.push(clip(
        `- … and ${story.omitted} older: ${links.slice(i).map((l) => l.slug).join(", ")}`,
        REST_LINE,
      ));
    }
    out.push(`${title}\n\n${lines.join("\n")}`);
  }
  out.push(closing);
  story.text = out.join("\n\n");
  return story;
}
