/**
 * Hostile stores: a store that is a symlink out of the project, a read-only store and a full
 * disk. Each mode that writes must say so in one line, exit 1, and leave nothing half-written.
 *
 * The read-only and full-disk cases mount a tiny tmpfs over the store inside an unprivileged
 * user + mount namespace (`unshare -rm`), so they need no root; where the machine forbids user
 * namespaces they are skipped, with the reason in the test name.
 */

import assert from "node:assert/strict";
import { TEMP_PREFIX } from "../lib/fs/atomic.ts";
import { join } from "../lib/fs/path.ts";
import { CLI, git, scratchDir, scratchProject, writeDoc } from "./support/scratch.ts";
import { runCliProcess } from "./support/run.ts";
import { canUnshare, inNamespace } from "./support/namespace.ts";

const PARKED = "# Parked items\n\n- **keep-me** — An item that must survive. Raised: 2026-11-30.\n";

/** The writing modes and their arguments. */
const WRITERS: [string, string[], string?][] = [
  ["park", ["park", "a new item"]],
  ["drop", ["drop", "keep-me"]],
  ["dump", ["dump", "new-doc"], "## Goal\n\nG.\n\n## Next step\n\nN.\n"],
  ["recall", ["recall", "fresh"]],
];

const UNSHARE = canUnshare();

function assertOneLineMessage(stderr: string, what: string) {
  assert.ok(stderr.trim() !== "", `${what}: says something`);
  assert.ok(!/^\s+at /m.test(stderr), `${what}: no stack trace:\n${stderr}`);
}

Deno.test("hostile store: a symlink out of the project is refused by every mode", async (t) => {
  await using p = await scratchProject({ store: false });
  await using outsideDir = await scratchDir("session-outside-");
  const outside = outsideDir.path;
  await git(p.root, ["init", "-q", "-b", "main"]).catch(() => {});
  await Deno.mkdir(join(p.root, ".claude/state"), { recursive: true });
  await Deno.writeTextFile(join(outside, "PARKED.md"), PARKED);
  await Deno.symlink(outside, p.store.dir);
  const before = [...Deno.readDirSync(outside)].map((e) => e.name).sort();
  for (const [mode, args, stdin] of [...WRITERS, ["list", ["list"]] as [string, string[]]]) {
    await t.step(mode, async () => {
      const r = await runCliProcess(args, { cwd: p.root, stdin });
      assert.equal(r.code, 1, `${mode}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /outside the project/);
      assertOneLineMessage(r.stderr, mode);
      assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name).sort(), before);
      assert.equal(await Deno.readTextFile(join(outside, "PARKED.md")), PARKED);
    });
  }
});

for (const condition of ["read-only", "full"] as const) {
  Deno.test({
    name: `hostile store: ${condition} (tmpfs in a user namespace)` +
      (UNSHARE ? "" : " — skipped: unshare -rm is not permitted here"),
    ignore: !UNSHARE,
    fn: async (t) => {
      await using p = await scratchProject({ git: false });
      await git(p.root, ["init", "-q", "-b", "main"]);
      const seed = join(p.root, "seed");
      await Deno.mkdir(seed);
      await Deno.writeTextFile(join(seed, "PARKED.md"), PARKED);
      const fresh = await writeDoc(
        { ...p.store, dir: seed, latest: join(seed, "LATEST") },
        "fresh",
      );
      const out = join(p.root, "out");
      await Deno.mkdir(out);
      // One namespace per writer: mount, seed, make it read-only or full, run, record.
      for (const [mode, args, stdin] of WRITERS) {
        await t.step(mode, async () => {
          const o = join(out, mode);
          await Deno.mkdir(o);
          if (stdin !== undefined) await Deno.writeTextFile(join(o, "stdin"), stdin);
          const spoil = condition === "read-only"
            ? `mount -o remount,ro "$S"`
            : `dd if=/dev/zero of="$S/.filler" bs=1k count=64 2>/dev/null || true`;
          const script = [
            "set -e",
            `S=${JSON.stringify(p.store.dir)}; O=${JSON.stringify(o)}`,
            `mount -t tmpfs -o size=32k none "$S"`,
            `cp -a ${JSON.stringify(seed)}/. "$S"/`,
            spoil,
            "set +e",
            [
              JSON.stringify(Deno.execPath()),
              "run --no-prompt --allow-read --allow-write --allow-env --allow-run=git",
              JSON.stringify(CLI),
              ...args.map((a) => JSON.stringify(a)),
              `< ${stdin !== undefined ? '"$O/stdin"' : "/dev/null"}`,
              `> "$O/stdout" 2> "$O/stderr"`,
            ].join(" "),
            `echo $? > "$O/code"`,
            `ls -A "$S" > "$O/ls"`,
            `cat "$S/PARKED.md" > "$O/parked"`,
            `cat "$S/fresh.md" > "$O/fresh"`,
            `cat "$S/LATEST" > "$O/latest" 2>/dev/null || true`,
          ].join("\n");
          const r = await inNamespace(script, p.root);
          assert.ok(r.success, `namespace script: ${r.stderr}`);
          const read = (f: string) => Deno.readTextFileSync(join(o, f));
          const code = Number(read("code"));
          assert.equal(code, 1, `${mode}: exit ${code}\n${read("stdout")}${read("stderr")}`);
          assertOneLineMessage(read("stderr"), mode);
          // Nothing half-written: the old files, byte for byte, and no temp file left behind.
          assert.equal(read("parked"), PARKED, `${mode}: PARKED.md unchanged`);
          assert.equal(read("fresh"), fresh, `${mode}: the document unchanged`);
          assert.equal(read("latest").trim(), "fresh", `${mode}: LATEST unchanged`);
          const names = read("ls").split("\n").filter((n) => n !== "");
          assert.deepEqual(names.filter((n) => n.startsWith(TEMP_PREFIX)), [], `${mode}: temp`);
          assert.ok(!names.includes("new-doc.md"), `${mode}: no new document`);
        });
      }
    },
  });
}
