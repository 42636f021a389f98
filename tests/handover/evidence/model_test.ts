import assert from "node:assert/strict";

Deno.test("evidence: the tool's own state is never session work", async (t) => {
  await t.step("store and sweep output paths, also below a subdirectory", async () => {
    const { isOwnState } = await import("../../../lib/handover/evidence/model.ts");
    for (
      const p of [".claude/state/session/a.md", "pkg/.claude/state/x", ".temp/session/unlanded.md"]
    ) {
      assert.ok(isOwnState(p), p);
    }
    for (
      const p of [".claude/settings.json", "src/state/x.ts", ".temp/other.md", "my.claude/state/x"]
    ) {
      assert.ok(!isOwnState(p), p);
    }
  });
});
