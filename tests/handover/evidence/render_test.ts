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
  await t.step("200,000 changed files render (the column width is no spread)", () => {
    const files = Array.from({ length: 200_000 }, (_, i) => ({
      path: `src/f${i}.ts`,
      change: i === 7 ? "+1234/-5" : "+1/-1",
      state: "wip" as const,
      ref: "uncommitted",
      source: "git" as const,
    }));
    const text = renderEvidence({
      root: "/r",
      store: "/r/.claude/state/session",
      git: true,
      branch: "main",
      created: "2026-11-30T12:00:00Z",
      suggestedSlug: "main-2026-11-30T12-00-00Z",
      since: "2026-11-30T04:00:00Z",
      files,
      untracked: [],
      commits: [],
      artifacts: [],
      outstanding: [],
    });
    assert.match(text, /Files \(200000\):/);
    assert.match(text, /\+1234\/-5 +wip/);
  });
});
