import assert from "node:assert/strict";
import { recentArtifacts } from "../../../lib/handover/evidence/artifacts.ts";
import { NOW, put, scratchProject } from "../../support/scratch.ts";

Deno.test("evidence: pure parts", async (t) => {
  await t.step("artifact dirs count files changed within a day of now, by mtime", async () => {
    await using p = await scratchProject({ git: false, store: false });
    await put(p.root, ".temp/a/b.md", "x");
    await put(p.root, ".reports/old.md", "x");
    await put(p.root, "other/x.md", "x");
    const day = 86_400_000;
    const at = (ms: number) => ms / 1000;
    await Deno.utime(
      `${p.root}/.temp/a/b.md`,
      at(NOW.getTime() - 3_600_000),
      at(NOW.getTime() - 3_600_000),
    );
    await Deno.utime(
      `${p.root}/.reports/old.md`,
      at(NOW.getTime() - 2 * day),
      at(NOW.getTime() - 2 * day),
    );
    await Deno.utime(`${p.root}/other/x.md`, at(NOW.getTime()), at(NOW.getTime()));
    const found = await recentArtifacts(p.root, NOW);
    assert.deepEqual(found, [{ dir: ".temp", files: 1, newest: "2026-11-30T11:00:00Z" }]);
    assert.deepEqual(await recentArtifacts(p.root, new Date(NOW.getTime() + 2 * day)), []);
  });
});
