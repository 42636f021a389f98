import assert from "node:assert/strict";
import { FORK_HEAD_BYTES, forkParents, forkParentsOf } from "../../lib/transcript/fork.ts";
import { join } from "../../lib/fs/path.ts";

const PARENT = "8433d2b3-7721-4fac-9f4a-63dd4157022d";
const record = (extra: Record<string, unknown>) =>
  JSON.stringify({ type: "user", sessionId: "90089a0a-fork", ...extra });

Deno.test("forkParents: the sessions a fork's copied records name", async (t) => {
  await t.step("a fork's records carry forkedFrom.sessionId: named once", () => {
    const head = [
      record({ forkedFrom: { sessionId: PARENT, messageUuid: "a" } }),
      record({ forkedFrom: { sessionId: PARENT, messageUuid: "b" } }),
    ].join("\n");
    assert.deepEqual(forkParents(head), [PARENT]);
  });
  await t.step("a fork of a fork: both, in order of first mention", () => {
    const head = [
      record({ forkedFrom: { sessionId: "grandparent" } }),
      record({ forkedFrom: { sessionId: PARENT } }),
    ].join("\n");
    assert.deepEqual(forkParents(head), ["grandparent", PARENT]);
  });
  await t.step("no forkedFrom, a cut last line, hostile shapes: none", () => {
    assert.deepEqual(forkParents(record({})), []);
    assert.deepEqual(forkParents(`${record({})}\n{"forkedFrom": {"sessionId": "${PARENT}`), []);
    for (const v of ["null", "1", '"x"', '{"sessionId": 7}', '{"sessionId": ""}', "[]"]) {
      assert.deepEqual(forkParents(`{"forkedFrom": ${v}}`), [], v);
    }
    assert.deepEqual(forkParents("null\n"), []);
  });
});

Deno.test("forkParentsOf: reads only the head; an unreadable path names none", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const near = join(dir, "near.jsonl");
    await Deno.writeTextFile(near, record({ forkedFrom: { sessionId: PARENT } }) + "\n");
    assert.deepEqual(forkParentsOf(near), [PARENT]);
    // A record past the head is not the copied prefix of a fork.
    const far = join(dir, "far.jsonl");
    const filler = record({ message: "x".repeat(FORK_HEAD_BYTES) });
    await Deno.writeTextFile(far, `${filler}\n${record({ forkedFrom: { sessionId: PARENT } })}\n`);
    assert.deepEqual(forkParentsOf(far), []);
    assert.deepEqual(forkParentsOf(join(dir, "missing.jsonl")), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
