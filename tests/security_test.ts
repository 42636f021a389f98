/**
 * Security: every path that comes from data (LATEST, names, slugs, session ids) stays inside the
 * store, and the hook — run with the flags `install` registers — cannot read or write outside
 * the project's store or spawn anything at all.
 *
 * Deno's `--allow-read=<root>` / `--allow-write=<store>` check paths as written, not as resolved:
 * a symlink inside the project can point anywhere. So the flags alone are not the proof; the
 * tests below also plant symlinks out of the project and check nothing outside is touched.
 */

import assert from "node:assert/strict";
import { hookCommand, hookFlags, LAUNCHER, shellQuote } from "../lib/agents/command.ts";
import { join } from "../lib/fs/path.ts";
import { isoStamp } from "../lib/store/time.ts";
import {
  NOW,
  onDispose,
  REPO,
  scratchDir,
  type ScratchProject,
  scratchProject,
  writeDoc,
} from "./support/scratch.ts";
import { clearPayload, type Ran, runCliProcess } from "./support/run.ts";
import { installHook, reasonOf, runRegistered } from "./support/registered.ts";

/**
 * Runs the hook exactly as Claude Code runs what `install` registered (tests/support/registered.ts),
 * with `payload` on stdin; installs first when the project has no registration yet.
 */
async function runRegisteredHook(p: ScratchProject, payload: string) {
  const command = await installHook(p.root);
  return runRegistered(command, payload, { cwd: p.root, projectDir: p.root });
}

/** The hook stayed silent for exactly `reason` (not a crash, not a permission error). */
function assertSilentFor(r: Ran, reason: string | RegExp) {
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "", "nothing injected");
  const got = reasonOf(r);
  assert.ok(got !== undefined, `a reason on stderr: ${r.stderr}`);
  if (typeof reason === "string") assert.equal(got, reason, r.stderr);
  else assert.match(got, reason, r.stderr);
}

/** The words of a command (for the tests here: no quoting inside the flags). */
function hookFlagsOf(command: string): string[] {
  return command.split(" ");
}

