/**
 * Crash safety: `dump`, `park`, `drop`, `recall` and the hook are killed with SIGKILL at random
 * moments (seeded; drawn over a normal run's duration, half of them in its last part where the
 * writes happen), and the store must still keep every
 * promise: each document parses and is the old or the new version, no temp file passes for a
 * document, LATEST is empty or names an existing document, PARKED.md holds the old or the new
 * list, and a dropped item is never lost (logged before it leaves PARKED.md).
 *
 * Trials: 100 per command (about 20 s on a 2-core machine); SESSION_CRASH_TRIALS=N changes it.
 * With 20 or more, the kills must land both before and after the command's commit point, so a
 * harness that always killed too early (or too late) fails instead of passing vacuously.
 */

import assert from "node:assert/strict";
import { TEMP_PREFIX } from "../lib/fs/atomic.ts";
import { markConsumed, splitFrontMatter } from "../lib/store/front_matter.ts";
import { parseParked } from "../lib/parked/scanner.ts";
import { isSafeSlug, type Store, storeAt } from "../lib/store/store.ts";
import { join } from "../lib/fs/path.ts";
import { readLatest } from "../lib/store/latest.ts";
import { isoStamp } from "../lib/store/time.ts";
import { CLI, git, HOOK, NOW, scratchProject, tempFilesIn, writeDoc } from "./support/scratch.ts";
import { clearPayload, runCliInProcess } from "./support/run.ts";
import { prng } from "./support/prng.ts";

const TRIALS = Number(Deno.env.get("SESSION_CRASH_TRIALS") ?? 100);

const PARKED = [
  "# Parked items",
  "",
  "- **old-a** — First open loop. Raised: 2026-11-29. Why: a reason. Next: a step.",
  "- **old-b** — Second open loop. Raised: 2026-11-29.",
  "- **old-c** — Third open loop. Raised: 2026-11-29.",
  "",
].join("\n");

const DUMP_BODY = "## Goal\n\nSurvive a kill.\n\n## Next step\n\nCheck the store.\n";

/** One command under test: its argv (script + args), stdin, and what "new" may look like. */
interface Subject {
  name: string;
  script: string;
  args: string[];
  stdin: string;
  /** Slugs PARKED.md may hold after the run besides the old ones (park) or without (drop). */
  parkedNew: (old: string[]) => string[];
  /** Whether the store shows the run completed (checked after a run that was not killed). */
  done: (store: Store) => boolean;
}

const consumed = (store: Store, slug: string) =>
  /^consumed: true$/m.test(Deno.readTextFileSync(join(store.dir, `${slug}.md`)));
const parkedSlugs = (store: Store) =>
  parseParked(Deno.readTextFileSync(store.parked)).items.map((i) => i.slug);

function subjects(root: string): Subject[] {
  return [
    {
      name: "dump",
      script: CLI,
      args: ["dump", "crash-dump"],
      stdin: DUMP_BODY,
      parkedNew: (old) => old,
      done: (store) => readLatest(store) === "crash-dump",
    },
    {
      name: "park",
      script: CLI,
      args: ["park", "a new crash item", "--why", "kill test"],
      stdin: "",
      parkedNew: (old) => [...old, "new-crash-item"],
      done: (store) => parkedSlugs(store).includes("new-crash-item"),
    },
    {
      name: "drop",
      script: CLI,
      args: ["drop", "old-b"],
      stdin: "",
      parkedNew: (old) => old.filter((s) => s !== "old-b"),
      done: (store) => !parkedSlugs(store).includes("old-b"),
    },
    {
      name: "recall",
      script: CLI,
      args: ["recall"],
      stdin: "",
      parkedNew: (old) => old,
      done: (store) => consumed(store, "fresh") && readLatest(store) === undefined,
    },
    {
      name: "hook",
      script: HOOK,
      args: [],
      stdin: clearPayload(root),
      parkedNew: (old) => old,
      done: (store) => consumed(store, "fresh") && readLatest(store) === undefined,
    },
  ];
}

/** Resets the store: two documents (LATEST → the fresh one) and three parked items. */
async function seed(store: Store): Promise<Map<string, string>> {
  for (const e of Deno.readDirSync(store.dir)) {
    await Deno.remove(join(store.dir, e.name), { recursive: true });
  }
  const docs = new Map<string, string>();
  docs.set("older", await writeDoc(store, "older", { latest: false, consumed: true }));
  docs.set("fresh", await writeDoc(store, "fresh"));
  await Deno.writeTextFile(store.parked, PARKED);
  return docs;
}

