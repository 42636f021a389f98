/**
 * The pre-check that lets a write path skip loading the rules: a text holding none of the
 * literals below cannot hold a secret, because every rule needs one of them. Each shaped rule is
 * gated by its literals (rules.ts `GATES`: one of them is in every match, and `redact` runs no
 * rule whose literals are all absent), and a secret-named assignment starts at a hit of its
 * trigger word (assignment.ts `TRIGGER`). So when {@link mayHoldSecret} is false, `redact`
 * returns the text unchanged with no counts, and loading it (~1.3 ms, plus ~1.2 ms to compile
 * its patterns on first use) buys nothing.
 *
 * Pure and import-free: it is what `park`, `drop`, `dump` and `evidence` load instead of the
 * rules. The lists are copies (importing rules.ts would load what this saves); the tests check
 * that every literal of `GATES` and every word of `TRIGGER` is covered here, and that every
 * generated true positive passes (tests/secrets/prefilter_test.ts).
 * @module
 */

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
];

/** The words a secret's name holds, any case: assignment.ts `TRIGGER`, word for word. */
const NAME_WORDS = /pass|pwd|secret|token|credential|auth|key/i;

/** False only when no redaction rule can match anywhere in `text` (see the module doc). */
export function mayHoldSecret(text: string): boolean {
  if (NAME_WORDS.test(text)) return true;
  for (const literal of SHAPED_LITERALS) if (text.includes(literal)) return true;
  return false;
}

/** The source of the name-word pattern, for the test that keeps it equal to `TRIGGER`'s. */
export const NAME_WORDS_SOURCE = NAME_WORDS.source;
