import assert from "node:assert/strict";
import { answerSessionEnd } from "../../lib/continuity/session_end.ts";
import { DEFAULT_OPTIONS, parsePayload } from "../../lib/hook/input.ts";
import { splitFrontMatter } from "../../lib/store/front_matter.ts";
import { join } from "../../lib/fs/path.ts";
import { NOW, scratchProject } from "../support/scratch.ts";
import { assertRedacted, CONTROLS, SECRETS } from "../secrets/_wired.ts";
import {
  docsIn,
  endPayload,
  minutesAgo,
  SESSION,
  timedTranscript,
  workSteps,
  writeSessionDump,
} from "./_fixture.ts";

const { github, aws, slack, jwt } = SECRETS;

async function end(root: string, transcript: string) {
  const payload = parsePayload(JSON.stringify(endPayload(root, transcript)))!;
  return await answerSessionEnd(payload, DEFAULT_OPTIONS, {}, NOW.getTime());
}

Deno.test("SessionEnd's draft: a secret in the transcript is redacted, hashes and UUIDs stay", async () => {
  await using p = await scratchProject();
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(
    t,
    timedTranscript(p.root, [{
      at: minutesAgo(5),
      steps: [
        { prompt: `Call the API with ${github.text}; commit ${CONTROLS[0]}, id ${CONTROLS[1]}` },
        { tool: "Write", input: { file_path: "src/app.ts", content: "x" }, result: "ok" },
        { tool: "TaskCreate", input: { subject: `Rotate ${aws.text}` }, result: "Task #1 created" },
        { say: `Done; the webhook uses ${slack.text} and ${jwt.text}.` },
      ],
    }]),
  );
  const r = await end(p.root, t);
  assert.match(r.reason, /^drafted /);
  const [name] = docsIn(p.store);
  const text = await Deno.readTextFile(join(p.store.dir, name));
  assertRedacted(text, [github, aws, slack, jwt], "draft");
  for (const c of CONTROLS.slice(0, 2)) assert.ok(text.includes(c), `control ${c} changed`);
  assert.equal(splitFrontMatter(text)!.fields.session, SESSION, "front matter kept");
});

Deno.test("SessionEnd's 'Since the dump': a secret in the transcript is redacted", async () => {
  await using p = await scratchProject();
  const dump = await writeSessionDump(p.store, "mine", { created: minutesAgo(3) });
  const t = join(p.root, "t.jsonl");
  await Deno.writeTextFile(
    t,
    timedTranscript(p.root, [
      { at: minutesAgo(5), steps: workSteps() },
      {
        at: minutesAgo(1),
        steps: [
          { prompt: "also fix the footer" },
          { tool: "Edit", input: { file_path: "src/footer.ts" }, result: "ok" },
          {
            tool: "Bash",
            input: { command: `git commit -am "Drop ${github.text} from ${CONTROLS[0]}"` },
            result: "[main 1a2b3c] Drop it",
          },
          {
            tool: "TaskCreate",
            input: { subject: `Revoke ${aws.text} (${CONTROLS[1]})` },
            result: "Task #2 created",
          },
        ],
      },
    ]),
  );
  const r = await end(p.root, t);
  assert.match(r.reason, /appended "Since the dump" to "mine"/);
  const text = await Deno.readTextFile(join(p.store.dir, "mine.md"));
  const at = text.indexOf("## Since the dump");
  const closing = text.indexOf("## Dropped deliberately", at);
  assert.equal(text.slice(0, at) + text.slice(closing), dump, "the agent's text stays");
  const since = text.slice(at, closing);
  assertRedacted(since, [github, aws], "since");
  assert.ok(since.includes(CONTROLS[1]), "the UUID stays");
});
