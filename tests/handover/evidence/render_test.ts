import assert from "node:assert/strict";
import { renderEvidence } from "../../../lib/handover/evidence/render.ts";

Deno.test("evidence: pure parts", async (t) => {
  await t.step("the text report names every part", () => {
    const text = renderEvidence({
      root: "/r",
      store: "/r/.claude/state/session",
      git: false,
      branch: "none",
      created: "2026-11-30T12:00:00Z",
      suggestedSlug: "detached-2026-11-30T12-00-00Z",
      since: "2026-11-30T04:00:00Z",
      files: [],
      untracked: [],
      commits: [],
      artifacts: [],
      outstanding: [],
    });
    assert.match(text, /Branch: +none \(not a git repository\)/);
    assert.match(text, /Suggested slug: +detached-2026-11-30T12-00-00Z/);
    assert.match(text, /Files: none changed \(outside git\)/);
  });
});
