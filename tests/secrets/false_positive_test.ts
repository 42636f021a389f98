import assert from "node:assert/strict";
import { redact } from "../../lib/secrets/redact.ts";
import { CONTROLS } from "./_controls.ts";

for (const [group, texts] of Object.entries(CONTROLS)) {
  Deno.test(`false positives stay as they are: ${group}`, () => {
    for (const text of texts) {
      const r = redact(text);
      assert.equal(r.text, text, `changed: ${text}`);
      assert.deepEqual(r.counts, {}, text);
    }
  });
}

Deno.test("false positives: the controls number at least 30", () => {
  assert.ok(Object.values(CONTROLS).flat().length >= 30);
});

Deno.test("false positives: a whole handover with none of them redacts nothing", () => {
  const body = Object.values(CONTROLS).flat().join("\n");
  assert.equal(redact(body).text, body);
  const line = JSON.stringify({ type: "assistant", message: { content: body } });
  assert.equal(redact(line).text, line);
});
