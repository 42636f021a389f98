/**
 * The `list --tree` view (used by `list` only): the chains `parent:` makes (lib/store/lineage.ts
 * `chainForest`), drawn as text — a child under its parent, chains and children newest first, a
 * parent the store does not hold shown as expired or never pulled — and as the `chains` of
 * `list --tree --json`.
 * @module
 */

import type { TreeNode } from "../store/lineage.ts";

/** What a tree row says of a stored handover. */
export interface TreeRow {
  slug: string;
  parent: string | null;
  age: string;
  branch: string | null;
  consumed: boolean | null;
  latest: boolean;
  stale: boolean;
}

/** One chain in `list --tree --json`: a handover (its details in `handovers`) or a missing one. */
export interface ChainJson {
  slug: string;
  /** Only for a parent the store does not hold: `expired` when this run removed it. */
  missing?: "expired" | "absent";
  /** A node whose `parent:` is one of its own descendants: that parent's slug. */
  cycle?: string;
  children: ChainJson[];
}

/** Levels indented at most: a deeper handover is drawn at this depth (a long chain stays narrow). */
const MAX_INDENT = 12;

/** The chains as JSON (iterative: a long chain cannot overflow the stack). */
export function chainsJson(forest: TreeNode<TreeRow>[], removed: Set<string>): ChainJson[] {
  const convert = (n: TreeNode<TreeRow>): ChainJson => {
    const out: ChainJson = { slug: n.slug, children: [] };
    if (n.entry === undefined) out.missing = removed.has(n.slug) ? "expired" : "absent";
    if (n.cycle !== undefined) out.cycle = n.cycle;
    return out;
  };
  const roots = forest.map(convert);
  const stack = forest.map((n, i) => ({ n, j: roots[i] }));
  while (stack.length) {
    const { n, j } = stack.pop()!;
    for (const c of n.children) {
      const child = convert(c);
      j.children.push(child);
      stack.push({ n: c, j: child });
    }
  }
  return roots;
}

/** One node's line after its tree prefix. */
function label(n: TreeNode<TreeRow>, removed: Set<string>, staleMark: string): string {
  const e = n.entry;
  if (e === undefined) {
    return removed.has(n.slug)
      ? `${n.slug} — expired (removed now)`
      : `${n.slug} — not in this store (expired, or never pulled)`;
  }
  const consumed = e.consumed === null ? "consumed ?" : e.consumed ? "consumed" : "not consumed";
  const cycle = n.cycle === undefined
    ? ""
    : ` (its parent "${n.cycle}" is below it: a cycle in hand-edited front matter)`;
  return `${e.stale ? `${staleMark} ` : ""}${e.slug}${e.latest ? " (LATEST)" : ""} — ${e.age}, ${
    e.branch ?? "?"
  }, ${consumed}${cycle}`;
}

/** The chains as text lines: `├─`/`└─` under each parent, {@link MAX_INDENT} levels at most. */
export function treeLines(
  forest: TreeNode<TreeRow>[],
  removed: Set<string>,
  staleMark: string,
): string[] {
  const out: string[] = [];
  for (const root of forest) {
    out.push(label(root, removed, staleMark));
    const stack = root.children.map((n, i, all) => ({ n, last: i === all.length - 1, pad: "" }))
      .reverse();
    while (stack.length) {
      const { n, last, pad } = stack.pop()!;
      out.push(`${pad}${last ? "└─" : "├─"} ${label(n, removed, staleMark)}`);
      const deeper = pad.length >= MAX_INDENT * 3 ? pad : pad + (last ? "   " : "│  ");
      for (let i = n.children.length - 1; i >= 0; i--) {
        stack.push({ n: n.children[i], last: i === n.children.length - 1, pad: deeper });
      }
    }
  }
  return out;
}
