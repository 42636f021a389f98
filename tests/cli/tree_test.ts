/**
 * The `list --tree` drawing (lib/cli/tree.ts) at its depth limit: a chain deeper than 12 levels
 * is drawn at the twelfth, each handover still on its own row. The whole command is in
 * tests/cli/chain_test.ts.
 */
import assert from "node:assert/strict";
import { treeLines, type TreeRow } from "../../lib/cli/tree.ts";
import type { TreeNode } from "../../lib/store/lineage.ts";

/** A single chain of `n` handovers, `h0` the oldest at the top. */
function chain(n: number): TreeNode<TreeRow>[] {
  const node = (i: number): TreeNode<TreeRow> => ({
    slug: `h${i}`,
    entry: {
      slug: `h${i}`,
      parent: i ? `h${i - 1}` : null,
      age: "1 h",
      branch: "main",
      consumed: false,
      latest: false,
      stale: false,
    },
    children: i + 1 < n ? [node(i + 1)] : [],
  });
  return [node(0)];
}

Deno.test("list --tree: deeper than 12 levels, a chain is drawn at the twelfth", () => {
  const lines = treeLines(chain(16), new Set(), "⚠ stale");
  assert.equal(lines.length, 16, "every handover on its row");
  assert.equal(lines[0], "h0 — 1 h, main, not consumed");
  // Level k (the root is 0) starts its `└─` after 3 × (k − 1) spaces: at most 12 indents.
  const column = (line: string) => line.indexOf("└─");
  for (let level = 1; level < 16; level++) {
    const want = 3 * Math.min(level - 1, 12);
    assert.equal(column(lines[level]), want, `level ${level}: ${JSON.stringify(lines[level])}`);
    assert.ok(lines[level].endsWith(`└─ h${level} — 1 h, main, not consumed`), lines[level]);
  }
});
