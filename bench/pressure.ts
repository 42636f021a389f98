/**
 * The context-pressure rows of bench/run.ts ({@link pressureRows}): the UserPromptSubmit hook with
 * nothing to say against an empty `deno run` with its flags; the same hook on a big transcript
 * against itself on a 1 KB one (its read is bounded: the figure must not grow with the file); and
 * `statusline` against the CLI's floor.
 * @module
 */

import { compare, type Proc } from "./harness.ts";
import { makeTranscript } from "./transcript.ts";
import { CLI_FLAGS, hookFlags, projectFile } from "../lib/agents/command.ts";
import { assistantLine as usage } from "../tests/support/transcript.ts";

type RowFn = (
  name: string,
  size: string,
  unit: "×",
  goal: number | undefined,
  measure: () => Promise<number | undefined>,
) => Promise<void>;

/** Adds the pressure rows; `mb` is the big transcript's size. */
export async function pressureRows(
  row: RowFn,
  o: { base: string; empty: string; mb: number; runs: number; env: Record<string, string> },
): Promise<void> {
  const deno = Deno.execPath();
  const root = `${o.base}/pressure`;
  const transcripts = `${o.base}/pressure-transcripts`;
  Deno.mkdirSync(`${root}/.git`, { recursive: true });
  Deno.mkdirSync(`${root}/.claude/state/session`, { recursive: true });
  Deno.mkdirSync(transcripts, { recursive: true });
  const small = `${transcripts}/small.jsonl`;
  Deno.writeTextFileSync(small, `${usage(40_000)}\n`.padStart(1024, " "));
  const big = `${transcripts}/big.jsonl`;
  await makeTranscript(big, o.mb * 1024 * 1024);
  Deno.writeTextFileSync(big, `${usage(40_000)}\n`, { append: true });
  const flags = hookFlags({ root }, projectFile("lib")).map((f) =>
    f.startsWith("--allow-read=") ? `${f},${transcripts}` : f
  );
  const payload = (transcript: string) =>
    JSON.stringify({
      session_id: "bench-prompt",
      transcript_path: transcript,
      cwd: root,
      hook_event_name: "UserPromptSubmit",
      prompt: "go on",
    });
  const hook = projectFile("session_restore.ts");
  const prompt = (transcript: string): Proc => ({
    cmd: deno,
    args: ["run", ...flags, hook],
    cwd: root,
    stdin: payload(transcript),
    env: o.env,
    check: (r) => {
      if (r.code !== 0 || r.stdout !== "" || r.stderr !== "") {
        throw new Error(`the prompt hook printed: ${r.stdout}${r.stderr}`);
      }
    },
  });
  const opts = { runs: Math.max(o.runs * 4, 61), warmup: 5 };
  const floor: Proc = {
    cmd: deno,
    args: ["run", ...flags, o.empty],
    cwd: root,
    stdin: payload(small),
    env: o.env,
  };
  await row(
    "prompt hook: nothing to say",
    "1 KB",
    "×",
    1.4,
    () => compare(floor, prompt(small), opts),
  );
  await row(
    "prompt hook: big transcript",
    `${o.mb} MB vs 1 KB`,
    "×",
    1.3,
    () => compare(prompt(small), prompt(big), opts),
  );
  const cli = projectFile("session.ts");
  const status = JSON.stringify({
    session_id: "bench-prompt",
    cwd: root,
    workspace: { current_dir: root, project_dir: root },
    context_window: { context_window_size: 200_000, used_percentage: 20, current_usage: null },
  });
  await row("statusline", "-", "×", 1.5, () =>
    compare(
      { cmd: deno, args: ["run", ...CLI_FLAGS, o.empty], cwd: root, stdin: status, env: o.env },
      {
        cmd: deno,
        args: ["run", ...CLI_FLAGS, cli, "statusline"],
        cwd: root,
        stdin: status,
        env: o.env,
        check: (r) => {
          if (r.code !== 0 || !r.stdout.startsWith("session: ")) {
            throw new Error(`statusline: ${r.stdout}${r.stderr}`);
          }
        },
      },
      { runs: Math.max(o.runs * 2, 31), warmup: 3 },
    ));
}