/** Spawns `subject`, kills it with SIGKILL after `delayMs` (if still running); returns when dead. */
async function runAndKill(subject: Subject, cwd: string, delayMs: number): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run=git",
      subject.script,
      ...subject.args,
    ],
    cwd,
    env: { SESSION_NOW: isoStamp(NOW), NO_COLOR: "1" },
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(subject.stdin)).catch(() => {});
  await w.close().catch(() => {});
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* already exited */ }
  }, delayMs);
  await child.status;
  clearTimeout(timer);
  return performance.now() - started;
}

/** Every invariant of a store after a crash; `docs` are the documents seeded before the run. */
async function checkStore(store: Store, docs: Map<string, string>, subject: Subject, at: string) {
  const names = [...Deno.readDirSync(store.dir)].map((e) => e.name);
  for (const name of names) {
    if (name.startsWith(TEMP_PREFIX) || !name.endsWith(".md") || name === "PARKED.md") continue;
    const slug = name.slice(0, -3);
    const text = await Deno.readTextFile(join(store.dir, name));
    assert.ok(splitFrontMatter(text), `${at}: ${name} has front matter`);
    const old = docs.get(slug);
    if (old !== undefined) {
      assert.ok(text === old || text === markConsumed(old), `${at}: ${name} is old or consumed`);
    } else {
      assert.match(text, /## Goal\n\nSurvive a kill\./, `${at}: a new document is whole`);
    }
  }
  // LATEST: empty/missing, or a document that exists.
  const latest = readLatest(store);
  if (latest !== undefined) {
    assert.ok(isSafeSlug(latest), `${at}: LATEST is a safe slug`);
    assert.ok(names.includes(`${latest}.md`), `${at}: LATEST names an existing document`);
  }
  // PARKED.md: the old list or the new one; a dropped item is in dropped.jsonl.
  const parked = parseParked(await Deno.readTextFile(store.parked)).items.map((i) => i.slug);
  const old = parseParked(PARKED).items.map((i) => i.slug);
  const next = subject.parkedNew(old);
  assert.ok(
    JSON.stringify(parked) === JSON.stringify(old) ||
      JSON.stringify(parked) === JSON.stringify(next),
    `${at}: PARKED.md holds the old or the new list: ${parked.join(", ")}`,
  );
  for (const slug of old) {
    if (parked.includes(slug)) continue;
    const log = await Deno.readTextFile(store.dropped);
    const entries = log.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
    assert.ok(entries.some((e) => e.item === slug && e.text), `${at}: ${slug} is logged`);
  }
  // The CLI still works, and no temp file is listed as a handover.
  const listed = await runCliInProcess(["list", "--json"], { cwd: store.root });
  assert.equal(listed.code, 0, `${at}: list after the crash: ${listed.err}`);
  for (const h of JSON.parse(listed.out).handovers as { slug: string }[]) {
    assert.ok(!h.slug.startsWith(TEMP_PREFIX) && !h.slug.startsWith("."), `${at}: ${h.slug}`);
  }
}

Deno.test(`crash safety: SIGKILL at random moments (${TRIALS} trials per command)`, async (t) => {
  await using p = await scratchProject({ git: false });
  await git(p.root, ["init", "-q", "-b", "main"]);
  for (const subject of subjects(p.root)) {
    await t.step(subject.name, async () => {
      // A normal run's duration sets the range the kill moments are drawn from.
      let docs = await seed(p.store);
      let full = await runAndKill(subject, p.root, 60_000);
      await checkStore(p.store, docs, subject, `${subject.name} (not killed)`);
      assert.ok(subject.done(p.store), `${subject.name} completes when not killed`);
      const random = prng(0x5e55 + subject.name.length);
      let completed = 0;
      for (let trial = 0; trial < TRIALS; trial++) {
        // The machine's load drifts (tests run in parallel): every tenth round first times a
        // normal run again, so the kill moments keep following how long a run takes now.
        if (trial > 0 && trial % 10 === 0) {
          docs = await seed(p.store);
          full = await runAndKill(subject, p.root, 60_000);
          await checkStore(p.store, docs, subject, `${subject.name} (re-timed)`);
        }
        docs = await seed(p.store);
        // Half the kills anywhere in the run, half in its last part, where the writes are.
        const delay = full * (trial % 2 ? random() * 1.1 : 0.6 + random() * 0.5);
        await runAndKill(subject, p.root, delay);
        await checkStore(
          p.store,
          docs,
          subject,
          `${subject.name} #${trial} (${delay.toFixed(0)} ms)`,
        );
        if (subject.done(p.store)) completed++;
      }
      if (TRIALS >= 20) {
        // Load on a shared machine can push every drawn moment to one side of the commit
        // point. Then aim at the side not yet seen (kills much later, or much earlier) until
        // it is: the harness must show kills landing both before and after the commit.
        for (let extra = 1; extra <= 10 && (completed === 0 || completed === TRIALS); extra++) {
          const late = completed === 0;
          docs = await seed(p.store);
          const delay = late ? full * (1 + extra) : (full * random()) / (4 * extra);
          await runAndKill(subject, p.root, delay);
          const at = `${subject.name} extra #${extra} (${delay.toFixed(0)} ms)`;
          await checkStore(p.store, docs, subject, at);
          if (subject.done(p.store) === late) completed += late ? 1 : -1;
        }
        assert.ok(completed > 0 && completed < TRIALS, `${completed}/${TRIALS} completed`);
      }
    });
  }
});

// ------------------------------------------------------------ faults at the write itself

/** One writer of a document: how to run it, and its exit code when its write fails. */
interface Writer {
  name: string;
  script: string;
  args: string[];
  stdin: (root: string) => string;
  /** The document it writes: "same" is seeded before each run. */
  failCode: number;
  /** Seeds the store: the document "same" with its `consumed` quoted. */
  quoted?: boolean;
}

const WRITERS: Writer[] = [
  { name: "hook", script: HOOK, args: [], stdin: clearPayload, failCode: 0 },
  {
    name: "hook (quoted consumed)",
    script: HOOK,
    args: [],
    stdin: clearPayload,
    failCode: 0,
    quoted: true,
  },
  { name: "recall", script: CLI, args: ["recall", "same"], stdin: () => "", failCode: 1 },
  {
    name: "dump --force",
    script: CLI,
    args: ["dump", "same", "--force"],
    stdin: () => DUMP_BODY,
    failCode: 1,
  },
];

/** Seeds "same" (pointed to by LATEST) and returns its text. */
async function seedSame(store: Store, quoted = false): Promise<string> {
  for (const e of Deno.readDirSync(store.dir)) {
    if (e.name.startsWith(TEMP_PREFIX)) Deno.removeSync(join(store.dir, e.name));
  }
  const text = await writeDoc(store, "same");
  if (!quoted) return text;
  const q = text.replace("consumed: false", 'consumed: "false"');
  Deno.writeTextFileSync(join(store.dir, "same.md"), q);
  return q;
}

/** Spawns a writer with a fault set (none when ""); stdin fed and closed. */
function spawnWriter(w: Writer, root: string, fault: string) {
  const child = new Deno.Command(Deno.execPath(), {
    // The CLI takes the fault from SESSION_FAULT, the hook from its own flag (lib/fs/atomic.ts).
    args: ["run", "-A", w.script, ...w.args, ...(w.script === HOOK ? ["--test-fault", fault] : [])],
    cwd: root,
    env: { SESSION_NOW: isoStamp(NOW), NO_COLOR: "1", SESSION_FAULT: fault, SESSION_DEBUG: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  writer.write(new TextEncoder().encode(w.stdin(root))).then(() => writer.close()).catch(() => {});
  return child;
}

/** The store is exactly as seeded: the document byte for byte, LATEST naming it, no half file. */
function assertUntouched(store: Store, text: string, what: string) {
  assert.equal(Deno.readTextFileSync(join(store.dir, "same.md")), text, `${what}: document`);
  assert.equal(readLatest(store), "same", `${what}: LATEST`);
}

Deno.test("a write cut short at the write itself leaves the store as it was", async (t) => {
  await using p = await scratchProject({ git: false });
  await git(p.root, ["init", "-q", "-b", "main"]);
  for (const w of WRITERS) {
    await t.step(`${w.name}: a failed write (SESSION_FAULT=short-write)`, async () => {
      const text = await seedSame(p.store, w.quoted);
      const out = await spawnWriter(w, p.root, "short-write").output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, w.failCode, stderr);
      assert.match(stderr, /No space left on device/);
      if (w.script === HOOK) assert.equal(new TextDecoder().decode(out.stdout), "");
      assertUntouched(p.store, text, w.name);
      assert.deepEqual(tempFilesIn(p.store.dir), [], "the half-written temp file is removed");
    });
    await t.step(`${w.name}: killed mid-write (SESSION_FAULT=pause)`, async () => {
      const text = await seedSame(p.store, w.quoted);
      const child = spawnWriter(w, p.root, "pause");
      const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
      let said = "";
      while (!said.includes("session fault: paused mid-write")) {
        const { value, done } = await reader.read();
        if (done) break;
        said += value;
      }
      assert.match(said, /paused mid-write/, "the writer reached its write");
      child.kill("SIGKILL");
      await child.status;
      reader.releaseLock();
      await child.stdout.cancel();
      assertUntouched(p.store, text, w.name);
      if (w.script === HOOK) {
        // The next hook injects it, once, and flips it byte for byte.
        const ran = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", HOOK],
          env: { SESSION_NOW: isoStamp(NOW) },
          stdin: "piped",
          stdout: "piped",
        }).spawn();
        const wr = ran.stdin.getWriter();
        await wr.write(new TextEncoder().encode(clearPayload(p.root)));
        await wr.close();
        const res = await ran.output();
        assert.match(new TextDecoder().decode(res.stdout), /additionalContext/);
        assert.equal(
          Deno.readTextFileSync(join(p.store.dir, "same.md")),
          markConsumed(text),
          "consumed byte for byte",
        );
      }
    });
  }
});

/** Whether this process may mount a tmpfs (root, and a kernel and sandbox that allow it). */
function canMount(): string | undefined {
  const dir = Deno.makeTempDirSync({ prefix: "session-mount-probe-" });
  try {
    const m = new Deno.Command("mount", { args: ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir] })
      .outputSync();
    if (!m.success) return new TextDecoder().decode(m.stderr).trim() || "mount failed";
    new Deno.Command("umount", { args: [dir] }).outputSync();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  } finally {
    Deno.removeSync(dir);
  }
}

