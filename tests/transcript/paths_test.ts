import assert from "node:assert/strict";
import { normalizePath, relativeTo } from "../../lib/transcript/paths.ts";

Deno.test("paths: relative paths", () => {
  assert.equal(relativeTo("/p/a/b", "/p"), "a/b");
  assert.equal(relativeTo("/pa/b", "/p"), undefined);
  assert.equal(relativeTo("/p/a", "/p/"), "a");
  assert.equal(normalizePath("/a/./b/../c//d"), "/a/c/d");
  assert.equal(normalizePath("C:\\x\\..\\y"), "C:/y");
});
