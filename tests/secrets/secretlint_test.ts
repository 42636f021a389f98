/**
 * secretlint's recommended preset as a cross-check (a test dependency only; why it is not the
 * runtime: lib/secrets/mod.ts): over the generated true positives of every kind, whatever the
 * preset reports, this module redacts; and on the false-positive controls' shapes it agrees.
 * Bumping the pinned preset in deno.json re-runs this against its newer patterns.
 * @module
 */
import assert from "node:assert/strict";
import { lintSource } from "@secretlint/core";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import { redact } from "../../lib/secrets/redact.ts";
import { prng } from "../support/prng.ts";
import { KINDS, Secrets } from "./_secrets.ts";

/** The ranges of `text` the preset reports. */
async function secretlintRanges(text: string): Promise<[number, number, string][]> {
  const result = await lintSource({
    source: { content: text, filePath: "/handover.md", ext: ".md", contentType: "text" },
    options: { config: { rules: [{ id: recommended.meta.id, rule: recommended }] } },
  });
  return result.messages.map((m) => [m.range[0], m.range[1], m.ruleId]);
}

Deno.test("secretlint cross-check: every secret the preset finds in the corpus is redacted", async () => {
  const gen = new Secrets(prng(2026));
  let found = 0;
  for (const kind of KINDS) {
    for (let i = 0; i < 10; i++) {
      const sample = gen.sample(kind);
      const text = `Set up the job with\n${sample.text}\nand moved on.`;
      const redacted = redact(text).text;
      for (const [start, end, rule] of await secretlintRanges(text)) {
        found++;
        // secretlint-rule-aws reports its secret key at the match's start with the value's
        // length; the value itself is what must be gone.
        const reported = rule.endsWith("-aws") && kind === "aws-secret-key"
          ? sample.secret
          : text.slice(start, end);
        assert.ok(!redacted.includes(reported), `${rule} found ${reported}, kept in ${redacted}`);
      }
    }
  }
  // The preset covers most kinds; if a bump made it find nothing, this test would prove nothing.
  assert.ok(found >= 80, `secretlint found only ${found}`);
});

Deno.test("secretlint cross-check: kinds the preset misses and this module covers", async () => {
  const gen = new Secrets(prng(7));
  const missed: string[] = [];
  for (const kind of KINDS) {
    const sample = gen.sample(kind);
    if ((await secretlintRanges(sample.text)).length === 0) missed.push(kind);
    assert.deepEqual(redact(sample.text).counts, { [kind]: 1 });
  }
  // A record, not a requirement: what this module adds over the preset (see mod.ts).
  assert.ok(missed.includes("jwt") && missed.includes("secret-assignment"), missed.join(", "));
});
