import assert from "node:assert/strict";
import { setFault } from "../../lib/fs/atomic.ts";
import { appendParked, removeParked } from "../../lib/parked/edit.ts";
import { editParked, readParked } from "../../lib/parked/file.ts";
import { ensureStore, storeAt } from "../../lib/store/store.ts";
import { scratchDir, tempFilesIn } from "../support/scratch.ts";

const BASE = "# Parked items\n\n- **a** — A.\n- **b** — B\n  note of b\n\nfooter\n";

Deno.test("parked: the locked edit of PARKED.md on disk", async (t) => {
  await using scratch = await scratchDir();
  const store = storeAt(scratch.path);
  const reset = (log: string) => {
    ensureStore(store);
    Deno.writeTextFileSync(store.parked, BASE);
    Deno.writeTextFileSync(store.dropped, log);
  };
  const park = () =>
    editParked(
      store,
      (doc) => ({ doc: appendParked(doc, { slug: "c", summary: "C" }).doc, result: 1 }),
    );
  const drop = () =>
    editParked(store, (doc) => ({
      doc: removeParked(doc, "b").doc,
      log: ['{"item":"b"}'],
      result: 2,
    }));

  await t.step("writes the edited file byte for byte and appends the log lines", async () => {
    reset('{"item":"x"}'); // a log whose last line lost its line ending
    assert.equal(await park(), 1);
    assert.equal(
      Deno.readTextFileSync(store.parked),
      "# Parked items\n\n- **a** — A.\n- **b** — B\n  note of b\n- **c** — C.\n\nfooter\n",
    );
    assert.equal(await drop(), 2);
    assert.equal(
      Deno.readTextFileSync(store.parked),
      "# Parked items\n\n- **a** — A.\n- **c** — C.\n\nfooter\n",
    );
    assert.equal(Deno.readTextFileSync(store.dropped), '{"item":"x"}\n{"item":"b"}\n');
    assert.equal(readParked(store).count, 2);
  });

  await t.step("a write cut short (a full disk) leaves both files as they were", async () => {
    for (const edit of [park, drop]) {
      reset('{"item":"x"}\n');
      setFault("short-write");
      try {
        await assert.rejects(edit(), /No space left on device/);
      } finally {
        setFault(undefined);
      }
      assert.equal(Deno.readTextFileSync(store.parked), BASE);
      assert.equal(Deno.readTextFileSync(store.dropped), '{"item":"x"}\n');
      assert.deepEqual(tempFilesIn(store.dir), []);
    }
  });
});