/** Every file under `dir` with its bytes, for before/after comparisons. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      const path = join(d, e.name);
      if (e.isDirectory) walk(path);
      else out[path] = e.isSymlink ? `-> ${Deno.readLinkSync(path)}` : Deno.readTextFileSync(path);
    }
  };
  walk(dir);
  return out;
}

Deno.test("security: the registered hook's flags confine whatever code runs under them", async () => {
  await using p = await scratchProject();
  await using outsideDir = await scratchDir("session-outside-");
  const outside = outsideDir.path;
  await Deno.writeTextFile(join(outside, "secret.txt"), "secret");
  const probe = join(outside, "probe.ts");
  // The probe tries everything the hook must not be able to do, and one thing it must.
  await Deno.writeTextFile(
    probe,
    `const tries = {
        readOutside: () => Deno.readTextFileSync(${JSON.stringify(join(outside, "secret.txt"))}),
        writeOutsideStore: () => Deno.writeTextFileSync(${
      JSON.stringify(join(p.root, "planted.txt"))
    }, "x"),
        writeOutside: () => Deno.writeTextFileSync(${JSON.stringify(join(outside, "w.txt"))}, "x"),
        spawnSh: () => new Deno.Command("sh", { args: ["-c", "true"] }).outputSync(),
        spawnGit: () => new Deno.Command("git", { args: ["--version"] }).outputSync(),
        readHome: () => Deno.env.get("HOME"),
        writeStore: () => Deno.writeTextFileSync(${
      JSON.stringify(join(p.store.dir, "ok.txt"))
    }, "x"),
      };
      const out = {};
      for (const [k, f] of Object.entries(tries)) {
        try { f(); out[k] = "allowed"; } catch (e) { out[k] = e.name; }
      }
      console.log(JSON.stringify(out));`,
  );
  // The registered command itself, with the probe in the hook script's place.
  const command = await installHook(p.root);
  const script = shellQuote(join(REPO, "session_restore.ts"));
  assert.ok(command.endsWith(` ${script}`), command);
  const r = await runRegistered(command.replace(script, shellQuote(probe)), "", {
    cwd: p.root,
    projectDir: p.root,
  });
  const got = JSON.parse(r.stdout);
  for (const k of ["readOutside", "writeOutsideStore", "writeOutside", "spawnSh", "spawnGit"]) {
    assert.notEqual(got[k], "allowed", `${k} must be denied: ${r.stdout}`);
  }
  assert.equal(got.writeStore, "allowed", "the store itself is writable");
  const flags = hookFlags({ root: p.root }, join(REPO, "lib"));
  // These are the flags `install` writes: the registered command is exactly the launcher, told
  // its event, then `run` + them (the launcher execs Deno with these words unchanged).
  const launcher = ["sh", join(REPO, LAUNCHER), "--event", "SessionStart"];
  assert.equal(
    command,
    [...launcher, "run", ...flags, join(REPO, "session_restore.ts")].map(shellQuote).join(" "),
  );
  assert.equal(
    hookCommand("/opt/s/session_restore.ts", { root: "/r" }),
    [
      ...["sh", "/opt/s/bin/with-deno", "--event", "SessionStart", "run"],
      ...hookFlags({ root: "/r" }, "/opt/s/lib"),
      "/opt/s/session_restore.ts",
    ].join(" "),
  );
  assert.ok(flags.includes("--no-prompt"), "never prompts");
  assert.ok(!flags.some((f) => /^--allow-(all|run|net|ffi|sys)|^-A$/.test(f)), flags.join(" "));
  if (flags.some((f) => f.startsWith("--allow-env="))) {
    assert.notEqual(got.readHome, "allowed", "only the hook's own variables are readable");
  }
  assert.ok(!(await Deno.stat(join(p.root, "planted.txt")).catch(() => false)));
});

Deno.test("security: data-derived paths stay in the store", async (t) => {
  await using outsideDir = await scratchDir("session-outside-");
  const outside = outsideDir.path;
  const fresh = (slug: string) =>
    `---\nslug: ${slug}\ncreated: ${isoStamp(NOW)}\nconsumed: false\nbranch: main\n---\n\n` +
    `## Goal\n\nSECRET-${slug}\n`;
  await Deno.writeTextFile(join(outside, "evil.md"), fresh("evil"));
  const before = snapshot(outside);

  await t.step(
    "a store symlinked out of the project: the hook neither reads nor writes",
    async () => {
      await using p = await scratchProject({ store: false });
      await using _latest = onDispose(() => Deno.remove(join(outside, "LATEST")).catch(() => {}));
      await Deno.mkdir(join(p.root, ".claude/state"), { recursive: true });
      await Deno.writeTextFile(join(outside, "LATEST"), "evil\n");
      const withLatest = snapshot(outside);
      // Installed first: install itself refuses a store that leads outside.
      const command = await installHook(p.root);
      const home = await Deno.makeTempDir({ prefix: "session-home-" });
      const user = await installHook(p.root, { scope: "user", home }).finally(() =>
        Deno.remove(home, { recursive: true })
      );
      await Deno.symlink(outside, p.store.dir);
      const r = await runRegistered(command, clearPayload(p.root), {
        cwd: p.root,
        projectDir: p.root,
      });
      assertSilentFor(r, "the store leads outside the project");
      assert.deepEqual(snapshot(outside), withLatest, "nothing outside changed");
      // Not only the flags: with blanket permissions (a user's own registration) the hook
      // itself still refuses a store that leads outside the project.
      assert.ok(hookFlagsOf(user).includes("--allow-write"), user);
      const broad = await runRegistered(user, clearPayload(p.root), {
        cwd: p.root,
        projectDir: p.root,
      });
      assertSilentFor(broad, "the store leads outside the project");
      assert.deepEqual(snapshot(outside), withLatest, "blanket permissions: nothing changed");
      const recall = await runCliProcess(["recall"], { cwd: p.root });
      assert.equal(recall.code, 1);
      assert.ok(!recall.stdout.includes("SECRET"), "recall printed nothing from outside");
    },
  );

  const hostileLatest = [
    `../../../../..${outside}/evil`,
    `${outside}/evil`,
    "..\\evil",
    "sub/evil",
    "..",
    ".tmp-evil",
  ];
  for (const latest of hostileLatest) {
    await t.step(`LATEST = ${JSON.stringify(latest)}: hook silent, recall refuses`, async () => {
      await using p = await scratchProject();
      await Deno.writeTextFile(p.store.latest, latest + "\n");
      const r = await runRegisteredHook(p, clearPayload(p.root));
      assertSilentFor(r, "LATEST names an unsafe slug");
      // A user-wide hook may read and write any path: its own checks are all there is.
      const home = await Deno.makeTempDir({ prefix: "session-home-" });
      const user = await installHook(p.root, { scope: "user", home }).finally(() =>
        Deno.remove(home, { recursive: true })
      );
      const u = await runRegistered(user, clearPayload(p.root), {
        cwd: p.root,
        projectDir: p.root,
      });
      assertSilentFor(u, "LATEST names an unsafe slug");
      const recall = await runCliProcess(["recall"], { cwd: p.root });
      assert.notEqual(recall.code, 0);
      assert.ok(!recall.stdout.includes("SECRET"), recall.stdout);
      assert.deepEqual(snapshot(outside), before);
    });
  }

  await t.step("a document that is a symlink out of the store is never read", async () => {
    await using p = await scratchProject();
    await Deno.symlink(join(outside, "evil.md"), join(p.store.dir, "evil.md"));
    await Deno.writeTextFile(p.store.latest, "evil\n");
    const r = await runRegisteredHook(p, clearPayload(p.root));
    assertSilentFor(r, 'document "evil" is missing or unreadable');
    const recall = await runCliProcess(["recall", "evil"], { cwd: p.root });
    assert.notEqual(recall.code, 0);
    assert.ok(!recall.stdout.includes("SECRET"));
    assert.deepEqual(snapshot(outside), before, "the target was not consumed");
  });

  await t.step("names and slugs from the command line never leave the store", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "inside");
    const body = "## Goal\n\nG.\n";
    const attempts: [string[], string?][] = [
      [["dump", `../../../../..${outside}/planted`], body],
      [["dump", "../planted"], body],
      [["dump", "a/b"], body],
      [["dump", "..\\planted"], body],
      [["dump", "LATEST"], body],
      [["recall", "../inside"]],
      [["recall", `${outside}/evil`]],
      [["park", "x", "--slug", "../planted"]],
      [["evidence", "--session", "../../../../etc/passwd"]],
    ];
    for (const [args, stdin] of attempts) {
      const r = await runCliProcess(args, { cwd: p.root, stdin });
      assert.ok(!r.stdout.includes("SECRET"), `${args.join(" ")}: ${r.stdout}`);
      if (args[0] !== "evidence") assert.notEqual(r.code, 0, `${args.join(" ")} refused`);
    }
    assert.deepEqual(snapshot(outside), before, "nothing planted outside");
    const planted = Object.keys(snapshot(p.root)).filter((f) => /planted/.test(f));
    assert.deepEqual(planted, [], "nothing planted in the project either");
  });
});
