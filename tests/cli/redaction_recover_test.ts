import assert from "node:assert/strict";
import { docPath, storeAt } from "../../lib/store/store.ts";
import { git, put, scratchDir, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";
import { placeTranscript, transcriptOf } from "../support/transcript.ts";
import { assertNoteKinds, assertRedacted, CONTROLS, SECRETS } from "../secrets/_wired.ts";

const { github, jwt, slack } = SECRETS;

Deno.test("recover: a secret in the transcript is redacted in the draft, the note on stderr", async () => {
  await using p = await scratchProject({ git: "repo", store: false });
  await using homeDir = await scratchDir("session-home-");
  const root = p.root;
  await put(root, "README.md", "# r\n");
  await git(root, ["add", "."]);
  await git(root, ["commit", "-qm", "init"], new Date("2026-11-29T00:00:00Z"));
  const dead = await placeTranscript(
    homeDir.path,
    root,
    "dead",
    transcriptOf(root, [
      { prompt: `Call the API with ${github.text} (commit ${CONTROLS[0]}, id ${CONTROLS[1]}).` },
      { prompt: `Do the webhook later with ${slack.text}.` },
      { say: `Writing it now with ${jwt.text}.` },
    ]),
  );
  const r = await runCliInProcess(["recover", "crash", "--transcript", dead], {
    cwd: root,
    env: { HOME: homeDir.path },
  });
  assert.equal(r.code, 0, r.err);
  const doc = Deno.readTextFileSync(docPath(storeAt(root), "crash"));
  assertRedacted(doc, [github, slack, jwt], "recovered");
  assertRedacted(r.out, [github, slack, jwt], "printed");
  for (const c of CONTROLS.slice(0, 2)) assert.ok(doc.includes(c), `control ${c} changed`);
  assertNoteKinds(r.err, ["github-token", "slack-token", "jwt"]);
});
