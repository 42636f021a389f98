import assert from "node:assert/strict";
import { writeLine } from "../../lib/cli/run_context.ts";
import { ALIASES, MODES } from "../../lib/cli/main.ts";
import { scratchProject } from "../support/scratch.ts";
import { runCliInProcess, runCliProcess } from "../support/run.ts";

/** Modes whose words are all payload: an unknown --word is part of the payload there. */
const PAYLOAD = new Set(["park", "drop"]);

Deno.test("every mode: --help, unknown flags, --dir", async (t) => {
  await using p = await scratchProject({ git: false });
  for (const mode of Object.keys(MODES)) {
    await t.step(`${mode} --help prints its help and exits 0`, async () => {
      const r = await runCliInProcess([mode, "--help"], { cwd: p.root });
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, new RegExp(`^Usage: session.ts ${mode}\\b`));
      assert.match(r.out, /--dir DIR/);
    });
    if (PAYLOAD.has(mode)) continue;
    await t.step(`${mode} --no-such-flag exits 2 naming its flags`, async () => {
      const r = await runCliInProcess([mode, "--no-such-flag"], {
        cwd: p.root,
        stdin: "## Goal\n\nx\n",
      });
      assert.equal(r.code, 2, r.err);
      assert.match(
        r.err,
        /unknown flag "--no-such-flag"\. Supported flags of \w+: .*--dir DIR, --help/,
      );
      assert.match(r.err, /\nSupported modes: dump, recall, list, evidence/);
    });
  }
});

Deno.test("refusals as processes: exit codes, one-line messages, no stack traces", async (t) => {
  await using repo = await scratchProject({ git: "repo", store: false });
  await using plain = await scratchProject({ git: false, store: false });
  const cases: [string, string[], string, number, RegExp][] = [
    [
      "unknown mode",
      ["frobnicate"],
      "",
      2,
      /unknown mode "frobnicate"\. Supported modes: .*dump/,
    ],
    ["no mode", [], "", 2, /Usage: session.ts <mode>/],
    ["dump: empty stdin", ["dump"], "", 2, /nothing on stdin/],
    ["dump: slash", ["dump", "a/b"], "## Goal\n\nx\n", 2, /path separator/],
    ["dump: dot-dot", ["dump", ".."], "## Goal\n\nx\n", 2, /"\.\."/],
    ["dump: reserved", ["dump", "LATEST"], "## Goal\n\nx\n", 2, /reserved/],
    ["dump: unknown flag", ["dump", "--yes"], "## Goal\n\nx\n", 2, /unknown flag "--yes"/],
    ["evidence: bad --since", ["evidence", "--since", "soon"], "", 2, /--since/],
    ["list: words", ["list", "extra"], "", 2, /takes no words/],
    ["recall: miss", ["recall", "nope"], "", 1, /No handover "nope"/],
    ["recall: empty LATEST", ["recall"], "", 1, /LATEST is empty/],
    ["recall: path", ["recall", "../etc"], "", 2, /not a handover name/],
    ["--dir missing", ["list", "--dir", "/nonexistent/x"], "", 2, /is not a directory/],
  ];
  // The processes run in parallel; the checks run in order (steps cannot overlap).
  const runs = await Promise.all(
    [repo.root, plain.root].flatMap((cwd) =>
      cases.map(async (c) => ({ c, cwd, r: await runCliProcess(c[1], { cwd, stdin: c[2] }) }))
    ),
  );
  for (const { c: [name, , , code, pattern], cwd, r } of runs) {
    await t.step(`${name} (${cwd === repo.root ? "git" : "no git"})`, () => {
      assert.equal(r.code, code, `${name}: ${r.stderr}`);
      assert.match(r.stderr, pattern, name);
      assert.ok(!/^\s+at /m.test(r.stderr), `${name}: stack trace`);
    });
  }
  for (const root of [repo.root, plain.root]) {
    await assert.rejects(Deno.stat(`${root}/.claude`), "no store was created by a refusal");
  }
});

Deno.test("writeLine: the whole text and a newline, a broken pipe ignored", async (t) => {
  await t.step("short writes are continued until every byte is out", () => {
    const got: number[] = [];
    // A pipe that takes at most 3 bytes a call.
    writeLine({
      writeSync: (p) => (got.push(...p.subarray(0, 3)), Math.min(3, p.length)),
    }, "héllo — ⚠");
    assert.equal(new TextDecoder().decode(new Uint8Array(got)), "héllo — ⚠\n");
  });
  await t.step("a reader that went away is not an error; other failures are", () => {
    writeLine({
      writeSync: () => {
        throw new Deno.errors.BrokenPipe("gone");
      },
    }, "x");
    assert.throws(
      () =>
        writeLine({
          writeSync: () => {
            throw new Deno.errors.PermissionDenied("no");
          },
        }, "x"),
      Deno.errors.PermissionDenied,
    );
  });
});

Deno.test("the aliases run their modes: save, restore, load, archive", async (t) => {
  await using p = await scratchProject({ git: false, store: false });
  await t.step("--help names every alias", async () => {
    const r = await runCliInProcess(["--help"], { cwd: p.root });
    for (const [alias, mode] of Object.entries(ALIASES)) {
      assert.ok(r.out.includes(`${alias} = ${mode}`), `${alias} in --help`);
    }
    assert.deepEqual(ALIASES, {
      save: "dump",
      restore: "recall",
      load: "recall",
      archive: "drop",
    });
  });
  await t.step("save writes, restore and load recall, archive drops", async () => {
    const saved = await runCliInProcess(["save", "one"], {
      cwd: p.root,
      stdin: "## Goal\n\nG1.\n",
    });
    assert.equal(saved.code, 0, saved.err);
    assert.match(saved.out, /LATEST → one/);
    assert.match((await runCliInProcess(["restore", "one"], { cwd: p.root })).out, /G1\./);
    assert.match((await runCliInProcess(["load", "one"], { cwd: p.root })).out, /G1\./);
    assert.equal((await runCliInProcess(["park", "check the cache"], { cwd: p.root })).code, 0);
    const archived = await runCliInProcess(["archive", "check-cache"], { cwd: p.root });
    assert.equal(archived.code, 0, archived.err);
    assert.match(archived.out, /Dropped: check-cache \(0 open\)/);
    assert.match((await runCliInProcess(["save", "--help"], { cwd: p.root })).out, /dump \[name\]/);
  });
  await t.step("SKILL.md's argument hint names them", async () => {
    const skill = await Deno.readTextFile(new URL("../../SKILL.md", import.meta.url));
    const hint = skill.match(/^argument-hint: (.*)$/m)![1];
    for (const word of ["dump|save", "recall|restore|load", "drop|archive"]) {
      assert.ok(hint.includes(word), `${word} in ${hint}`);
    }
  });
});
