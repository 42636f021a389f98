/**
 * The SessionStart restore: decide whether to inject, build the context, claim the pointer
 * exactly once and mark the document consumed. Sync and light: it runs on every `/clear`.
 * @module
 */

import { writeFileAtomicSync } from "./atomic.ts";
import { cliCommand } from "./command.ts";
import { markConsumed, splitFrontMatter } from "./front_matter.ts";
import { buildDigest, capLines } from "./handover.ts";
import {
  docPath,
  findRoot,
  isSafeSlug,
  readDoc,
  readLatest,
  storeAt,
  takeLatest,
} from "./store.ts";
import { ageMs, formatAge } from "./time.ts";
import { type Budget, gate, type Payload, type RestoreOptions } from "./hook_input.ts";

// The hook's input (payload, flags, budgets) lives in hook_input.ts so the hook can decide the
// common no-pointer case without loading this module; re-exported for existing callers.
export {
  type Budget,
  BUDGETS,
  DEFAULT_OPTIONS,
  gate,
  parseHookArgs,
  parsePayload,
  type Payload,
  type RestoreOptions,
} from "./hook_input.ts";

/** A future `created` within this skew (clock differences) still counts as fresh. */
const FUTURE_SKEW_MS = 60_000;

/** Why the hook stayed silent, or that it injected: for stderr diagnostics and tests. */
export type Outcome =
  | { injected: true; slug: string; context: string }
  | { injected: false; reason: string };

/** The context the agent receives: a one-line banner, then the body or its digest. */
export function buildContext(
  doc: { slug: string; created?: string; branch?: string; body: string },
  now: Date,
  budget: Budget,
): string {
  const recall = cliCommand("recall", doc.slug);
  const age = formatAge(ageMs(doc.created, now));
  const when = age === "just now" ? "just now" : `${age} ago`;
  const banner = `[session] Handover "${doc.slug}" restored (dumped ${when}, branch ${
    doc.branch || "none"
  }). Full document: \`${recall}\``;
  const body = doc.body.replace(/\r\n?/g, "\n").trim();
  const room = budget.limit - banner.length - 2;
  const text = body.length > budget.digestOver ? buildDigest(body, recall, room) : body;
  return `${banner}\n\n${capLines(text, room)}`;
}

/**
 * Runs the restore for one payload against the store of its project: every gate, then the
 * atomic claim of LATEST (so two hooks firing together inject once), then the byte-exact flip of
 * `consumed`. Never throws for bad data; IO errors surface as a silent outcome.
 */
export function restore(
  payload: Payload,
  options: RestoreOptions,
  env: { projectDir?: string },
  now: Date,
): Outcome {
  const closed = gate(payload, options);
  if (closed) return { injected: false, reason: closed };
  const store = storeAt(findRoot({ projectDir: env.projectDir, cwd: payload.cwd }));
  const slug = readLatest(store);
  if (slug === undefined) return { injected: false, reason: "no LATEST pointer" };
  if (!isSafeSlug(slug)) return { injected: false, reason: "LATEST names an unsafe slug" };
  const text = readDoc(store, slug);
  if (text === undefined || text.includes("\0")) {
    return { injected: false, reason: `document "${slug}" is missing or unreadable` };
  }
  const split = splitFrontMatter(text);
  if (!split) return { injected: false, reason: `document "${slug}" has no front matter` };
  if (split.fields.consumed !== "false") {
    return { injected: false, reason: `document "${slug}" is already consumed` };
  }
  const age = ageMs(split.fields.created, now);
  if (age === undefined || age > options.windowMs || age < -FUTURE_SKEW_MS) {
    return { injected: false, reason: `document "${slug}" is outside the restore window` };
  }
  if (takeLatest(store, slug) !== slug) {
    return { injected: false, reason: "another hook claimed the pointer" };
  }
  const consumed = markConsumed(text);
  if (consumed !== undefined) writeFileAtomicSync(docPath(store, slug), consumed);
  const context = buildContext(
    { slug, created: split.fields.created, branch: split.fields.branch, body: split.body },
    now,
    options.budget,
  );
  return { injected: true, slug, context };
}

/** The one JSON object the hook prints (the form Claude Code, Codex CLI and Gemini CLI read). */
export function hookOutput(context: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context },
  });
}
