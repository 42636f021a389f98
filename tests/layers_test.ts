/**
 * Folders of lib/ point one way: the folder-level import graph (an edge from a folder to another
 * when any file of the first imports, statically or lazily, a file of the second) has no cycle.
 * A file-level cycle check (no module imports itself back) misses two files of one folder
 * reaching into each other's folder through different files; this one does not.
 * @module
 */

import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const LIB = fileURLToPath(new URL("../lib", import.meta.url));

/** Every `.ts` file under `dir`. */
function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) out.push(...files(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** The folder of lib/ a file belongs to (`.` for lib/ itself, `handover/evidence` nested). */
function folderOf(file: string): string {
  return relative(LIB, dirname(file)) || ".";
}

/**
 * Folder → folders it imports. A relative `.ts` specifier in quotes counts wherever it stands:
 * `import … from`, `import type`, and the lazy loaders' `import.meta.resolve("./x.ts")` alike.
 */
export function folderEdges(sources: Map<string, string>): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const [file, text] of sources) {
    const from = folderOf(file);
    for (const m of text.matchAll(/["'](\.\.?\/[^"'\s]+\.ts)["']/g)) {
      const target = resolve(dirname(file), m[1]);
      if (!target.startsWith(LIB)) continue;
      const to = folderOf(target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  return edges;
}

/** One cycle of the graph as `a → b → a`, or undefined when it has none. */
export function findCycle(edges: Map<string, Set<string>>): string | undefined {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (v: string): string | undefined => {
    state.set(v, "open");
    path.push(v);
    for (const w of [...(edges.get(v) ?? [])].sort()) {
      if (state.get(w) === "open") return [...path.slice(path.indexOf(w)), w].join(" → ");
      if (!state.has(w)) {
        const found = visit(w);
        if (found) return found;
      }
    }
    path.pop();
    state.set(v, "done");
    return undefined;
  };
  for (const v of [...edges.keys()].sort()) {
    if (state.has(v)) continue;
    const found = visit(v);
    if (found) return found;
  }
  return undefined;
}

Deno.test("layers: the folders of lib/ import one way", async (t) => {
  await t.step("the check finds a planted cycle", () => {
    const edges = new Map([["a", new Set(["b"])], ["b", new Set(["c"])], ["c", new Set(["a"])]]);
    assert.equal(findCycle(edges), "a → b → c → a");
    assert.equal(findCycle(new Map([["a", new Set(["b"])]])), undefined);
  });

  await t.step("lazy and type imports count", () => {
    const sources = new Map([
      [join(LIB, "x", "one.ts"), 'const m = import(import.meta.resolve("../y/two.ts"));'],
      [join(LIB, "y", "two.ts"), 'import type { A } from "../x/one.ts";'],
    ]);
    assert.equal(findCycle(folderEdges(sources)), "x → y → x");
  });

  await t.step("lib/ has no folder-level cycle", () => {
    const sources = new Map(files(LIB).map((f) => [f, Deno.readTextFileSync(f)]));
    const edges = folderEdges(sources);
    assert.ok(edges.size > 5, "the scan found imports");
    assert.equal(findCycle(edges), undefined);
  });
});

Deno.test("layers: the MCP server and its SDK load only in the mcp mode", () => {
  const sources = new Map(files(LIB).map((f) => [f, Deno.readTextFileSync(f)]));
  const mcp = join(LIB, "mcp");
  const mode = join(LIB, "cli", "mcp.ts");
  let sdkUsers = 0;
  for (const [file, text] of sources) {
    const inMcp = file.startsWith(`${mcp}/`);
    if (/["'](?:@modelcontextprotocol\/sdk|zod)[/"']/.test(text)) {
      sdkUsers++;
      assert.ok(inMcp, `${relative(LIB, file)} imports the MCP SDK or zod outside lib/mcp/`);
    }
    if (inMcp || file === mode) continue;
    for (const m of text.matchAll(/["'](\.\.?\/[^"'\s]+\.ts)["']/g)) {
      const target = resolve(dirname(file), m[1]);
      assert.ok(
        !target.startsWith(`${mcp}/`),
        `${relative(LIB, file)} imports ${relative(LIB, target)}: only lib/cli/mcp.ts may`,
      );
    }
  }
  assert.ok(sdkUsers > 0, "the scan found the SDK's importers");
  // The mode loads the server by a computed specifier, so no other mode's graph holds it.
  assert.doesNotMatch(sources.get(mode)!, /^import [^;]*["']\.\.\/mcp\/(?!cli_run)/m);
});
