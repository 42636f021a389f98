/**
 * Concurrency: the store's promises hold when processes race — 50 parallel `park` keep 50 items,
 * `drop` racing `park` loses neither, two `dump`s make two documents, two hooks inject once, and a
 * lock dies with its holder. Every test runs real processes (`deno run … session.ts`).
 *
 * Trials: SESSION_STRESS=1 runs the many-trial loops 5× longer (CI runs the default).
 */

import assert from "node:assert/strict";
import { createFileAtomic, writeFileAtomicSync } from "../lib/fs/atomic.ts";
import { run as recall } from "../lib/cli/recall.ts";
import { DEFAULT_OPTIONS } from "../lib/hook/input.ts";
import { acquireLock, acquireLockSync, docsLockTarget } from "../lib/fs/lock.ts";
import { findPending } from "../lib/hook/restore.ts";
import { consumePending } from "../lib/hook/pending.ts";
import { isoStamp } from "../lib/store/time.ts";
import { parseParked } from "../lib/parked/scanner.ts";
import {
  FREED_WAIT_MS,
  git,
  LOCK_KINDS,
  NOW,
  REPO,
  scratchDir,
  scratchProject,
  writeDoc,
} from "./support/scratch.ts";
import { clearPayload, contextOf, runCliProcess, runHookProcess } from "./support/run.ts";
import { docPath } from "../lib/store/store.ts";
import { join } from "../lib/fs/path.ts";
import { readLatest } from "../lib/store/latest.ts";

const STRESS = Deno.env.get("SESSION_STRESS") === "1" ? 5 : 1;

function parked(root: string): ReturnType<typeof parseParked> {
  let text = "";
  try {
    text = Deno.readTextFileSync(join(root, ".claude/state/session/PARKED.md"));
  } catch { /* no file: no items */ }
  return parseParked(text);
}