const MOUNT_REFUSED = Deno.build.os === "linux" ? canMount() : "not Linux";
if (MOUNT_REFUSED) console.warn(`full-disk test skipped: cannot mount a tmpfs (${MOUNT_REFUSED})`);

Deno.test({
  name: "a full disk (a real tmpfs): no write loses LATEST or the document",
  ignore: MOUNT_REFUSED !== undefined,
  fn: async (t) => {
    const mnt = await Deno.makeTempDir({ prefix: "session-full-" });
    const m = await new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "size=512k", "tmpfs", mnt],
    }).output();
    assert.ok(m.success, new TextDecoder().decode(m.stderr));
    try {
      const root = join(mnt, "project");
      await Deno.mkdir(join(root, ".git"), { recursive: true });
      const store = storeAt(root);
      await Deno.mkdir(store.dir, { recursive: true });
      const filler = join(mnt, "filler");
      /** Fills the filesystem to the last byte. */
      const fill = () => {
        const f = Deno.openSync(filler, { write: true, create: true, append: true });
        const chunk = new Uint8Array(4096);
        try {
          for (;;) f.writeSync(chunk);
        } catch (err) {
          assert.match(String(err), /No space left on device/);
        } finally {
          f.close();
        }
      };
      for (const w of WRITERS) {
        await t.step(w.name, async () => {
          const text = await seedSame(store, w.quoted);
          // The lock file exists before the disk fills (an empty file needs no block).
          Deno.writeTextFileSync(join(store.dir, ".docs.lock"), "");
          fill();
          const out = await spawnWriter(w, root, "").output();
          const stderr = new TextDecoder().decode(out.stderr);
          Deno.removeSync(filler);
          assert.equal(out.code, w.failCode, stderr);
          assert.match(stderr, /No space left on device/);
          assertUntouched(store, text, w.name);
          if (w.script === HOOK) {
            // Space freed: the handover is still there to restore.
            const again = await spawnWriter(w, root, "").output();
            assert.match(new TextDecoder().decode(again.stdout), /additionalContext/);
          }
        });
      }
    } finally {
      await new Deno.Command("umount", { args: [mnt] }).output();
      await Deno.remove(mnt, { recursive: true });
    }
  },
});
