import assert from "node:assert/strict";
import {
  consume,
  type ConsumeIntent,
  consumeSync,
  planConsume,
  planPoint,
  planRepair,
  pointLatest,
} from "../../lib/store/lifecycle.ts";
import { readLatest, restoredMarker } from "../../lib/store/latest.ts";
import { readDoc } from "../../lib/store/store.ts";
import { scratchProject, writeDoc } from "../support/scratch.ts";

const DOC = "---\r\nslug: a\r\nconsumed: false\r\n---\r\n\r\nBody.\r\n";
const FLIPPED = DOC.replace("consumed: false", "consumed: true");
const hook = (o: Partial<ConsumeIntent> = {}): ConsumeIntent => ({
  slug: "a",
  text: DOC,
  viaLatest: true,
  shown: false,
  ...o,
});

Deno.test("planConsume: the consume decided from the state alone", async (t) => {
  await t.step("LATEST names the target: flipped byte-exactly, LATEST cleared", () => {
    assert.deepEqual(planConsume(hook({ marker: "/m" }), { latest: "a", current: DOC }), {
      kind: "flip",
      text: FLIPPED,
      clearLatest: true,
      marker: "/m",
    });
  });
  await t.step(
    "LATEST names another: flipped, LATEST kept (a named recall, a session's own)",
    () => {
      const plan = planConsume(hook({ viaLatest: false }), { latest: "b", current: DOC });
      assert.deepEqual(plan, {
        kind: "flip",
        text: FLIPPED,
        clearLatest: false,
        marker: undefined,
      });
    },
  );
  await t.step("chosen by LATEST, LATEST moved meanwhile: nothing (a newer dump is kept)", () => {
    assert.deepEqual(planConsume(hook(), { latest: "b", current: DOC }), { kind: "replaced" });
    assert.deepEqual(planConsume(hook(), { latest: undefined, current: DOC }), {
      kind: "replaced",
    });
  });
  await t.step("the document replaced or removed meanwhile: nothing", () => {
    const newer = DOC.replace("Body.", "Newer.");
    assert.deepEqual(planConsume(hook(), { latest: "a", current: newer }), { kind: "replaced" });
    assert.deepEqual(planConsume(hook(), { latest: "a", current: undefined }), {
      kind: "replaced",
    });
  });
  await t.step("consumed already: nothing flipped; LATEST cleared only once shown", () => {
    const text = FLIPPED;
    const state = { latest: "a", current: text };
    assert.deepEqual(planConsume(hook({ text }), state), {
      kind: "keep",
      status: "before",
      clearLatest: false,
    });
    assert.deepEqual(planConsume(hook({ text, shown: true }), state), {
      kind: "keep",
      status: "before",
      clearLatest: true,
    });
    assert.deepEqual(planConsume(hook({ text, shown: true }), { ...state, latest: "b" }), {
      kind: "replaced",
    });
    assert.deepEqual(
      planConsume(hook({ text, shown: true, viaLatest: false }), { ...state, latest: "b" }),
      { kind: "keep", status: "before", clearLatest: false },
    );
  });
  await t.step("no consumed field (no front matter): unmarked", () => {
    const text = "Just a note.\n";
    assert.deepEqual(planConsume(hook({ text, shown: true }), { latest: "a", current: text }), {
      kind: "keep",
      status: "unmarked",
      clearLatest: true,
    });
  });
});

Deno.test("planPoint: who takes LATEST", async (t) => {
  const doc = (fields: Record<string, string>) => ({ slug: "old", fields });
  await t.step("a dump always points", () => {
    assert.deepEqual(planPoint("dump", undefined), { point: true });
    assert.deepEqual(planPoint("dump", doc({ consumed: "false" })), { point: true });
  });
  await t.step("a draft never shadows an unconsumed dump", () => {
    assert.deepEqual(planPoint("draft", doc({ consumed: "false" })), {
      point: false,
      keep: "old",
    });
  });
  await t.step("a draft replaces a consumed dump, an older unconsumed draft, or nothing", () => {
    assert.deepEqual(planPoint("draft", doc({ consumed: "true" })), { point: true });
    assert.deepEqual(planPoint("draft", doc({ consumed: "false", draft: "auto" })), {
      point: true,
    });
    assert.deepEqual(planPoint("draft", undefined), { point: true });
    assert.deepEqual(planPoint("draft", { slug: "dangling" }), { point: true });
  });
});

Deno.test("planRepair: a dangling LATEST is cleared, a present one kept", () => {
  assert.equal(planRepair("gone", false), "clear");
  assert.equal(planRepair("here", true), "keep");
  assert.equal(planRepair(undefined, false), "keep");
});

Deno.test("the consume appliers: hook and recall alike", async (t) => {
  await t.step("the hook's: flipped, LATEST renamed to the restored marker", async () => {
    await using p = await scratchProject();
    const text = await writeDoc(p.store, "a", { crlf: true });
    const marker = restoredMarker(p.store.dir, "s1");
    const status = consumeSync(
      p.store,
      { slug: "a", text, viaLatest: true, shown: false, marker },
      2_000,
    );
    assert.equal(status, "written");
    assert.equal(readDoc(p.store, "a"), text.replace("consumed: false", "consumed: true"));
    assert.equal(readLatest(p.store), undefined);
    assert.equal(Deno.readTextFileSync(marker!), "a\n");
  });
  await t.step("a named recall of another: LATEST kept", async () => {
    await using p = await scratchProject();
    const text = await writeDoc(p.store, "a", { latest: false });
    await writeDoc(p.store, "b");
    const status = await consume(p.store, { slug: "a", text, viaLatest: false, shown: true });
    assert.equal(status, "written");
    assert.equal(readLatest(p.store), "b");
  });
  await t.step("twice: the second finds it consumed, and writes nothing", async () => {
    await using p = await scratchProject();
    const text = await writeDoc(p.store, "a");
    const intent = { slug: "a", text, viaLatest: true, shown: false };
    assert.equal(consumeSync(p.store, intent, 2_000), "written");
    assert.equal(consumeSync(p.store, intent, 2_000), "replaced");
  });
  await t.step("a draft points LATEST only off an unconsumed dump", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "dump");
    await writeDoc(p.store, "draft", { latest: false });
    assert.equal(pointLatest(p.store, "draft", "draft"), "dump");
    assert.equal(readLatest(p.store), "dump");
    assert.equal(pointLatest(p.store, "draft", "dump"), undefined);
    assert.equal(readLatest(p.store), "draft");
  });
});
