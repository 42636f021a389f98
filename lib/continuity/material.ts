/**
 * What the continuity card after a compaction is made of ({@link Material}), gathered from the
 * store and the session's transcript, and its hidden file `.compact-<session id>.md`, which
 * PreCompact writes and SessionStart (`source: "compact"`) claims once.
 *
 * "The handover this session started from": the hook's restore leaves the slug it injected in
 * `.restored-<session id>` (lib/store/lifecycle.ts, the consume: LATEST, which names it on its first
 * line, renamed to the marker after the consume — no extra write on the inject path). A document this session dumped (`session: <id>` in its front matter) is newer and wins.
 * Reading the transcript for the restore's banner was not chosen: whether and how Claude Code
 * keeps a SessionStart hook's context in the transcript is not a documented contract.
 * @module
 */

import { writeFileAtomicSync } from "../fs/atomic.ts";
import { join } from "../fs/path.ts";
import { capLines, findSection, parseSections, type Section } from "../handover/document.ts";
import { RESTORED_PREFIX, restoredSlug } from "../store/latest.ts";
import { safeSessionId } from "../store/front_matter.ts";
import { readParked } from "../parked/file.ts";
import { redactLazily } from "../secrets/lazy.ts";
import { listSlugs, readHead } from "../store/catalog.ts";
import { splitFrontMatter } from "../store/front_matter.ts";
import { docPath, readDoc, type Store } from "../store/store.ts";
import { ageMs } from "../store/time.ts";
import { pruneSessionFiles } from "../store/sessions.ts";
import { readAnyTranscript } from "../transcript/read.ts";
import { isUnfinished, type TranscriptFacts } from "../transcript/facts.ts";
import { currentTask, stopState } from "../transcript/stop_state.ts";
import { nextFromState, whereItStopped } from "../handover/stopped.ts";

/** The handover's sections the card carries, in its order. */
export const HANDOVER_PARTS = ["Goal", "Standing instructions", "Decisions", "Next step"] as const;
/** The card's own sections, from the transcript and PARKED.md. */
export const TASKS = "Unfinished tasks";
export const PARKED = "Open parked items";
export const FILES = "Files touched in this session";
/** Where the session stood when it was compacted, from its transcript (lib/handover/stopped.ts). */
export const STOPPED = "Where it stood (from the transcript)";
/** The user's typed prompts, newest first, as they typed them. */
export const USER_WORDS = "The user's own words (as typed, newest first)";

/**
 * The user's typed prompts (the transcript's `recentRequests`, wrappers already dropped by
 * lib/transcript/prompt.ts `typedText`) as the card quotes them: newest first, one `>` quote
 * each (every line of it quoted), a blank line between.
 */
export function userWords(facts: TranscriptFacts | undefined): string {
  return [...(facts?.recentRequests ?? [])].reverse()
    .map((m) =>
      m.text.replace(/\r\n?/g, "\n").split("\n").map((l) => `> ${l}`.trimEnd()).join("\n")
    )
    .join("\n\n");
}

/** What the card says: the handover it draws on (if any) and its sections, in order. */
export interface Material {
  handover?: { slug: string; created?: string; branch?: string };
  sections: Section[];
}

/** A saved section is cut at this size: the card (≤ ~4,000 characters) never needs more. */
const SAVED_SECTION_MAX = 4_000;
/** Files named one per line before the rest are counted. */
const FILES_SHOWN = 30;

/** The hidden file PreCompact saves the material to, or undefined for an unusable session id. */
export function compactPath(store: Store, sessionId: string | undefined): string | undefined {
  return safeSessionId(sessionId) ? join(store.dir, `.compact-${sessionId}.md`) : undefined;
}

/**
 * The handover this session dumped last (`session: <id>`, not an automatic draft), else the one
 * the hook restored into it (`.restored-<id>`); undefined when neither exists.
 */
export function startingHandover(store: Store, sessionId: string | undefined): string | undefined {
  if (!safeSessionId(sessionId)) return undefined;
  let best: { slug: string; age: number } | undefined;
  for (const slug of listSlugs(store)) {
    const head = readHead(docPath(store, slug));
    if (head?.session !== sessionId || head.draft !== undefined) continue;
    const age = ageMs(head.created, new Date()) ?? Infinity;
    if (!best || age < best.age) best = { slug, age };
  }
  return best?.slug ?? restoredSlug(store, sessionId);
}

/** The session's facts from its transcript (Claude Code's or a Codex rollout); undefined when unreadable. */
export async function transcriptFacts(
  path: string | undefined,
  root: string,
): Promise<TranscriptFacts | undefined> {
  if (!path) return undefined;
  try {
    return await readAnyTranscript(path, { root });
  } catch {
    return undefined; // missing, or outside what this hook may read
  }
}

/**
 * Where the session stood, as the card says it: the last request and the state (the draft's
 * `## Where it stopped` lines), then the next step that follows.
 */
export function stoodLines(facts: TranscriptFacts): string {
  const s = stopState(facts);
  return [...whereItStopped(s), `- Next: ${nextFromState(s, currentTask(facts))}`].join("\n");
}

