/**
 * Redaction of a whole text: every rule in turn (rules.ts, command_line.ts, then assignment.ts), each match
 * replaced by `[redacted:<kind>]` and counted; the same over every string of a JSON value; and
 * the one-line note a command prints about it.
 * Pure, synchronous, no imports beyond this folder: cheap enough for every write path and a hook.
 * @module
 */

import { MARK } from "./_values.ts";
import { mapStrings } from "./_walk.ts";
import { secretAssignment } from "./assignment.ts";
import { COMMAND_GATES, COMMAND_RULES } from "./command_line.ts";
import { GATES as SHAPED_GATES, type Rule, type SecretKind, SHAPED_RULES } from "./rules.ts";

/** How many secrets of each kind a redaction replaced (kinds with none are absent). */
export type RedactionCounts = Partial<Record<SecretKind, number>>;

/** A redacted text and what was taken out of it. */
export interface Redaction {
  text: string;
  counts: RedactionCounts;
}

/** Every rule in the order it runs: the specific shapes first, the generic names last. */
export const RULES: readonly Rule[] = [...SHAPED_RULES, ...COMMAND_RULES, secretAssignment];

/** Every rule's gate but the assignments' (rules.ts `GATES`, command_line.ts `COMMAND_GATES`). */
export const RULE_GATES: Readonly<Partial<Record<SecretKind, readonly string[]>>> = {
  ...SHAPED_GATES,
  ...COMMAND_GATES,
};

/** Every kind a redaction can report, in the order the rules run. */
export const SECRET_KINDS: readonly SecretKind[] = RULES.map((rule) => rule.kind);

/** The text that replaces a secret of `kind`. */
export function redactionMark(kind: SecretKind): string {
  return `${MARK}${kind}]`;
}

/**
 * Replaces every credential in `text` by `[redacted:<kind>]`. Idempotent: the marks match no
 * rule, so redacting again changes nothing and counts nothing.
 */
export function redact(text: string): Redaction {
  const counts: RedactionCounts = {};
  for (const rule of RULES) {
    const gate = RULE_GATES[rule.kind];
    if (gate !== undefined && !gate.some((literal) => text.includes(literal))) continue;
    const spans = rule.find(text);
    if (spans.length === 0) continue;
    const mark = redactionMark(rule.kind);
    let out = "";
    let at = 0;
    for (const [start, end] of spans) {
      if (start < at) continue; // never overlaps by construction; kept safe anyway
      out += text.slice(at, start) + mark;
      at = end;
      counts[rule.kind] = (counts[rule.kind] ?? 0) + 1;
    }
    text = out + text.slice(at);
  }
  return { text, counts };
}

/**
 * `value` with every string in it redacted (object keys kept), for a JSON record or output
 * (dropped.jsonl entries, `--json` answers): a copy, and the counts of all its strings.
 */
export function redactDeep<T>(value: T): { value: T; counts: RedactionCounts } {
  let counts: RedactionCounts = {};
  const copy = mapStrings(value, (text) => {
    const r = redact(text);
    counts = addCounts(counts, r.counts);
    return r.text;
  });
  return { value: copy, counts };
}

/** `a` plus `b`, for a command that redacts several texts and reports once. */
export function addCounts(a: RedactionCounts, b: RedactionCounts): RedactionCounts {
  const sum: RedactionCounts = { ...a };
  for (const [kind, n] of Object.entries(b) as [SecretKind, number][]) {
    sum[kind] = (sum[kind] ?? 0) + n;
  }
  return sum;
}

/** How many secrets `counts` holds in all. */
export function countTotal(counts: RedactionCounts): number {
  return Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);
}

/**
 * The line a command prints after redacting: "redacted 2 secrets: 1 aws-access-key,
 * 1 github-token" (kinds in name order); empty when nothing was redacted. Never a value.
 */
export function redactionNote(counts: RedactionCounts): string {
  const total = countTotal(counts);
  if (total === 0) return "";
  const kinds = (Object.entries(counts) as [SecretKind, number][])
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
    .map(([kind, n]) => `${n} ${kind}`);
  return `redacted ${total} secret${total === 1 ? "" : "s"}: ${kinds.join(", ")}`;
}
