import assert from "node:assert/strict";
import { join } from "../../lib/fs/path.ts";
import { OS_LOCKS } from "../../lib/fs/lock.ts";
import { put, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";
import { assertNote, assertRedacted, CONTROLS, PEM, SECRETS } from "../secrets/_wired.ts";

const STORE = ".claude/state/session";
const read = (root: string, rel: string) => Deno.readTextFileSync(join(root, STORE, rel));

Deno.test("park and drop redact what they write", async (t) => {
  await using p = await scratchProject({ store: false });
  const cwd = p.root;
  const { github, aws, slack, url } = SECRETS;

  await t.step("park: summary, --why and --next redacted; controls kept; note counts", async () => {
    const r = await runCliInProcess([
      "park",
      "rotate",
      github.text,
      "seen",
      "at",
      CONTROLS[0],
      "--why",
      `leaked in ${CONTROLS[2]} with ${aws.text}`,
      "--next",
      `revoke ${slack.text} then ${CONTROLS[1]}`,
    ], { cwd });
    assert.equal(r.code, 0, r.err);
    const parked = read(cwd, "PARKED.md");
    assertRedacted(parked, [github, aws, slack], "PARKED.md");
    for (const c of CONTROLS.slice(0, 3)) assert.ok(parked.includes(c), c);
    assertNote(r.err, { "github-token": 1, "aws-access-key": 1, "slack-token": 1 });
    assert.match(r.out, /^Parked: rotate-redacted-github-token/);
  });

  await t.step("park with nothing to redact: no note", async () => {
    const r = await runCliInProcess(["park", "plain", "item", CONTROLS[3]], { cwd });
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, "");
    assert.ok(read(cwd, "PARKED.md").includes(CONTROLS[3]));
  });

  await t.step("--slug redacted too", async () => {
    const r = await runCliInProcess(["park", "x", "--slug", github.text], { cwd });
    assert.equal(r.code, 0, r.err);
    assert.ok(!read(cwd, "PARKED.md").toLowerCase().includes(github.secret.toLowerCase()));
  });

  await t.step("drop: a hand-edited secret never reaches dropped.jsonl", async () => {
    const file = join(STORE, "PARKED.md");
    const text = read(cwd, "PARKED.md") +
      `- **hand-edited** — Deploy with ${url.text} at ${CONTROLS[0]}. Raised: 2026-11-30.\n` +
      `  ${PEM.text.split("\n").join("\n  ")}\n`;
    await put(cwd, file, text);
    const r = await runCliInProcess(["drop", "hand-edited"], { cwd });
    assert.equal(r.code, 0, r.err);
    const log = read(cwd, "dropped.jsonl");
    assertRedacted(log, [url], "dropped.jsonl");
    assert.ok(!log.includes(PEM.secret.split("\n")[0]), "PEM body in the log");
    assert.ok(log.includes(CONTROLS[0]));
    const entry = JSON.parse(log.trim().split("\n").at(-1)!);
    assert.equal(entry.item, "hand-edited");
    assert.equal(entry.action, "dropped");
    assertNote(r.err, { "url-password": 1, "private-key": 1 });
  });

  await t.step("drop of a clean item: no note", async () => {
    const r = await runCliInProcess(["drop", "plain-item"], { cwd });
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, "");
  });
});

Deno.test({
  name: "the store a CLI run creates is the user's only: dirs 0700, files 0600",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using p = await scratchProject({ git: "repo", store: false });
    const cwd = p.root;
    for (
      const [args, stdin] of [
        [["park", "one", "thing"], ""],
        [["park", "two", "things"], ""],
        [["dump", "doc"], "## Goal\n\nShip.\n"],
        [["drop", "one-thing"], ""],
        [["list"], ""],
      ] as [string[], string][]
    ) {
      const r = await runCliInProcess(args, { cwd, stdin });
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.err}`);
    }
    const seen: string[] = [];
    const walk = (dir: string) => {
      for (const e of Deno.readDirSync(dir)) {
        const path = join(dir, e.name);
        const mode = Deno.statSync(path).mode! & 0o777;
        seen.push(e.name);
        if (e.isDirectory) {
          assert.equal(mode, 0o700, path);
          walk(path);
        } else assert.equal(mode, 0o600, path);
      }
    };
    assert.equal(Deno.statSync(join(cwd, ".claude/state")).mode! & 0o777, 0o700);
    walk(join(cwd, STORE));
    // An OS lock's file stays; the fallback's (a Deno without OS locks) is removed on release.
    const lock = OS_LOCKS ? ["PARKED.md.lock"] : [];
    for (const name of ["PARKED.md", "dropped.jsonl", "doc.md", "LATEST", ...lock]) {
      assert.ok(seen.includes(name), `${name} among ${seen.join(", ")}`);
    }
  },
});
