import assert from "node:assert/strict";
import { chainForest, type TreeNode, walkChain } from "../../lib/store/lineage.ts";

/** A stored document naming `parent`. */
function doc(slug: string, parent?: string): string {
  return `---\nslug: ${slug}\ncreated: 2026-11-30T10:00:00Z\nconsumed: false\nbranch: main\n${
    parent === undefined ? "" : `parent: ${parent}\n`
  }---\n\n## Goal\n\nGoal of ${slug}.\n`;
}

/** The forest as `slug(child child …)` text, to compare shapes at a glance. */
function shape<E>(forest: TreeNode<E>[]): string {
  const one = (n: TreeNode<E>): string =>
    `${n.entry === undefined ? "?" : ""}${n.slug}${n.cycle ? "!" : ""}${
      n.children.length ? `(${n.children.map(one).join(" ")})` : ""
    }`;
  return forest.map(one).join(" ");
}

Deno.test("walkChain", async (t) => {
  await t.step("newest first, back to the first handover", () => {
    const store: Record<string, string> = { a: doc("a"), b: doc("b", "a"), c: doc("c", "b") };
    const chain = walkChain("c", store.c, (s) => store[s]);
    assert.deepEqual(chain.links.map((l) => l.slug), ["c", "b", "a"]);
    assert.deepEqual(chain.end, { kind: "root" });
  });
  await t.step("a parent the store does not hold ends the walk, named", () => {
    const store: Record<string, string> = { b: doc("b", "gone"), c: doc("c", "b") };
    const chain = walkChain("c", store.c, (s) => store[s]);
    assert.deepEqual(chain.links.map((l) => l.slug), ["c", "b"]);
    assert.deepEqual(chain.end, { kind: "missing", parent: "gone" });
  });
  await t.step("a cycle in hand-edited front matter ends, each handover once", () => {
    const store: Record<string, string> = {
      a: doc("a", "c"),
      b: doc("b", "a"),
      c: doc("c", "b"),
    };
    let reads = 0;
    const chain = walkChain("c", store.c, (s) => {
      if (++reads > 10) assert.fail("walked in circles");
      return store[s];
    });
    assert.deepEqual(chain.links.map((l) => l.slug), ["c", "b", "a"]);
    assert.deepEqual(chain.end, { kind: "cycle", parent: "c" });
    assert.equal(reads, 2);
    const self = walkChain("s", doc("s", "s"), () => assert.fail("no read for a self parent"));
    assert.deepEqual(self.end, { kind: "cycle", parent: "s" });
  });
  await t.step("a parent no document could have is no parent", () => {
    const chain = walkChain("c", doc("c", "../../etc/passwd"), () => assert.fail("never read"));
    assert.deepEqual(chain.end, { kind: "root" });
  });
});

Deno.test("chainForest", async (t) => {
  await t.step("children under their parent, chains and children newest first", () => {
    // Newest first, as the catalog lists them.
    const entries = [
      { slug: "c2", parent: "b" },
      { slug: "x" },
      { slug: "c1", parent: "b" },
      { slug: "b", parent: "a" },
      { slug: "a" },
    ];
    assert.equal(shape(chainForest(entries)), "a(b(c2 c1)) x");
  });
  await t.step("a parent not in the store is a node without an entry, children under it", () => {
    const entries = [
      { slug: "d", parent: "gone" },
      { slug: "e", parent: "gone" },
      { slug: "f", parent: null },
    ];
    assert.equal(shape(chainForest(entries)), "?gone(d e) f");
  });
  await t.step("a cycle places every handover once and marks where it was cut", () => {
    const entries = [
      { slug: "a", parent: "c" },
      { slug: "b", parent: "a" },
      { slug: "c", parent: "b" },
      { slug: "self", parent: "self" },
    ];
    const forest = chainForest(entries);
    assert.equal(shape(forest), "b!(c(a)) self");
    assert.equal(forest[0].cycle, "a");
  });
  await t.step("a chain of 20,000 handovers: no recursion, linear", () => {
    const n = 20_000;
    const entries = Array.from({ length: n }, (_, i) => ({
      slug: `h${n - 1 - i}`,
      parent: i === n - 1 ? undefined : `h${n - 2 - i}`,
    }));
    const started = performance.now();
    const forest = chainForest(entries);
    assert.equal(forest.length, 1);
    let depth = 0;
    for (let node = forest[0]; node.children.length; node = node.children[0]) depth++;
    assert.equal(depth, n - 1);
    assert.ok(performance.now() - started < 2_000);
  });
});