/**
 * The card's sections from the session's transcript, with the open parked items (`- slug —
 * summary` lines) in their place among them: where it stood, the user's own words, the unfinished
 * tasks, the parked items, the files touched. Empty ones are left out. Pure.
 */
export function transcriptSections(
  facts: TranscriptFacts | undefined,
  parked: readonly string[] = [],
): Section[] {
  const out: Section[] = [];
  const add = (title: string, content: string | undefined) => {
    if (content) out.push({ title, content });
  };
  add(STOPPED, facts === undefined ? undefined : stoodLines(facts));
  add(USER_WORDS, userWords(facts));
  add(
    TASKS,
    (facts?.tasks ?? []).filter(isUnfinished).map((t) => `- ${t.subject} (${t.status})`)
      .join("\n"),
  );
  add(PARKED, parked.join("\n"));
  const files = (facts?.files ?? []).map((f) => `- ${f.path}`);
  if (files.length > FILES_SHOWN) {
    files.splice(FILES_SHOWN, files.length, `- +${files.length - FILES_SHOWN} more`);
  }
  add(FILES, files.join("\n"));
  return out;
}

/** Gathers the card's material: the starting handover's parts, the transcript's, the parked items. */
export async function gatherMaterial(
  store: Store,
  sessionId: string | undefined,
  transcriptPath: string | undefined,
): Promise<Material> {
  const material: Material = { sections: [] };
  const slug = startingHandover(store, sessionId);
  const text = slug === undefined ? undefined : readDoc(store, slug);
  const split = text === undefined ? undefined : splitFrontMatter(text);
  if (slug !== undefined && split) {
    material.handover = { slug, created: split.fields.created, branch: split.fields.branch };
    const sections = parseSections(split.body);
    for (const title of HANDOVER_PARTS) {
      const content = findSection(sections, title)?.trim();
      if (content) material.sections.push({ title, content });
    }
  }
  const facts = await transcriptFacts(transcriptPath, store.root);
  let parked: string[] = [];
  try {
    parked = readParked(store).items.map((i) => `- ${i.slug} — ${i.summary}`);
  } catch { /* unreadable: no parked items on the card */ }
  material.sections.push(...transcriptSections(facts, parked));
  // Everything redacted here, so neither the saved file (PreCompact) nor the card (SessionStart)
  // holds a secret: the transcript's parts, and the handover's and parked items' too, which their
  // writers redacted unless they were written before redaction existed, pulled, or edited by hand.
  return await redactMaterial(material);
}

/**
 * `material` with everything the card prints of it redacted: each section's title and content,
 * the handover's slug and branch (lib/secrets/lazy.ts: nothing is loaded for clean text).
 */
export async function redactMaterial(material: Material): Promise<Material> {
  const text = async (s: string) => (await redactLazily(s)).text;
  const h = material.handover;
  const sections: Section[] = [];
  for (const s of material.sections) {
    sections.push({ title: await text(s.title), content: await text(s.content) });
  }
  if (!h) return { sections };
  return {
    handover: {
      slug: await text(h.slug),
      created: h.created,
      branch: h.branch === undefined ? undefined : await text(h.branch),
    },
    sections,
  };
}

/** Whether the card would say anything. */
export function isEmpty(material: Material): boolean {
  return material.handover === undefined && material.sections.length === 0;
}

/** The material as the hidden file holds it: our front matter, then `## ` sections. */
export function renderMaterial(material: Material, sessionId: string): string {
  const head = ["---"];
  const h = material.handover;
  if (h) {
    head.push(`slug: ${h.slug}`);
    if (h.created) head.push(`created: ${h.created}`);
    if (h.branch) head.push(`branch: ${h.branch}`);
  }
  head.push(`session: ${sessionId}`, "---", "");
  const body = material.sections.map((s) =>
    `## ${s.title}\n\n${capLines(s.content, SAVED_SECTION_MAX)}\n`
  );
  return head.join("\n") + body.join("\n");
}

/** Reads the hidden file's text back; undefined when it is not ours. */
export function parseMaterial(text: string): Material | undefined {
  const split = splitFrontMatter(text);
  if (!split) return undefined;
  const { slug, created, branch } = split.fields;
  const material: Material = {
    sections: parseSections(split.body).filter((s) => s.title && s.content.trim())
      .map((s) => ({ title: s.title, content: s.content.trim() })),
  };
  if (slug) material.handover = { slug, created, branch };
  return material;
}

/** Saves the material for this session's next SessionStart (atomic: a reader sees all or none). */
export function saveMaterial(store: Store, sessionId: string, material: Material): void {
  const path = compactPath(store, sessionId);
  if (path) writeFileAtomicSync(path, renderMaterial(material, sessionId));
}

/** Removes `.restored-*` and `.compact-*` markers of sessions long over. */
export function sweepMarkers(store: Store, now: Date): void {
  pruneSessionFiles(store, [RESTORED_PREFIX, ".compact-"], now);
}
