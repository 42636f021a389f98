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
