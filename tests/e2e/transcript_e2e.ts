/**
 * End to end in the real Claude Code (pinned, offline, against the loopback stand-in): `dump` and
 * `sweep` run through the model's Bash tool find the session's own transcript by
 * `CLAUDE_CODE_SESSION_ID` and use it (files written, unfinished tasks, deferrals, a failed Edit
 * left out); after the session dies, `recover` drafts a handover from the transcript.
 */

import assert from "node:assert/strict";
import { CLI_FLAGS } from "../../lib/agents/command.ts";
import { splitFrontMatter } from "../../lib/store/front_matter.ts";
import { findSection, parseSections } from "../../lib/handover/document.ts";
import { encodeProjectDir } from "../../lib/transcript/paths.ts";
import { ensureClaudes, makeWorld, startClaude } from "./support/claude.ts";
import {
  isToolResult,
  lastMessage,
  messageText,
  type Recorded,
  type Reply,
  startStandIn,
} from "./support/stand_in.ts";
import type { Tmux } from "./support/tmux.ts";
import { playScript } from "./support/plays.ts";

const REPO = decodeURIComponent(new URL("../../", import.meta.url).pathname).replace(/\/$/, "");
const STORE = ".claude/state/session";
const FIRST = "Build the greeter module.";
const SECOND = "Let's leave the tests for later.";

function cliCommand(args: string): string {
  return `deno run ${CLI_FLAGS.join(" ")} ${REPO}/session.ts ${args}`;
}

/** The model: a scripted reply per step after each of the two prompts. */
function script(project: string): (r: Recorded) => Reply {
  const first: Reply[] = [
    {
      text: "Writing the module.",
      tool: "Write",
      input: { file_path: `${project}/src/greet.ts`, content: "export const hi = 1;\n" },
    },
    { tool: "TaskCreate", input: { subject: "Add greet tests", description: "tests for hi" } },
    {
      tool: "Edit",
      input: { file_path: `${project}/README.md`, old_string: "absent", new_string: "x" },
    },
    {
      tool: "Bash",
      input: {
        command: `${cliCommand("dump e2e-transcript")} <<'EOF'\n## Goal\n\nThe greeter.\nEOF`,
        description: "Dump the handover",
      },
    },
    { text: "Saved. Should I write the tests now?" },
  ];
  const second: Reply[] = [
    {
      tool: "Bash",
      input: {
        // Claude Code appends to its transcript asynchronously: on a busy machine the prompt
        // that asked for this sweep may not be on disk yet when the command starts. Wait for it
        // (up to 30 s) so the test checks the parser, not the client's flush timing.
        command: `for i in $(seq 150); do grep -qs "leave the tests" ` +
          `"$HOME"/.claude/projects/*/"$CLAUDE_CODE_SESSION_ID".jsonl && break; sleep 0.2; done; ` +
          cliCommand("sweep --json"),
        description: "Sweep",
      },
    },
    { text: "Noted." },
  ];
  return playScript([{ prompt: SECOND, steps: second }, { prompt: FIRST, steps: first }]);
}

/** Polls `path` until it contains `needle`; fails after `timeoutMs`. */
async function waitForFile(path: string, needle: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const text = await Deno.readTextFile(path).catch(() => "");
    if (text.includes(needle)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${path} did not come to contain ${needle} within ${timeoutMs} ms`);
}

for (const { version, bin } of await ensureClaudes()) {
  Deno.test(`Claude Code ${version}: its own transcript feeds dump, sweep and recover`, async (t) => {
    const world = await makeWorld(version);
    const standIn = startStandIn(script(world.project));
    let tmux: Tmux | undefined;
    const toolOutput = async (since: number, what: string) => {
      const r = await standIn.waitFor(
        (x) => isToolResult(x) && messageText(lastMessage(x)!).includes(what),
        { since, timeoutMs: 60_000 },
      );
      return messageText(lastMessage(r)!);
    };
    try {
      tmux = await startClaude(bin, world, standIn, { args: ["TaskCreate"] });
      await t.step("dump in the session: files and tasks from the transcript", async () => {
        const since = standIn.requests.length;
        await tmux!.submit(FIRST);
        const out = await toolOutput(since, "/clear");
        assert.match(out, /Counts: 1 file, 0 decisions, 1 outstanding/, out);
        const doc = await Deno.readTextFile(`${world.project}/${STORE}/e2e-transcript.md`);
        assert.match(doc, /\| `src\/greet\.ts` \| uncommitted-new \| wip \| uncommitted \|/);
        assert.match(doc, /- \*\*add-greet-tests\*\* — Add greet tests\./);
        assert.ok(!doc.includes("README"), "the failed Edit touched nothing");
      });
      await t.step("sweep in the session: the task and the deferral, with lines", async () => {
        const since = standIn.requests.length;
        await tmux!.submit(SECOND);
        const out = await toolOutput(since, '"candidates"');
        const sweep = JSON.parse(out.slice(out.indexOf("{")));
        const kinds = sweep.candidates.map((c: { kind: string }) => c.kind);
        assert.ok(kinds.includes("task") && kinds.includes("deferral"), out);
        const deferral = sweep.candidates.find((c: { kind: string }) => c.kind === "deferral");
        assert.equal(deferral.what, SECOND);
        assert.match(deferral.where, /^transcript:L\d+$/);
        assert.match(sweep.transcript, /\.jsonl$/);
        await tmux!.waitForScreen("Noted.");
      });
      await t.step("the session dies; recover drafts a handover from its transcript", async () => {
        const folder = `${world.home}/.claude/projects/${encodeProjectDir(world.project)}`;
        const ids = [...Deno.readDirSync(folder)].filter((e) => e.name.endsWith(".jsonl"));
        assert.equal(ids.length, 1);
        // The screen shows the last reply before the client has flushed it to the transcript.
        await waitForFile(`${folder}/${ids[0].name}`, '"Noted."', 30_000);
        await tmux!.kill();
        tmux = undefined;
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["run", ...CLI_FLAGS, `${REPO}/session.ts`, "recover", "crashed"],
          cwd: world.project,
          env: { HOME: world.home },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const text = new TextDecoder().decode(out.stdout);
        assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
        const doc = await Deno.readTextFile(`${world.project}/${STORE}/crashed.md`);
        assert.ok(text.startsWith(doc.trimEnd()));
        const split = splitFrontMatter(doc)!;
        assert.equal(split.fields.recovered, "true");
        const sections = parseSections(split.body);
        // The last request (the deferral, typed after a finished turn) is the goal's task; the
        // first is listed as done earlier.
        assert.match(findSection(sections, "Goal")!, /Build the greeter module\./);
        assert.match(findSection(sections, "Files touched")!, /`src\/greet\.ts`/);
        const outstanding = findSection(sections, "Outstanding")!;
        assert.match(outstanding, /Let's leave the tests for later\./);
        assert.match(outstanding, /\*\*add-greet-tests\*\*/);
        assert.match(
          findSection(sections, "Where it stopped")!,
          /- State: finished — it answered and ended its turn: “Noted\.”/,
        );
        assert.match(findSection(sections, "Next step")!, /then ask the user for the next task/);
      });
    } finally {
      await tmux?.kill();
      await standIn.close();
      await world.cleanup();
    }
  });
}
