import assert from "node:assert/strict";
import { answerPreCompact } from "../../lib/continuity/pre_compact.ts";
import { answerCompact } from "../../lib/continuity/compact.ts";
import { DEFAULT_OPTIONS } from "../../lib/hook/input.ts";
import { join } from "../../lib/fs/path.ts";
import { NOW, scratchProject } from "../support/scratch.ts";
import { transcriptOf } from "../support/transcript.ts";
import { assertRedacted, CONTROLS, SECRETS } from "../secrets/_wired.ts";

const SID = "sess-1";
const { github, aws } = SECRETS;

/** A transcript whose unfinished task holds secrets next to a hash and a UUID. */
async function project() {
  const p = await scratchProject();
  const transcript = join(p.root, "t.jsonl");
  await Deno.writeTextFile(
    transcript,
    transcriptOf(p.root, [
      { prompt: "Fix the login." },
      {
        tool: "Write",
        input: { file_path: join(p.root, CONTROLS[2]), content: "x" },
        result: "ok",
      },
      {
        tool: "TodoWrite",
        input: {
          todos: [{
            id: "1",
            content: `Rotate ${github.text} and ${aws.text} (${CONTROLS[0]}, ${CONTROLS[1]})`,
            status: "in_progress",
          }],
        },
        result: "ok",
      },
    ], SID),
  );
  return { p, transcript };
}

const payload = (cwd: string, transcript: string, event: string) => ({
  cwd,
  session_id: SID,
  transcript_path: transcript,
  hook_event_name: event,
  source: "compact",
  trigger: "auto",
});

function contextOf(stdout: string | undefined, reason: string): string {
  assert.ok(stdout, reason);
  return JSON.parse(stdout).hookSpecificOutput.additionalContext as string;
}

function assertClean(text: string, where: string) {
  assertRedacted(text, [github, aws], where);
  for (const c of CONTROLS.slice(0, 3)) assert.ok(text.includes(c), `${where}: ${c} changed`);
}

Deno.test("compaction: PreCompact saves the transcript's parts redacted, and the card says so", async () => {
  const { p, transcript } = await project();
  await using _ = p;
  const pre = await answerPreCompact(
    payload(p.root, transcript, "PreCompact"),
    DEFAULT_OPTIONS,
    {},
    NOW,
  );
  assert.match(pre.reason, /saved the card's material/);
  assertClean(await Deno.readTextFile(join(p.store.dir, `.compact-${SID}.md`)), "saved");
  const r = await answerCompact(
    payload(p.root, transcript, "SessionStart"),
    DEFAULT_OPTIONS,
    {},
    NOW,
  );
  assertClean(contextOf(r.stdout, r.reason), "card (claimed)");
});

Deno.test("compaction without PreCompact: the card gathered afresh is redacted", async () => {
  const { p, transcript } = await project();
  await using _ = p;
  const r = await answerCompact(
    payload(p.root, transcript, "SessionStart"),
    DEFAULT_OPTIONS,
    {},
    NOW,
  );
  assertClean(contextOf(r.stdout, r.reason), "card (afresh)");
});
