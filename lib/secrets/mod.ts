/**
 * Secrets: credentials of well-known shapes found in any text and replaced by
 * `[redacted:<kind>]` before it reaches the store or a hook's output, with counts by kind so a
 * command can say what it took out, never the value (docs/STORE.md, "Secrets").
 *
 * - redact.ts: `redact(text)` → `{ text, counts }`, `redactDeep(json)`, `redactionNote(counts)`,
 *   counts arithmetic
 * - stream.ts: `LineRedactor`, the same redaction over text arriving in chunks (transcripts)
 * - rules.ts: the kinds, and the shaped rules (PEM blocks, JWTs, cloud, forge, chat, AI and
 *   payment keys, passwords in URLs, bearer tokens), in the order they run
 * - command_line.ts: passwords on command lines (`curl -u`, `mysql -p`, `sshpass -p`, a
 *   registry's `login -p`), `Authorization: Basic`, cookie values
 * - assignment.ts: secret-named assignments (`API_KEY=…`, `"password": "…"`, `token: …`,
 *   `--password PW`)
 * - _values.ts: what a value must not be (placeholders, references, earlier redactions)
 * - lazy.ts: redact.ts loaded on demand, and only for a text that may hold a secret
 *   (`mayHoldSecret`: the literals one of which every rule's match holds), for the fast write
 *   paths (park, drop, dump, evidence) and the CLI's output funnel (`redactedOutput`)
 * - _walk.ts: a JSON value's strings walked: `redactDeep`'s copy, the lazy path's check
 *
 * Why hand-written rules and not secretlint's preset: its load alone is over a hook's and a quick
 * mode's budget (figures: docs/PERFORMANCE.md#redaction), and the hook runs with `--no-config` and
 * no npm imports. It is also async only, and it misses kinds redacted here: JWTs, GCP API keys,
 * secret-named assignments, bearer tokens, AWS key ids (off by default), OpenAI keys without the
 * `T3BlbkFJ` marker, passwords in URLs of other schemes or with symbols; and it reports its AWS secret key at the match's start, not the value's. So the
 * rules here follow its patterns where it has one (noted per rule in rules.ts), and the tests
 * run the preset over the same generated true positives as a cross-check
 * (tests/secrets/secretlint_test.ts): whatever it finds there, this module redacts.
 *
 * Known limits (each a trade against false positives, see the tests and docs/STORE.md): an
 * unquoted letters-only value or an expression is taken for code (`password: correcthorse`,
 * `token = jwt.encode(payload, key)` stay); values under 8 characters stay; quoted values of words
 * without a digit, or of four words or more, stay (prose); a password holding a backslash, `/` or
 * `?` in a URL is not found there. The false-positive rate on third-party code is measured in
 * tests/secrets/measure_test.ts.
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder); import the
 * concept file.
 * @module
 */
