/**
 * Secrets: credentials of well-known shapes found in any text and replaced by
 * `[redacted:<kind>]` before it reaches the store or a hook's output, with counts by kind so a
 * command can say what it took out, never the value (SPEC.md, "Secrets and portability").
 *
 * - redact.ts: `redact(text)` → `{ text, counts }`, `redactionNote(counts)`, counts arithmetic
 * - stream.ts: `LineRedactor`, the same redaction over text arriving in chunks (transcripts)
 * - rules.ts: the kinds, and the shaped rules (PEM blocks, JWTs, cloud, forge, chat, AI and
 *   payment keys, passwords in URLs, bearer tokens), in the order they run
 * - assignment.ts: secret-named assignments (`API_KEY=…`, `"password": "…"`, `token: …`)
 * - _values.ts: what a value must not be (placeholders, references, earlier redactions)
 *
 * Why hand-written rules and not secretlint's preset (measured 2026-12-01 on this project's
 * 2-core VM, Deno 2.9.6, @secretlint/core + @secretlint/secretlint-rule-preset-recommend 13.1.0):
 * loading the two packages in a fresh `deno run` costs 60–85 ms (dynamic import, warm npm
 * cache; a fresh machine downloads them first); a 100 KB transcript-like text costs ~22 ms on the
 * first `lintSource` call and 2.5–3.7 ms after. The hook's whole budget is ~2.5 ms over a ~17 ms
 * process floor (docs/PERFORMANCE.md) and `park`/`drop` may cost 1.5× the floor (~8 ms over), so
 * the preset fits no write path; the hook also runs with `--no-config` and no npm imports. This
 * folder loads in ~1 ms and redacts 100 KB in a few ms (its tests measure it). The preset also
 * misses kinds the issue lists (JWTs, GCP API keys, secret-named assignments, AWS key ids — off
 * by default —, OpenAI keys without the `T3BlbkFJ` marker, passwords in URLs of other schemes
 * or with symbols), reports its AWS secret key at the wrong offset (the match's start, not the
 * value's), and is async only. So the rules here follow its patterns where it has one (noted
 * per rule in rules.ts), and the tests run the preset over the same true positives as a
 * cross-check (tests/secrets/secretlint_test.ts): whatever it finds there, this module finds.
 *
 * Import the concept file, not this one: a barrel would load the whole folder.
 * @module
 */

export * from "./redact.ts";
export * from "./stream.ts";
export * from "./rules.ts";
export * from "./assignment.ts";
