import assert from "node:assert/strict";
import { placeEnv, placeOf, rootDir, storeOf } from "../../lib/mcp/project.ts";
import { join } from "../../lib/fs/path.ts";
import { scratchDir, scratchProject } from "../support/scratch.ts";

Deno.test("mcp project: which directory requests start from", async (t) => {
  await using a = await scratchProject();
  await using b = await scratchProject();
  const uri = (d: string) => new URL(`file://${d}`).href;
  await t.step("file: roots only; a malformed or other URI is none", () => {
    assert.equal(rootDir(uri(a.root)), a.root);
    assert.equal(rootDir(`${uri(a.root)}/`), a.root);
    assert.equal(rootDir("https://example.com/x"), undefined);
    assert.equal(rootDir("file://host/x"), undefined);
  });
  await t.step("--dir beats roots; roots beat the working directory", () => {
    const roots = [{ uri: uri(b.root) }];
    assert.deepEqual(placeOf({ dir: a.root, roots, cwd: "/" }), { start: a.root, from: "dir" });
    assert.deepEqual(placeOf({ roots, cwd: a.root }), { start: b.root, from: "roots" });
    assert.deepEqual(placeOf({ cwd: a.root }), { start: a.root, from: "cwd" });
    assert.deepEqual(placeOf({ roots: [], cwd: a.root }), { start: a.root, from: "cwd" });
  });
  await t.step("the root holding the working directory wins over the first", () => {
    const roots = [{ uri: uri(b.root) }, { uri: uri(a.root) }];
    assert.equal(placeOf({ roots, cwd: join(a.root, "src") }).start, a.root);
    assert.equal(placeOf({ roots, cwd: `${a.root}x` }).start, b.root);
  });
  await t.step("a root that is no directory is passed over", async () => {
    await using gone = await scratchDir();
    const missing = join(gone.path, "missing");
    assert.equal(placeOf({ roots: [{ uri: uri(missing) }], cwd: a.root }).from, "cwd");
  });
  await t.step("CLAUDE_PROJECT_DIR is hidden only when roots or --dir name the project", () => {
    const env = (n: string) => n === "CLAUDE_PROJECT_DIR" ? b.root : undefined;
    assert.equal(placeEnv({ start: a.root, from: "cwd" }, env)("CLAUDE_PROJECT_DIR"), b.root);
    assert.equal(placeEnv({ start: a.root, from: "roots" }, env)("CLAUDE_PROJECT_DIR"), undefined);
    assert.equal(storeOf({ start: a.root, from: "cwd" }, env).root, b.root);
    assert.equal(storeOf({ start: join(a.root, "sub"), from: "roots" }, env).root, a.root);
  });
});
