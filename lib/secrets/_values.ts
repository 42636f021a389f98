/**
 * Internal: what a candidate value must not be for it to count as a secret. Shared by the shaped
 * rules (rules.ts) and the secret-named assignments (assignment.ts) so both leave the same things
 * alone: placeholders (`your-token-here`, `xxxxxxxx`, `<redacted>`, `********`), references to a
 * secret kept elsewhere (`$API_KEY`, `${{ secrets.X }}`, `%TOKEN%`, `{{ token }}`), and this
 * module's own output (`[redacted:kind]`), which keeps redaction idempotent.
 * @module
 */

/** The text every redaction leaves: `[redacted:<kind>]`. */
export const MARK = "[redacted:";

/** Words that, as a whole segment of a value, mark it as an example rather than a credential. */
const PLACEHOLDER_WORDS = new Set([
  "your",
  "yours",
  "example",
  "examples",
  "sample",
  "placeholder",
  "changeme",
  "redacted",
  "dummy",
  "fake",
  "todo",
  "tbd",
  "replace",
  "insert",
  "here",
]);

/** Whole values that are words of the surrounding code or prose, never a credential. */
const NOT_VALUES = new Set([
  "password",
  "passwd",
  "pass",
  "pwd",
  "secret",
  "token",
  "none",
  "null",
  "nil",
  "undefined",
  "true",
  "false",
  "yes",
  "no",
  "string",
  "required",
  "optional",
  "hidden",
  "masked",
  "redacted",
]);

/**
 * A whole value that names a secret kept elsewhere: `$NAME`, `${…}`, `$(…)`, `%NAME%`,
 * `<placeholder>`, `[placeholder]`, `{{ var }}`, `{var}`. A value that merely begins with one of
 * these sigils (`$uperS3cret`, `*Tr0ub…`) is a value.
 */
const WHOLE_REFERENCE =
  /^(?:\$[A-Za-z_][A-Za-z0-9_]*|\$\{.*|\$\(.*|%[A-Za-z_][A-Za-z0-9_]*%|<[^<>]*>|\[[^\[\]]*\]|\{\{.*|\{[A-Za-z_][A-Za-z0-9_.]*\})$/s;

/**
 * True when `value` names a secret kept elsewhere or stands in for one: an environment or template
 * reference (the whole value, or `${…}` / `{{ … }}` inside it), a masked or elided value
 * (`•••`, `…`), or an earlier redaction.
 */
export function isReference(value: string): boolean {
  if (value.includes(MARK) || value.includes("${") || value.includes("{{")) return true;
  if (WHOLE_REFERENCE.test(value)) return true;
  if (value[0] === "\u2022" || value.includes("\u2026") || value.includes("...")) return true;
  return /(?:process\.env|os\.environ|getenv|Deno\.env|secrets\.)/.test(value);
}

/**
 * True when `value` is an example or a stand-in: a placeholder word as one of its segments, a
 * run of five `x` (a random key has one in ~10⁸ positions), or too few distinct characters to be
 * random (`xxxx-xxxx`, `********`).
 */
export function isPlaceholder(value: string): boolean {
  const lower = value.toLowerCase();
  if (NOT_VALUES.has(lower)) return true;
  if (lower.includes("example")) return true;
  if (lower.includes("xxxxx")) return true;
  for (const segment of lower.split(/[^a-z0-9]+/)) {
    if (PLACEHOLDER_WORDS.has(segment)) return true;
  }
  return new Set(value).size < Math.min(6, Math.ceil(value.length / 3));
}

/** Upper case, lower case, digits: how many of the three `value` mixes. */
export function characterClasses(value: string): number {
  return (/[A-Z]/.test(value) ? 1 : 0) + (/[a-z]/.test(value) ? 1 : 0) +
    (/[0-9]/.test(value) ? 1 : 0);
}
