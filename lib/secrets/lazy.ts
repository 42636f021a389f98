/**
 * Redaction for the write paths that must stay fast (`park`, `drop`, `dump`, `evidence`, the
 * sweep `park` offers, and every mode's output: {@link redactedOutput}): redact.ts (its load and its
 * patterns' first compile: docs/PERFORMANCE.md#redaction) is loaded only when a text may hold a secret; a text that cannot comes back as it was,
 * with no counts, exactly what `redact` would return for it. A computed specifier, so the module
 * graph built at start-up does not include redact.ts.
 *
 * The pre-check ({@link mayHoldSecret}): a text holding none of the literals below cannot hold a
 * secret, because every rule needs one of them. Each shaped rule is gated by its literals
 * (redact.ts `RULE_GATES`: one of them is in every match, and `redact` runs no rule whose literals are
 * all absent), and a secret-named assignment starts at a hit of its trigger word (assignment.ts
 * `TRIGGER`). The lists are copies (importing rules.ts would load what this saves); the tests
 * check that every literal of `RULE_GATES` and every word of `TRIGGER` is covered here, and that every
 * generated true positive passes (tests/secrets/lazy_test.ts).
 * @module
 */

import { someString } from "./_walk.ts";
import type { Redaction, RedactionCounts } from "./redact.ts";

/**
 * Case-sensitive literals, one of which every shaped rule's match holds (a literal here may be a
 * part of the gate's, e.g. `sk-` covers `sk-ant-`).
 */
export const SHAPED_LITERALS: readonly string[] = [
  "-----BEGIN ",
  ".ey",
  "ghp_",
  "gho_",
  "ghu_",
  "ghs_",
  "ghr_",
  "github_pat_",
  "glpat-",
  "gldt-",
  "glrt-",
  "glptt-",
  "glcbt-",
  "glsoat-",
  "glft-",
  "npm_",
  "hooks.slack.com/",
  "xoxa-",
  "xoxb-",
  "xoxp-",
  "xoxo-",
  "xoxs-",
  "xoxr-",
  "xapp-",
  "sk-",
  "sk_live_",
  "sk_test_",
  "rk_live_",
  "rk_test_",
  "whsec_",
  "AIza",
  "AKIA",
  "ASIA",
  "ABIA",
  "ACCA",
  "A3T",
  "[redacted:aws-access-key]",
  "ccess",
  "CCESS",
  "://",
  "earer",
  "curl",
  "wget",
  "mysql",
  "mariadb",
  "sshpass",
  "login",
  "ookie",
];

/** The words a secret's name holds, any case: assignment.ts `TRIGGER`, word for word. */
export const NAME_WORDS_SOURCE = "pass|pwd|secret|token|credential|auth|key";

/**
 * Every literal and word in one pattern, tried once per text: `evidence` checks thousands of
 * short strings (paths, subjects), and one native match each costs far less than forty
 * `includes` in cold code. Case-insensitive throughout, so the literals match a little more than
 * the rules need (`SK-`, `akia`): that only loads the rules for a few more texts, and can never
 * let one through unredacted.
 */
const ANY = new RegExp(
  `${NAME_WORDS_SOURCE}|${
    SHAPED_LITERALS.map((l) => l.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")).join("|")
  }`,
  "i",
);

/** False only when no redaction rule can match anywhere in `text` (see the module doc). */
export function mayHoldSecret(text: string): boolean {
  return ANY.test(text);
}

/** The redaction module, loaded on first use. */
export function loadRedaction(): Promise<typeof import("./redact.ts")> {
  return import(import.meta.resolve("./redact.ts"));
}

/** `redact(text)`, loading the rules only when `text` may hold a secret. */
export async function redactLazily(text: string): Promise<Redaction> {
  if (!mayHoldSecret(text)) return { text, counts: {} };
  return (await loadRedaction()).redact(text);
}

/**
 * `redactDeep(value)`, loading the rules only when a string may hold a secret; when none may,
 * `value` itself (nothing in it would change, so no copy is made).
 */
export async function redactDeepLazily<T>(
  value: T,
): Promise<{ value: T; counts: RedactionCounts }> {
  if (!someString(value, mayHoldSecret)) return { value, counts: {} };
  return (await loadRedaction()).redactDeep(value);
}

/**
 * `redactionNote` of the sum of `counts`: "" without loading anything when nothing was redacted
 * (then no redaction ran, and redact.ts may never have been loaded).
 */
export async function redactionNoteLazily(...counts: RedactionCounts[]): Promise<string> {
  if (!counts.some((c) => Object.values(c).some((n) => (n ?? 0) > 0))) return "";
  const { addCounts, redactionNote } = await loadRedaction();
  return redactionNote(counts.reduce(addCounts, {}));
}

/** Where a text is written: a mode's stdout or stderr (lib/cli/run_context.ts `Context`). */
type Write = (text: string) => void;

/**
 * Output redacted on its way out, the CLI's one funnel (lib/cli/main.ts): `out` and `err` queue
 * their texts in order, `flush` writes them. Each run of texts to one stream is redacted as one
 * text (so a PEM block printed line by line is still one block), the rules loaded only when a
 * text may hold a secret; then what was taken out is said on `err` ({@link redactionNoteLazily}).
 * Whatever a mode prints — a hand-edited handover, a parked bullet, a branch, an error — passes
 * here.
 */
export function redactedOutput(
  out: Write,
  err: Write,
): { out: Write; err: Write; flush(): Promise<void> } {
  const queue: { toOut: boolean; texts: string[] }[] = [];
  const push = (toOut: boolean) => (text: string) => {
    const last = queue.at(-1);
    if (last?.toOut === toOut) last.texts.push(text);
    else queue.push({ toOut, texts: [text] });
  };
  return {
    out: push(true),
    err: push(false),
    async flush() {
      const runs = queue.splice(0).map((r) => ({ toOut: r.toOut, text: r.texts.join("\n") }));
      let counts: RedactionCounts = {};
      if (runs.some((r) => mayHoldSecret(r.text))) {
        const { addCounts, redact } = await loadRedaction();
        for (const run of runs) {
          const r = redact(run.text);
          run.text = r.text;
          counts = addCounts(counts, r.counts);
        }
      }
      for (const run of runs) (run.toOut ? out : err)(run.text);
      const note = await redactionNoteLazily(counts);
      if (note) err(note);
    },
  };
}
