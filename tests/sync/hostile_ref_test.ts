import assert from "node:assert/strict";
import { git } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";
import { plantRef, type RefFile, STORE, world } from "./_world.ts";

const DOC = (slug: string) =>
  `---\nslug: ${slug}\ncreated: 2026-11-30T10:00:00Z\nconsumed: false\nbranch: main\n---\n\n` +
  `## Goal\nThe ${slug} handover.\n`;
const PARKED = "# Parked items\n\n- **keep-me** — Keep me. Raised: 2026-11-30.\n";

/** Every file under the store, name → bytes (hidden ones and caches included). */
function storeFiles(cwd: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(`${cwd}/${STORE}${rel}`)) {
      const name = `${rel}/${e.name}`;
      if (e.isDirectory) walk(name);
      else out.set(name, Array.from(Deno.readFileSync(`${cwd}/${STORE}${name}`)).join(","));
    }
  };
  walk("");
  return out;
}

Deno.test("pull of a ref holding reserved and hidden names writes none of them", async (t) => {
  const w = await world(1);
  const [a] = w.clones;
  try {
    await runCliInProcess(["park", "Local item"], { cwd: a });
    // Every name below is one the store keeps for itself, hides, or cannot hold as a document.
    const hostile = [
      "LATEST",
      "LATEST.md",
      "PARKED.md",
      "parked.md", // PARKED.md itself on a case-insensitive file system
      "Latest.md",
      "dropped.md",
      "DROPPED.md",
      "dropped.jsonl",
      ".compact-s1.md",
      ".compact-s1",
      ".restored-s1",
      ".restored-s1.md",
      ".docs.lock.md",
      ".cache",
      "...md",
      "..",
      ".",
      "a..b.md",
      "back\\slash.md",
      "new\nline.md",
    ];
    const files: RefFile[] = [
      { path: "PARKED.md", bytes: PARKED },
      { path: "dropped.jsonl", bytes: "" },
      { path: "handovers/ok.md", bytes: DOC("ok") },
      // Each its own text: the same content would come in once, under one name.
      ...hostile.map((name, i) => ({ path: `handovers/${name}`, bytes: DOC(`evil-${i}`) })),
      // A name holding a `/` (written raw; git itself never makes one), a subtree, a link.
      { path: "handovers\t../../escaped.md", bytes: DOC("evil-slash-1") },
      { path: "handovers\tsub/inner.md", bytes: DOC("evil-slash-2") },
      { path: "handovers/sub/inner.md", bytes: DOC("evil-subtree") },
      { path: "handovers/link.md", bytes: "../../../../etc/passwd", mode: "120000" },
      { path: "handovers/exec.md", bytes: DOC("exec"), mode: "100755" },
      // Top-level names other than the three the ref carries are never read.
      { path: "LATEST", bytes: "evil\n" },
      { path: ".compact-s2.md", bytes: DOC("evil-top-1") },
      { path: "evil.md", bytes: DOC("evil-top-2") },
    ];
    await plantRef(w.remote, files);
    const before = storeFiles(a);
    const r = await runCliInProcess(["pull"], { cwd: a });
    assert.equal(r.code, 0, r.err);
    await t.step("only the plain documents and the parked item came in", () => {
      const after = storeFiles(a);
      const added = [...after.keys()].filter((k) => !before.has(k)).sort();
      assert.deepEqual(added.filter((k) => !/^\/\.(cache\/|docs\.lock$)/.test(k)), [
        "/exec.md",
        "/ok.md",
      ]);
      for (const [k, v] of before) {
        if (k !== "/PARKED.md" && !k.startsWith("/.cache/")) assert.equal(after.get(k), v, k);
      }
      const parked = Deno.readTextFileSync(`${a}/${STORE}/PARKED.md`);
      assert.match(parked, /\*\*local-item\*\*/);
      assert.match(parked, /\*\*keep-me\*\*/);
      assert.doesNotMatch(
        [...after.keys()].map((k) => Deno.readTextFileSync(`${a}/${STORE}${k}`)).join(""),
        /evil/,
      );
    });
    await t.step("nothing escaped the store", async () => {
      const outside = await git(a, ["status", "--porcelain", "--ignored"]);
      assert.deepEqual(outside.trim().split("\n"), ["!! .claude/"]);
      assert.equal(await Deno.stat(`${w.tmp}/escaped.md`).then(() => true, () => false), false);
      assert.equal(await Deno.stat(`${a}/escaped.md`).then(() => true, () => false), false);
    });
  } finally {
    await w.cleanup();
  }
});
