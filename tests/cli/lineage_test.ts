import assert from "node:assert/strict";
import { join } from "../../lib/fs/path.ts";
import { splitFrontMatter } from "../../lib/store/front_matter.ts";
import { restoredMarker } from "../../lib/store/latest.ts";
import { answerInProcess, clearPayload, runCliInProcess } from "../support/run.ts";
import { BODY, NOW, scratchProject, writeDoc } from "../support/scratch.ts";
import { transcriptOf } from "../support/transcript.ts";
import type { Store } from "../../lib/store/store.ts";

const S1 = "11111111-1111-4111-8111-111111111111";
const S2 = "22222222-2222-4222-8222-222222222222";

/** The front matter of the document `slug`. */
async function fieldsOf(store: Store, slug: string): Promise<Record<string, string>> {
  return splitFrontMatter(await Deno.readTextFile(join(store.dir, `${slug}.md`)))!.fields;
}

/** `dump <name>` in session `session`; the slug written. */
async function dumpIn(root: string, name: string, session?: string): Promise<string> {
  const env: Record<string, string> = session ? { CLAUDE_CODE_SESSION_ID: session } : {};
  const r = await runCliInProcess(["dump", name], { cwd: root, stdin: BODY, env });
  assert.equal(r.code, 0, r.err);
  return /LATEST → (.+)/.exec(r.out)![1];
}

Deno.test("lineage: parent: names the handover the dumping session started from", async (t) => {
  await t.step(
    "through the hook: restored into S1, S1's dump has parent: the restored",
    async () => {
      await using p = await scratchProject();
      await writeDoc(p.store, "first");
      const answer = await answerInProcess(JSON.parse(clearPayload(p.root, { session_id: S1 })));
      assert.ok(JSON.stringify(answer).includes("first"), JSON.stringify(answer));
      assert.equal((await fieldsOf(p.store, "first")).consumed, "true");
      const slug = await dumpIn(p.root, "second", S1);
      assert.equal((await fieldsOf(p.store, slug)).parent, "first");
    },
  );

  await t.step("through recall: printed in S1, S1's dump has parent: the recalled", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "first", { latest: false });
    const r = await runCliInProcess(["recall", "first"], {
      cwd: p.root,
      env: { CLAUDE_CODE_SESSION_ID: S1 },
    });
    assert.equal(r.code, 0, r.err);
    assert.equal(await dumpIn(p.root, "second", S1), "second");
    assert.equal((await fieldsOf(p.store, "second")).parent, "first");
  });

  await t.step("a Codex session: its thread id names the session", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "first", { latest: false });
    const env = { CODEX_THREAD_ID: S2 };
    assert.equal((await runCliInProcess(["recall", "first"], { cwd: p.root, env })).code, 0);
    const r = await runCliInProcess(["dump", "second"], { cwd: p.root, stdin: BODY, env });
    assert.equal(r.code, 0, r.err);
    assert.equal((await fieldsOf(p.store, "second")).parent, "first");
  });

  await t.step("recover: a draft of a session that started from a handover names it", async () => {
    await using p = await scratchProject();
    await Deno.writeTextFile(restoredMarker(p.store.dir, S1)!, "where-it-began\n");
    const transcript = join(p.root, "t.jsonl");
    await Deno.writeTextFile(
      transcript,
      transcriptOf(p.root, [{ prompt: "Port the config loader to TOML" }], S1),
    );
    const r = await runCliInProcess(["recover", "drafted", "--transcript", transcript], {
      cwd: p.root,
    });
    assert.equal(r.code, 0, r.err);
    assert.equal((await fieldsOf(p.store, "drafted")).parent, "where-it-began");
  });

  await t.step("a later recall in the same session does not change where it started", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "first", { latest: false });
    await writeDoc(p.store, "other", { latest: false });
    const env = { CLAUDE_CODE_SESSION_ID: S1 };
    assert.equal((await runCliInProcess(["recall", "first"], { cwd: p.root, env })).code, 0);
    assert.equal((await runCliInProcess(["recall", "other"], { cwd: p.root, env })).code, 0);
    await dumpIn(p.root, "second", S1);
    assert.equal((await fieldsOf(p.store, "second")).parent, "first");
  });

  await t.step("no session in the environment, or a session from nothing: no parent", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "first", { latest: false });
    assert.equal((await runCliInProcess(["recall", "first"], { cwd: p.root })).code, 0);
    await dumpIn(p.root, "anon");
    assert.equal((await fieldsOf(p.store, "anon")).parent, undefined);
    await dumpIn(p.root, "fresh", S2);
    assert.equal((await fieldsOf(p.store, "fresh")).parent, undefined);
  });

  await t.step("two sessions at once: each dump names its own session's start", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "alpha", { latest: false });
    await writeDoc(p.store, "beta", { latest: false });
    const r1 = runCliInProcess(["recall", "alpha"], {
      cwd: p.root,
      env: { CLAUDE_CODE_SESSION_ID: S1 },
    });
    const r2 = runCliInProcess(["recall", "beta"], {
      cwd: p.root,
      env: { CLAUDE_CODE_SESSION_ID: S2 },
    });
    assert.deepEqual((await Promise.all([r1, r2])).map((r) => r.code), [0, 0]);
    const [d1, d2] = await Promise.all([dumpIn(p.root, "one", S1), dumpIn(p.root, "two", S2)]);
    assert.equal((await fieldsOf(p.store, d1)).parent, "alpha");
    assert.equal((await fieldsOf(p.store, d2)).parent, "beta");
  });

  await t.step("a record naming no slug a document could have is no parent", async () => {
    await using p = await scratchProject();
    await Deno.writeTextFile(restoredMarker(p.store.dir, S1)!, "../../etc/passwd\n");
    await dumpIn(p.root, "safe", S1);
    assert.equal((await fieldsOf(p.store, "safe")).parent, undefined);
  });

  await t.step("a dump over the handover it started from names no parent of itself", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "same", { latest: false });
    const env = { CLAUDE_CODE_SESSION_ID: S1 };
    assert.equal((await runCliInProcess(["recall", "same"], { cwd: p.root, env })).code, 0);
    const r = await runCliInProcess(["dump", "same", "--force"], { cwd: p.root, stdin: BODY, env });
    assert.equal(r.code, 0, r.err);
    assert.equal((await fieldsOf(p.store, "same")).parent, undefined);
  });
  void NOW;
});
