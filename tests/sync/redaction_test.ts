import assert from "node:assert/strict";
import { git } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";
import { assertNote, assertRedacted, CONTROLS, mark, SECRETS } from "../secrets/_wired.ts";
import { STORE, world } from "./_world.ts";

const { github, aws, slack, jwt, stripe } = SECRETS;
const run = (cwd: string, ...args: string[]) => runCliInProcess(args, { cwd });
const inRef = (remote: string, path: string) => git(remote, ["show", `refs/session/store:${path}`]);
function docNames(cwd: string): string[] {
  return [...Deno.readDirSync(`${cwd}/${STORE}`)].map((e) => e.name)
    .filter((n) => n.endsWith(".md") && n !== "PARKED.md").sort();
}

Deno.test("push and pull redact what travels", async (t) => {
  const w = await world(2);
  const [c0, c1] = w.clones;
  try {
    // A store written before redaction, or edited by hand: secrets on disk.
    await Deno.mkdir(`${c0}/${STORE}`, { recursive: true });
    await Deno.writeTextFile(
      `${c0}/${STORE}/old.md`,
      `---\ncreated: 2026-11-30T11:00:00Z\nbranch: main\nconsumed: false\n---\n\n## Goal\n\n` +
        `Use ${github.text} at ${CONTROLS[0]} (${CONTROLS[1]}, ${CONTROLS[2]}).\n`,
    );
    await Deno.writeTextFile(
      `${c0}/${STORE}/PARKED.md`,
      `# Parked items\n\n- **keys** — Rotate ${aws.text}. Raised: 2026-11-30.\n`,
    );
    await Deno.writeTextFile(
      `${c0}/${STORE}/dropped.jsonl`,
      JSON.stringify({
        ts: "2026-11-30T10:00:00Z",
        item: "old",
        action: "dropped",
        text: `**old** — ${slack.text}. Raised: 2026-11-29.`,
      }) + "\n",
    );

    await t.step("push: the ref holds only redacted text; the note counts it", async () => {
      const r = await run(c0, "push");
      assert.equal(r.code, 0, r.err);
      assertNote(r.err, { "github-token": 1, "aws-access-key": 1, "slack-token": 1 });
      const doc = await inRef(w.remote, "handovers/old.md");
      assertRedacted(doc, [github], "ref handover");
      for (const c of CONTROLS.slice(0, 3)) assert.ok(doc.includes(c), c);
      assertRedacted(await inRef(w.remote, "PARKED.md"), [aws], "ref PARKED.md");
      assertRedacted(await inRef(w.remote, "dropped.jsonl"), [slack], "ref dropped.jsonl");
    });

    await t.step("push again: nothing to push, no copy renamed, nothing pulled back", async () => {
      const r = await run(c0, "push");
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /already holds this store/);
      assert.equal(r.err, "", "nothing new redacted");
      const p = await run(c0, "pull");
      assert.equal(p.code, 0, p.err);
      assert.match(p.out, /Up to date/);
      assert.deepEqual(docNames(c0), ["old.md"]);
    });

    await t.step("pull on another clone: clean copies", async () => {
      const r = await run(c1, "pull");
      assert.equal(r.code, 0, r.err);
      assert.equal(r.err, "", "the ref was clean already");
      assertRedacted(Deno.readTextFileSync(`${c1}/${STORE}/old.md`), [github], "c1 handover");
      assertRedacted(Deno.readTextFileSync(`${c1}/${STORE}/PARKED.md`), [aws], "c1 PARKED.md");
      assertRedacted(Deno.readTextFileSync(`${c1}/${STORE}/dropped.jsonl`), [slack], "c1 log");
    });

    await t.step(
      "pull of a ref written by hand with secrets: redacted before the store",
      async () => {
        const hand = `${w.tmp}/hand`;
        await git(w.tmp, ["clone", "-q", w.remote, hand]);
        await git(hand, ["fetch", "-q", "origin", "refs/session/store"]);
        await git(hand, ["checkout", "-q", "-b", "edit", "FETCH_HEAD"]);
        await Deno.writeTextFile(
          `${hand}/handovers/raw.md`,
          `---\ncreated: 2026-11-30T11:30:00Z\nconsumed: false\n---\n\n## Goal\n\nToken ${jwt.text}\n`,
        );
        const parked = await Deno.readTextFile(`${hand}/PARKED.md`);
        await Deno.writeTextFile(
          `${hand}/PARKED.md`,
          parked + `- **pay** — Charge with ${stripe.text}. Raised: 2026-11-30.\n`,
        );
        await git(hand, ["add", "-A"]);
        await git(hand, ["commit", "-q", "-m", "by hand"]);
        await git(hand, ["push", "-q", "origin", "HEAD:refs/session/store"]);
        const r = await run(c1, "pull");
        assert.equal(r.code, 0, r.err);
        assertNote(r.err, { "jwt": 1, "stripe-key": 1 });
        assertRedacted(Deno.readTextFileSync(`${c1}/${STORE}/raw.md`), [jwt], "pulled handover");
        const p = Deno.readTextFileSync(`${c1}/${STORE}/PARKED.md`);
        assertRedacted(p, [stripe], "pulled PARKED.md");
        assert.ok(p.includes(mark("aws-access-key")));
      },
    );

    await t.step("the store that still holds the raw item merges without a conflict", async () => {
      const r = await run(c0, "pull");
      assert.equal(r.code, 0, r.err);
      assert.doesNotMatch(r.out, /edited on both sides/);
      assert.match(r.out, /1 handover, 1 parked item added/);
      assertRedacted(Deno.readTextFileSync(`${c0}/${STORE}/raw.md`), [jwt], "c0 pulled");
      assert.equal(
        Deno.readTextFileSync(`${c0}/${STORE}/dropped.jsonl`).trim().split("\n").length,
        1,
        "the clean copy of a raw log line is not added again",
      );
    });
  } finally {
    await w.cleanup();
  }
});
