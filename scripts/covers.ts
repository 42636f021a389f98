/**
 * `deno run -A scripts/covers.ts <file>…`: the test files that cover a file, so an audit that
 * plants a bug in it runs just those (CONTRIBUTING.md "Planting a bug"). A module is covered by
 * every `*_test.ts` under `tests/` that imports it directly or through other modules — static
 * imports and re-exports, `import type`, and `import("…")` / `import.meta.resolve("…")` with a
 * literal specifier. A test that runs the CLI or the hook as a process imports the dispatcher
 * through tests/support/run.ts, so it counts too. A file that is not a module (bin/with-deno) is
 * covered by the test files that name it. `--direct`: only the tests that import the module
 * themselves (the first to run, being the closest). Read from the files themselves, nothing is run.
 * @module
 */

import { absolute, join, parentDir } from "../lib/fs/path.ts";

/** The literal specifiers a module's text imports. */
export function specifiers(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^;'"]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\bimport\.meta\.resolve\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(m[1]);
  return out;
}

/** Reads a module's text; undefined when it is not there. */
export type ReadText = (path: string) => string | undefined;

/**
 * The tests among `tests` whose import closure holds `target` (absolute paths throughout); a
 * target that is not a `.ts` module is matched by the tests that name its path from the repository
 * `root`.
 */
export function coveringTests(
  target: string,
  tests: readonly string[],
  read: ReadText,
  root: string,
  direct = false,
): string[] {
  if (!target.endsWith(".ts")) {
    const rel = target.startsWith(`${root}/`) ? target.slice(root.length + 1) : target;
    const name = rel.split("/").at(-1)!;
    return tests.filter((t) => {
      const text = read(t) ?? "";
      return text.includes(rel) || text.includes(`"${name}"`);
    }).sort();
  }
  const imports = new Map<string, string[]>();
  const edges = (file: string): string[] => {
    let out = imports.get(file);
    if (out === undefined) {
      const dir = parentDir(file) ?? "/";
      out = specifiers(read(file) ?? "").filter((s) => s.startsWith("."))
        .map((s) => absolute(s, dir));
      imports.set(file, out);
    }
    return out;
  };
  return tests.filter((test) => {
    const seen = new Set([test]);
    const todo = [test];
    while (todo.length > 0) {
      const file = todo.pop()!;
      if (file === target) return true;
      if (direct && file !== test) continue;
      for (const next of edges(file)) {
        if (!seen.has(next)) {
          seen.add(next);
          todo.push(next);
        }
      }
    }
    return false;
  }).sort();
}

/** Every `*_test.ts` below `dir`, fixtures excepted (`deno task test` leaves them out). */
export function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory && e.name !== "fixtures") out.push(...testFiles(path));
    else if (e.isFile && e.name.endsWith("_test.ts")) out.push(path);
  }
  return out;
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  const root = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
  const direct = Deno.args.includes("--direct");
  const files = Deno.args.filter((a) => a !== "--direct");
  if (files.length === 0) {
    console.error("usage: deno run -A scripts/covers.ts [--direct] <file>…");
    Deno.exit(2);
  }
  const tests = testFiles(join(root, "tests"));
  const found = new Set<string>();
  for (const file of files) {
    const target = absolute(file, Deno.cwd());
    for (const t of coveringTests(target, tests, readText, root, direct)) found.add(t);
  }
  for (const t of [...found].sort()) console.log(t.slice(root.length + 1));
}
