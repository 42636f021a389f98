/**
 * Which session a handover belongs to (lib/store/sessions.ts): a session's own documents, and the
 * clearing mark SessionEnd leaves for the SessionStart that follows, on each side of its life.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/fs/path.ts";
import {
  CLEARING_MS,
  CLEARING_PREFIX,
  ENDED_PREFIX,
  hasEnded,
  markClearing,
  markEnded,
  pruneSessionFiles,
  SESSION_FILES_KEEP_MS,
  sessionDocs,
  takeClearing,
} from "../../lib/store/sessions.ts";
import { FUTURE_SKEW_MS } from "../../lib/store/time.ts";
import { mark } from "../../lib/pressure/state.ts";
import { sweepMarkers } from "../../lib/continuity/material.ts";
import { NOW, scratchDir, type ScratchProject, scratchProject } from "../support/scratch.ts";

Deno.test("sessionDocs: this session's documents, newest first, any front matter shape", async () => {
  await using d = await scratchDir();
  const doc = (slug: string, created: string, extra = "") =>
    `---\nslug: ${slug}\ncreated: ${created}\nconsumed: false\nsession: s-1\n${extra}---\n\nbody\n`;
  Deno.writeTextFileSync(join(d.path, "old.md"), doc("old", "2026-11-30T10:00:00Z"));
  Deno.writeTextFileSync(join(d.path, "new.md"), doc("new", "2026-11-30T11:00:00Z"));
  Deno.writeTextFileSync(
    join(d.path, "other.md"),
    doc("other", "2026-11-30T12:00:00Z").replace("s-1", "s-2"),
  );
  assert.deepEqual(sessionDocs(d.path, "s-1").map((x) => x.slug), ["new", "old"]);
  // A quoted value reads as its value.
  Deno.writeTextFileSync(join(d.path, "quoted.md"), doc("quoted", '"2026-11-30T12:00:00Z"'));
  assert.deepEqual(sessionDocs(d.path, "s-1").map((x) => x.slug), ["quoted", "new", "old"]);
  assert.deepEqual(sessionDocs(d.path, "s-2").map((x) => x.slug), ["other"]);
});

Deno.test("clearing marks: taken once, newest first, within their life", async (t) => {
  const at = (ms: number) => new Date(NOW.getTime() + ms);
  await t.step("a mark is taken once", async () => {
    await using p = await scratchProject();
    assert.equal(markClearing(p.store, "s-a", NOW), true);
    assert.equal(takeClearing(p.store, at(1_000)), "s-a");
    assert.equal(takeClearing(p.store, at(1_000)), undefined);
  });
  await t.step("of two, the newest; the other waits", async () => {
    await using p = await scratchProject();
    markClearing(p.store, "s-old", at(-5_000));
    markClearing(p.store, "s-new", NOW);
    assert.equal(takeClearing(p.store, at(100)), "s-new");
    assert.equal(takeClearing(p.store, at(100)), "s-old");
  });
  for (
    const [what, age, taken] of [
      ["exactly its life", CLEARING_MS, true],
      ["its life + 1 ms", CLEARING_MS + 1, false],
      ["a minute ahead (clock skew)", -FUTURE_SKEW_MS, true],
      ["a minute + 1 ms ahead", -FUTURE_SKEW_MS - 1, false],
    ] as const
  ) {
    await t.step(`${what}: ${taken ? "taken" : "links nothing, removed"}`, async () => {
      await using p = await scratchProject();
      markClearing(p.store, "s-a", NOW);
      assert.equal(takeClearing(p.store, at(age)), taken ? "s-a" : undefined);
      const left = [...Deno.readDirSync(p.store.dir)].filter((e) =>
        e.name.startsWith(CLEARING_PREFIX)
      );
      assert.deepEqual(left, [], "no mark left behind");
    });
  }
  await t.step("no store, or an id a file name cannot carry: no mark", async () => {
    await using p = await scratchProject({ store: false });
    assert.equal(markClearing(p.store, "s-a", NOW), false);
    await Deno.mkdir(p.store.dir, { recursive: true });
    assert.equal(markClearing(p.store, "a:b", NOW), false);
    assert.equal(markClearing(p.store, "../x", NOW), false);
    assert.deepEqual([...Deno.readDirSync(p.store.dir)], []);
    assert.equal(takeClearing(p.store, NOW), undefined);
  });
  // In minutes, not from CLEARING_MS: a life stretched or cut by a typo must fail here.
  await t.step("50 s old: taken; two minutes old: links nothing", async () => {
    await using p = await scratchProject();
    markClearing(p.store, "s-a", NOW);
    assert.equal(takeClearing(p.store, at(50_000)), "s-a");
    markClearing(p.store, "s-b", NOW);
    assert.equal(takeClearing(p.store, at(2 * 60_000)), undefined);
  });
  await t.step("an unreadable mark links nothing and is removed", async () => {
    await using p = await scratchProject();
    await Deno.writeTextFile(join(p.store.dir, `${CLEARING_PREFIX}s-a`), "not a stamp\n");
    assert.equal(takeClearing(p.store, NOW), undefined);
    assert.deepEqual([...Deno.readDirSync(p.store.dir)], []);
  });
});

Deno.test("ended marks: a session ended for good frees its handover for a day", async (t) => {
  const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
  const DAY = 24 * 60;
  const marks = (dir: string) =>
    [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith(ENDED_PREFIX)).sort();
  await t.step("marked: the session has ended; another has not", async () => {
    await using p = await scratchProject();
    assert.equal(markEnded(p.store, "s-a", NOW), true);
    assert.equal(hasEnded(p.store, "s-a"), true);
    assert.equal(hasEnded(p.store, "s-b"), false);
  });
  // In minutes and hours, not from ENDED_MS: the restore window is 30 minutes, so a mark must
  // outlive it; a day is when it is pruned.
  for (
    const [what, minutes, kept] of [
      ["30 minutes", 30, true],
      ["exactly 24 h", DAY, true],
      ["24 h + 1 minute", DAY + 1, false],
    ] as const
  ) {
    await t.step(`another session's end ${what} later: ${kept ? "kept" : "pruned"}`, async () => {
      await using p = await scratchProject();
      markEnded(p.store, "s-old", NOW);
      markEnded(p.store, "s-new", at(minutes));
      assert.equal(hasEnded(p.store, "s-old"), kept);
      assert.deepEqual(
        marks(p.store.dir),
        kept ? [`${ENDED_PREFIX}s-new`, `${ENDED_PREFIX}s-old`] : [`${ENDED_PREFIX}s-new`],
      );
    });
  }
  await t.step("no store, or an id a file name cannot carry: no mark", async () => {
    await using p = await scratchProject({ store: false });
    assert.equal(markEnded(p.store, "s-a", NOW), false);
    await Deno.mkdir(p.store.dir, { recursive: true });
    assert.equal(markEnded(p.store, "a:b", NOW), false);
    assert.equal(hasEnded(p.store, "a:b"), false);
    assert.deepEqual(marks(p.store.dir), []);
  });
});

Deno.test("pruneSessionFiles: a session's files older than the keep go, younger ones and others stay", async () => {
  await using p = await scratchProject();
  Deno.mkdirSync(p.store.dir, { recursive: true });
  const file = (name: string, ageMs: number) => {
    const path = join(p.store.dir, name);
    Deno.writeTextFileSync(path, "x\n");
    const t = new Date(NOW.getTime() - ageMs);
    Deno.utimeSync(path, t, t);
    return path;
  };
  const old = file(".nudged-a", SESSION_FILES_KEEP_MS + 60_000);
  const young = file(".nudged-b", SESSION_FILES_KEEP_MS - 60_000);
  const other = file(".restored-c", SESSION_FILES_KEEP_MS + 60_000);
  const doc = file("old-handover.md", SESSION_FILES_KEEP_MS + 60_000);
  pruneSessionFiles(p.store, [".nudged-"], NOW);
  const there = (path: string) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  };
  assert.equal(there(old), false, "over the keep: removed");
  assert.equal(there(young), true, "within the keep: kept");
  assert.equal(there(other), true, "another prefix: kept");
  assert.equal(there(doc), true, "a handover is never a session file");
});

Deno.test("a session's marks are kept a week: the nudge's and the restore's, pruned after", async (t) => {
  // In days, not from SESSION_FILES_KEEP_MS: the week is what the docs promise.
  const HOUR = 60 * 60 * 1000;
  const files = [".nudged-", ".fill-", ".restored-", ".compact-"];
  /** The store after `prune` ran with each kind of file aged `hours`. */
  const after = async (hours: number, prune: (p: ScratchProject) => void) => {
    await using p = await scratchProject();
    for (const prefix of files) {
      const path = join(p.store.dir, `${prefix}s-old`);
      Deno.writeTextFileSync(path, "70\n");
      const at = new Date(NOW.getTime() - hours * HOUR);
      Deno.utimeSync(path, at, at);
    }
    prune(p);
    return [...Deno.readDirSync(p.store.dir)].map((e) => e.name)
      .filter((n) => n.endsWith("s-old")).sort();
  };
  const nudge = (p: ScratchProject) => assert.ok(mark(p.store, "s-now", [70], NOW));
  const compaction = (p: ScratchProject) => sweepMarkers(p.store, NOW);
  await t.step("6 days 23 hours old: every mark kept", async () => {
    const all = files.map((f) => `${f}s-old`).sort();
    assert.deepEqual(await after(7 * 24 - 1, nudge), all);
    assert.deepEqual(await after(7 * 24 - 1, compaction), all);
  });
  await t.step("7 days 1 hour old: a nudge prunes the pressure files", async () => {
    assert.deepEqual(await after(7 * 24 + 1, nudge), [".compact-s-old", ".restored-s-old"]);
  });
  await t.step("7 days 1 hour old: a compaction prunes the restore's marks", async () => {
    assert.deepEqual(await after(7 * 24 + 1, compaction), [".fill-s-old", ".nudged-s-old"]);
  });
});
