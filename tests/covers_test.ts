/**
 * scripts/covers.ts: which test files cover a file — by the imports they reach, however they are
 * written, or for a file that is not a module by the tests naming it.
 */
import assert from "node:assert/strict";
import { coveringTests, specifiers } from "../scripts/covers.ts";
import { REPO } from "./support/scratch.ts";

const R = "/r";
const FILES: Record<string, string> = {
  "/r/lib/a.ts": 'import { b } from "./b.ts";\nexport const a = b;\n',
  "/r/lib/b.ts": "export const b = 1;\n",
  "/r/lib/lazy.ts": 'const m = await import(import.meta.resolve("./c.ts"));\n',
  "/r/lib/c.ts": "export const c = 1;\n",
  "/r/lib/d.ts": "export type D = 1;\n",
  "/r/tests/support/s.ts": 'export * from "../../lib/a.ts";\n',
  "/r/tests/a_test.ts": 'import { a } from "./support/s.ts";\n',
  "/r/tests/lazy_test.ts": 'const { x } = await import("../lib/lazy.ts");\n',
  "/r/tests/type_test.ts": 'import type { D } from "../lib/d.ts";\n',
  "/r/tests/bin_test.ts": 'const LAUNCHER = join(REPO, "bin", "with-deno");\n',
  "/r/tests/none_test.ts": 'import assert from "node:assert/strict";\n',
};
const TESTS = Object.keys(FILES).filter((f) => f.endsWith("_test.ts"));
const covers = (target: string, direct = false) =>
  coveringTests(target, TESTS, (p) => FILES[p], R, direct);

Deno.test("covers: the tests that reach a file", async (t) => {
  await t.step("through other modules, re-exports included", () => {
    assert.deepEqual(covers("/r/lib/b.ts"), ["/r/tests/a_test.ts"]);
    assert.deepEqual(covers("/r/lib/b.ts", true), [], "--direct: only its own importers");
    assert.deepEqual(covers("/r/tests/support/s.ts", true), ["/r/tests/a_test.ts"]);
  });
  await t.step("import(), import.meta.resolve and import type count", () => {
    assert.deepEqual(covers("/r/lib/c.ts"), ["/r/tests/lazy_test.ts"]);
    assert.deepEqual(covers("/r/lib/d.ts"), ["/r/tests/type_test.ts"]);
  });
  await t.step("a file that is not a module: the tests naming it", () => {
    assert.deepEqual(covers("/r/bin/with-deno"), ["/r/tests/bin_test.ts"]);
  });
  await t.step("bare specifiers are no edges", () => {
    assert.deepEqual(specifiers(FILES["/r/tests/none_test.ts"]), ["node:assert/strict"]);
    assert.deepEqual(covers("/r/lib/a.ts").includes("/r/tests/none_test.ts"), false);
  });
  await t.step("in this checkout: a module's mirrored test", async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", "scripts/covers.ts", "--direct", "lib/search/rank.ts"],
      cwd: REPO,
      stdout: "piped",
    }).output();
    assert.equal(out.code, 0);
    assert.deepEqual(new TextDecoder().decode(out.stdout).trim().split("\n"), [
      "tests/search/rank_test.ts",
    ]);
  });
});
