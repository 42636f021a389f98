import assert from "node:assert/strict";
import { join } from "../../lib/fs/path.ts";
import { readLatest } from "../../lib/store/latest.ts";
import { docPath, storeAt } from "../../lib/store/store.ts";
import { isoStamp } from "../../lib/store/time.ts";
import { git, NOW, put, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";
import {
  assertNoteKinds,
  assertRedacted,
  CONTROLS,
  mark,
  PEM,
  SECRETS,
} from "../secrets/_wired.ts";

const { github, aws, slack, jwt, url, stripe } = SECRETS;

/** A Claude Code transcript with one unfinished task whose subject holds a key. */
function transcript(root: string): string {
  const at = isoStamp(new Date(NOW.getTime() - 600_000));
  return JSON.stringify({
    type: "assistant",
    cwd: root,
    sessionId: "s1",
    uuid: "a1",
    timestamp: at,
    message: {
      id: "m1",
      role: "assistant",
      content: [{
        type: "tool_use",
        id: "t1",
        name: "TodoWrite",
        input: {
          todos: [{ id: "a", content: `Revoke ${stripe.text} today`, status: "pending" }],
        },
      }],
    },
  }) + "\n";
}

Deno.test("dump and evidence: nothing of a known shape reaches the handover", async (t) => {
  await using p = await scratchProject({ git: "repo", store: false });
  const root = p.root;
  await put(root, "a.ts", "a\n");
  await git(root, ["add", "."]);
  await git(root, ["commit", "-qm", `stop logging ${github.text} (see ${CONTROLS[0]})`]);
  await put(root, "a.ts", "a\nb\n");
  await put(
    root,
    ".claude/state/session/PARKED.md",
    `# Parked items\n\n- **by-hand** — Edited by hand: ${aws.text}. Raised: 2026-11-30.\n`,
  );
  await put(root, ".temp/t.jsonl", transcript(root));
  const body = [
    "## Goal",
    "",
    `Call the API with ${jwt.text} through ${url.text}.`,
    "",
    "## Decisions",
    "",
    `- Keep ${CONTROLS[1]} as the request id, ${CONTROLS[2]} as the loader — why: stable.`,
    "",
    "## Artifacts",
    "",
    "```",
    PEM.text,
    `integrity ${CONTROLS[3]}`,
    "```",
    "",
    "## Next step",
    "",
    `Post to slack with ${slack.text}.`,
    "",
  ].join("\n");
  const flags = ["--transcript", join(root, ".temp/t.jsonl"), "--since", "1d"];

  await t.step("evidence --json: clean, the note on stderr", async () => {
    const r = await runCliInProcess(["evidence", "--json", ...flags], { cwd: root });
    assert.equal(r.code, 0, r.err);
    assertRedacted(r.out, [github, aws, stripe], "evidence --json");
    assert.ok(r.out.includes(CONTROLS[0]));
    assertNoteKinds(r.err, ["github-token", "aws-access-key", "stripe-key"]);
    const ev = JSON.parse(r.out);
    assert.equal(ev.root, root, "the root is not redacted");
  });

  await t.step("evidence (text): clean", async () => {
    const r = await runCliInProcess(["evidence", ...flags], { cwd: root });
    assert.equal(r.code, 0, r.err);
    for (const s of [github, aws, stripe]) assert.ok(!r.out.includes(s.secret), s.kind);
  });

  await t.step("dump: body, commit subjects, parked items and tasks redacted", async () => {
    const r = await runCliInProcess(["dump", "keys", ...flags], { cwd: root, stdin: body });
    assert.equal(r.code, 0, r.err);
    const store = storeAt(root);
    assert.equal(readLatest(store), "keys");
    const doc = Deno.readTextFileSync(docPath(store, "keys"));
    assertRedacted(doc, [jwt, url, slack, aws, stripe], "handover");
    assert.ok(!doc.includes(PEM.secret.split("\n")[1]), "PEM body in the handover");
    assert.ok(doc.includes(mark("private-key")));
    for (const c of CONTROLS.slice(1)) assert.ok(doc.includes(c), `control ${c}`);
    assert.ok(!doc.includes(github.secret));
    assertNoteKinds(r.err, [
      "jwt",
      "url-password",
      "slack-token",
      "private-key",
      "aws-access-key",
      "stripe-key",
      "github-token",
    ]);
    assert.ok(r.out.endsWith("/clear"), "the report is unchanged");
  });

  await t.step("sweep: the table, its file and --json redacted; the note", async () => {
    await git(root, ["stash", "push", "-q", "-m", `wip with ${github.text}`]);
    const tflags = ["--transcript", join(root, ".temp/t.jsonl")];
    const json = await runCliInProcess(["sweep", "--json", ...tflags], { cwd: root });
    assert.equal(json.code, 0, json.err);
    assertRedacted(json.out, [github, aws, stripe], "sweep --json");
    assertNoteKinds(json.err, ["github-token", "aws-access-key", "stripe-key"]);
    assert.equal(JSON.parse(json.out).root, root);
    const table = await runCliInProcess(["sweep", ...tflags], { cwd: root });
    assertRedacted(table.out, [github, aws, stripe], "sweep table");
    const file = Deno.readTextFileSync(join(root, ".temp/session/unlanded.md"));
    assertRedacted(file, [github, aws, stripe], "unlanded.md");
  });

  await t.step("park with nothing to park: the offers are redacted", async () => {
    const r = await runCliInProcess(["park"], { cwd: root });
    assert.equal(r.code, 1, r.err);
    assert.ok(!r.out.includes(github.secret), "the stash's subject");
    assert.ok(r.out.includes(mark("github-token")));
    assertNoteKinds(r.err, ["github-token"]);
  });

  await t.step("dump of a clean body in a clean project: no note", async () => {
    await using q = await scratchProject({ git: "repo", store: false });
    const r = await runCliInProcess(["dump", "clean"], {
      cwd: q.root,
      stdin: `## Goal\n\nShip ${CONTROLS.join(" ")}.\n`,
    });
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, "");
  });
});