Deno.test("concurrency", async (t) => {
  await t.step("createFileAtomic: of 20 writers racing for one name exactly one wins", async () => {
    await using dirScratch = await scratchDir();
    const dir = dirScratch.path;
    const path = join(dir, "doc.md");
    const won = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createFileAtomic(path, `writer ${i}\n`)),
    );
    assert.equal(won.filter(Boolean).length, 1);
    assert.equal(await Deno.readTextFile(path), `writer ${won.indexOf(true)}\n`);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["doc.md"], "no temp left");
  });

  await t.step("50 parallel park processes keep 50 items", async () => {
    await using p = await scratchProject();
    const runs = await Promise.all(
      Array.from(
        { length: 50 },
        (_, i) =>
          runCliProcess(["park", `parallel item number ${i}`, "--why", `race ${i}`], {
            cwd: p.root,
          }),
      ),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const doc = parked(p.root);
    assert.equal(doc.items.length, 50);
    assert.equal(new Set(doc.items.map((i) => i.slug)).size, 50, "50 distinct slugs");
    for (let i = 0; i < 50; i++) {
      assert.ok(doc.items.some((it) => it.summary === `parallel item number ${i}`), `item ${i}`);
    }
  });

  await t.step("drop racing park loses neither (drops logged, parks kept)", async () => {
    await using p = await scratchProject();
    const seed = Array.from({ length: 10 }, (_, i) => `- **old-${i}** — Old item ${i}.`);
    await Deno.writeTextFile(p.store.parked, `# Parked items\n\n${seed.join("\n")}\n`);
    const drops = Array.from(
      { length: 5 },
      (_, i) => runCliProcess(["drop", `old-${i}`], { cwd: p.root }),
    );
    const parks = Array.from(
      { length: 5 },
      (_, i) => runCliProcess(["park", `fresh thing ${i}`], { cwd: p.root }),
    );
    const runs = await Promise.all([...drops, ...parks]);
    for (const r of runs) assert.equal(r.code, 0, r.stdout + r.stderr);
    const slugs = parked(p.root).items.map((i) => i.slug).sort();
    const expected = [
      ...Array.from({ length: 5 }, (_, i) => `old-${i + 5}`),
      ...Array.from({ length: 5 }, (_, i) => `fresh-thing-${i}`),
    ].sort();
    assert.deepEqual(slugs, expected);
    const log = (await Deno.readTextFile(p.store.dropped)).split("\n").filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { item: string; action: string; text: string });
    for (const e of log) assert.equal(e.action, "dropped");
    assert.deepEqual(log.map((e) => e.item).sort(), [
      "old-0",
      "old-1",
      "old-2",
      "old-3",
      "old-4",
    ]);
    for (const e of log) assert.match(String(e.text), new RegExp(`Old item ${e.item.slice(4)}`));
  });

  await t.step("two dumps at once: two documents, LATEST names one of them", async () => {
    for (let trial = 0; trial < 3 * STRESS; trial++) {
      await using p = await scratchProject({ git: false });
      await git(p.root, ["init", "-q", "-b", "main"]);
      const body = (n: number) => `## Goal\n\nDump number ${n}.\n\n## Next step\n\nGo on.\n`;
      const [a, b] = await Promise.all([
        runCliProcess(["dump", "same-name"], { cwd: p.root, stdin: body(1) }),
        runCliProcess(["dump", "same-name"], { cwd: p.root, stdin: body(2) }),
      ]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      const docs = [...Deno.readDirSync(p.store.dir)].map((e) => e.name)
        .filter((n) => n.endsWith(".md") && n !== "PARKED.md").sort();
      assert.deepEqual(docs, ["same-name-2.md", "same-name.md"], `trial ${trial}`);
      const texts = docs.map((d) => Deno.readTextFileSync(join(p.store.dir, d)));
      assert.ok(texts.some((x) => x.includes("Dump number 1.")), "the first dump survived");
      assert.ok(texts.some((x) => x.includes("Dump number 2.")), "the second dump survived");
      const latest = readLatest(p.store);
      assert.ok(latest === "same-name" || latest === "same-name-2", `LATEST: ${latest}`);
    }
  });

  await t.step("four hooks at once inject exactly once (many trials)", async () => {
    // A planted race (no re-read under the lock) showed within ~5 trials of three hooks; four
    // hooks and 30 trials, half of them with a quoted `consumed`, leave it no room.
    const trials = 30 * STRESS;
    for (let trial = 0; trial < trials; trial++) {
      await using p = await scratchProject();
      const text = await writeDoc(p.store, `race-${trial}`);
      const doc = join(p.store.dir, `race-${trial}.md`);
      if (trial % 2) Deno.writeTextFileSync(doc, text.replace(": false", ': "false"'));
      const payload = clearPayload(p.root);
      const runs = await Promise.all([1, 2, 3, 4].map(() => runHookProcess(payload)));
      for (const r of runs) assert.equal(r.code, 0);
      const injected = runs.filter((r) => contextOf(r) !== undefined);
      assert.equal(injected.length, 1, `trial ${trial}: ${injected.length} injections`);
      assert.equal(readLatest(p.store), undefined, "LATEST cleared");
      assert.match(Deno.readTextFileSync(doc), /^consumed: "?true"?$/m);
    }
  });

  // The flock kind needs a Deno with OS locks (2.0 and 2.2 have only the file kind).
  for (const kind of LOCK_KINDS) {
    await t.step(`a ${kind} lock is released when its holder is killed`, async () => {
      await using p = await scratchProject();
      // A holder that takes the lock, says so, and then hangs until killed.
      const code = `import { acquireLock } from ${JSON.stringify(`${REPO}/lib/fs/lock.ts`)};
          await acquireLock(${JSON.stringify(p.store.parked)}, { kind: "${kind}" });
          console.log("held");
          await new Promise(() => setInterval(() => {}, 1000));`;
      const holder = new Deno.Command(Deno.execPath(), {
        args: ["eval", code],
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const reader = holder.stdout.getReader();
      const first = await reader.read();
      assert.match(new TextDecoder().decode(first.value), /held/);
      reader.releaseLock();
      holder.kill("SIGKILL");
      await holder.status;
      await holder.stdout.cancel();
      await holder.stderr.cancel();
      // A dead holder's flock is gone at once; a dead holder's lock file is recognised (same
      // boot, no such pid) and taken over — both well before the 30 s wait runs out.
      const started = performance.now();
      const { acquireLock } = await import("../lib/fs/lock.ts");
      const lock = await acquireLock(p.store.parked, { kind, waitMs: 5_000 });
      lock.release();
      assert.ok(performance.now() - started < 5_000);
      const r = await runCliProcess(["park", "after the crash"], { cwd: p.root });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(parked(p.root).items.length, 1);
    });
  }
});

/** The payload, options and now the in-process hook steps below use. */
const HOOK_NOW = NOW;

/** The hook's gates read the store of `root` (lib/hook/restore.ts `findPending`), claiming nothing. */
async function gatesRead(root: string) {
  const found = await findPending(JSON.parse(clearPayload(root)), DEFAULT_OPTIONS, {}, HOOK_NOW);
  assert.ok(!("reason" in found), JSON.stringify(found));
  return found;
}

Deno.test("no writer of a document writes an older version over a newer one", async (t) => {
  await t.step(
    "hook: a dump of another name between its read and its lock keeps its pointer",
    async () => {
      await using p = await scratchProject();
      const old = await writeDoc(p.store, "first");
      const seen = await gatesRead(p.root);
      // The forced interleaving: `dump second` lands after the gates read, before the lock.
      const second = await writeDoc(p.store, "second");
      const outcome = await consumePending(seen, HOOK_NOW, DEFAULT_OPTIONS.budget);
      assert.deepEqual(outcome, { injected: false, reason: "the store changed meanwhile" });
      assert.equal(readLatest(p.store), "second", "the new dump's pointer kept");
      assert.equal(Deno.readTextFileSync(docPath(p.store, "first")), old, "the old one untouched");
      assert.equal(Deno.readTextFileSync(docPath(p.store, "second")), second);
      // And the hook run afresh injects the new one, once.
      const r = await runHookProcess(clearPayload(p.root));
      assert.match(contextOf(r) ?? "", /left this handover: "second"/);
    },
  );
  await t.step("hook: two hooks that read the same store inject once", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "once");
    const a = await gatesRead(p.root);
    const b = await gatesRead(p.root);
    assert.equal((await consumePending(a, HOOK_NOW, DEFAULT_OPTIONS.budget)).injected, true);
    assert.deepEqual(await consumePending(b, HOOK_NOW, DEFAULT_OPTIONS.budget), {
      injected: false,
      reason: "the store changed meanwhile",
    });
    assert.match(Deno.readTextFileSync(docPath(p.store, "once")), /^consumed: true$/m);
  });
  await t.step(
    "a hook that cannot have the lock within 2 s stays silent, store untouched",
    async () => {
      await using p = await scratchProject();
      const text = await writeDoc(p.store, "held");
      const held = await acquireLock(docsLockTarget(p.store.dir));
      try {
        const r = await runHookProcess(clearPayload(p.root), { env: { SESSION_DEBUG: "1" } });
        assert.equal(r.stdout, "");
        assert.match(
          r.stderr,
          /session_restore: the store's lock: another session process has held/,
        );
        assert.equal(Deno.readTextFileSync(docPath(p.store, "held")), text);
        assert.equal(readLatest(p.store), "held");
      } finally {
        held.release();
      }
      assert.match(
        contextOf(await runHookProcess(clearPayload(p.root))) ?? "",
        /left this handover: "held"/,
      );
    },
  );
  await t.step(
    "acquireLockSync: excludes a holder of either kind, gives up after waitMs",
    async () => {
      await using p = await scratchProject();
      for (const kind of LOCK_KINDS) {
        const target = docsLockTarget(p.store.dir);
        const held = await acquireLock(target, { kind });
        assert.throws(
          () => acquireLockSync(target, { kind, waitMs: 50 }),
          (e: Error) => e.name === "LockTimeoutError",
          kind,
        );
        held.release();
        acquireLockSync(target, { kind, waitMs: FREED_WAIT_MS }).release();
      }
    },
  );
  await t.step("hook: a dump --force between its read and its lock wins", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "same", { body: "## Goal\n\nThe old dump.\n" });
    const found = await findPending(
      JSON.parse(clearPayload(p.root)),
      DEFAULT_OPTIONS,
      {},
      HOOK_NOW,
    );
    assert.ok(!("reason" in found));
    const newer = await writeDoc(p.store, "same", { body: "## Goal\n\nThe new dump.\n" });
    const outcome = await consumePending(found, HOOK_NOW, DEFAULT_OPTIONS.budget);
    assert.deepEqual(outcome, { injected: false, reason: "the store changed meanwhile" });
    assert.equal(Deno.readTextFileSync(docPath(p.store, "same")), newer);
    assert.equal(readLatest(p.store), "same");
  });
  await t.step("recall: a dump --force after it printed, before it writes, wins", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "same", { body: "## Goal\n\nThe old dump.\n" });
    let newer = "";
    const out: string[] = [];
    const code = await recall(["same"], {
      cwd: p.root,
      env: () => undefined,
      now: NOW,
      readStdin: () => Promise.resolve(""),
      // The forced interleaving: the dump lands while recall prints.
      out: (text) => {
        out.push(text);
        newer = writeDocSync(p.store, "same", "## Goal\n\nThe new dump.\n");
      },
      err: () => {},
    });
    assert.equal(code, 0);
    assert.match(out.join("\n"), /The old dump\./);
    assert.equal(Deno.readTextFileSync(docPath(p.store, "same")), newer, "the new dump kept");
    assert.equal(readLatest(p.store), "same", "its pointer kept: it was not recalled");
  });
  await t.step("recall waits for the docs lock before it writes", async () => {
    await using p = await scratchProject();
    const text = await writeDoc(p.store, "held");
    const held = await acquireLock(docsLockTarget(p.store.dir));
    const running = runCliProcess(["recall", "held"], { cwd: p.root });
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(Deno.readTextFileSync(docPath(p.store, "held")), text, "no write under a lock");
    held.release();
    assert.equal((await running).code, 0);
    assert.match(Deno.readTextFileSync(docPath(p.store, "held")), /^consumed: true$/m);
  });

  // Processes: the hook and `dump --force` of the same name, started together. Every trial the
  // store must end with the new dump's text (consumed or not), never the old one written back.
  const trials = Deno.env.get("SESSION_STRESS") === "1" ? 1000 : 25;
  await t.step(`hook racing dump --force: the new dump survives (${trials} trials)`, async () => {
    await using p = await scratchProject({ git: false });
    await git(p.root, ["init", "-q", "-b", "main"]);
    let lost = 0;
    for (let trial = 0; trial < trials; trial++) {
      await writeDoc(p.store, "same", { body: `## Goal\n\nOld ${trial}.\n` });
      const [hook, dump] = await Promise.all([
        runHookProcess(clearPayload(p.root)),
        runCliProcess(["dump", "same", "--force"], {
          cwd: p.root,
          stdin: `## Goal\n\nNew ${trial}.\n`,
        }),
      ]);
      assert.equal(hook.code, 0, hook.stderr);
      assert.equal(dump.code, 0, dump.stderr);
      const doc = Deno.readTextFileSync(docPath(p.store, "same"));
      if (!doc.includes(`New ${trial}.`)) lost++;
      // The new dump is consumed exactly when the hook injected it; else it is still pending.
      const gotNew = contextOf(hook)?.includes(`New ${trial}.`) === true;
      assert.equal(/^consumed: true$/m.test(doc), gotNew, `trial ${trial}: consumed`);
      assert.equal(readLatest(p.store), gotNew ? undefined : "same", `trial ${trial}: LATEST`);
    }
    assert.equal(lost, 0, `${lost} of ${trials} trials lost the new dump`);
  });
});

/** `dump --force` as it lands on disk: the document, then LATEST (both atomic). */
function writeDocSync(store: { dir: string; latest: string }, slug: string, body: string): string {
  const text = `---\nslug: ${slug}\ncreated: ${
    isoStamp(NOW)
  }\nconsumed: false\nbranch: main\n---\n\n${body}`;
  writeFileAtomicSync(join(store.dir, `${slug}.md`), text);
  writeFileAtomicSync(store.latest, slug + "\n");
  return text;
}
