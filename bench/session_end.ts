/**
 * Fixtures of the SessionEnd rows of bench/run.ts: a project whose store the hook may write, the
 * hook's registered flags plus read on the transcripts' folder, and three transcripts — a session
 * that dumped and stopped, one that did nothing, and a 10 MB one to draft from.
 * @module
 */

import { hookFlags, projectFile } from "../lib/agents/command.ts";
import { makeTranscript } from "./transcript.ts";

/** The session the rows end. */
export const END_SESSION = "bench-0000-4000-8000-session";

/** One JSONL record of this project's session at `at`. */
function record(root: string, at: Date, type: "user" | "assistant", content: unknown): string {
  return JSON.stringify({
    type,
    cwd: root,
    sessionId: END_SESSION,
    isSidechain: false,
    timestamp: at.toISOString(),
    message: { role: type, content },
  });
}

/** A working session's records: a request, a file written, an unfinished task. */
function work(root: string, at: Date): string[] {
  return [
    record(root, at, "user", "Add input validation to the signup form"),
    record(root, at, "assistant", [{
      type: "tool_use",
      id: "toolu_w",
      name: "Write",
      input: { file_path: `${root}/src/app.ts`, content: "x" },
    }]),
    record(root, at, "user", [{ type: "tool_result", tool_use_id: "toolu_w", content: "ok" }]),
    record(root, at, "assistant", [{
      type: "tool_use",
      id: "toolu_t",
      name: "TaskCreate",
      input: { subject: "Write the validation tests" },
    }]),
    record(root, at, "user", [{ type: "tool_result", tool_use_id: "toolu_t", content: "Task #1" }]),
  ];
}

/** The SessionEnd bench project. */
export async function endProject(base: string, now: Date) {
  const root = `${base}/end`;
  const store = `${root}/.claude/state/session`;
  const transcripts = `${base}/end-transcripts`;
  Deno.mkdirSync(`${root}/.git`, { recursive: true });
  // A repository's HEAD, as every real one has: the draft names its branch from it.
  Deno.writeTextFileSync(`${root}/.git/HEAD`, "ref: refs/heads/main\n");
  Deno.mkdirSync(store, { recursive: true });
  Deno.mkdirSync(transcripts, { recursive: true });
  const ago = (min: number) => new Date(now.getTime() - min * 60_000);
  const small = `${transcripts}/small.jsonl`;
  Deno.writeTextFileSync(
    small,
    [
      ...work(root, ago(15)),
      record(root, ago(5), "assistant", [{ type: "text", text: "Dumped; /clear when ready." }]),
    ].join("\n") + "\n",
  );
  const empty = `${transcripts}/empty.jsonl`;
  Deno.writeTextFileSync(
    empty,
    [
      record(root, ago(2), "user", "hi"),
      record(root, ago(2), "assistant", [{ type: "text", text: "Hello! What shall we do?" }]),
      record(root, ago(2), "user", "thanks"),
    ].join("\n") + "\n",
  );
  const mb = 10;
  const big = `${transcripts}/big.jsonl`;
  const bulk = `${transcripts}/bulk.jsonl`;
  await makeTranscript(bulk, mb * 1024 * 1024, { garbageEvery: 10 });
  Deno.writeTextFileSync(big, work(root, ago(30)).join("\n") + "\n");
  {
    const out = await Deno.open(big, { append: true });
    await (await Deno.open(bulk, { read: true })).readable.pipeTo(out.writable);
  }
  Deno.removeSync(bulk);
  const flags = hookFlags({ root }, projectFile("lib")).map((f) =>
    f.startsWith("--allow-read=") ? `${f},${transcripts}` : f
  );
  const docs = () => [...Deno.readDirSync(store)].filter((e) => e.name.endsWith(".md"));
  const reset = () => {
    for (const e of docs()) Deno.removeSync(`${store}/${e.name}`);
    try {
      Deno.removeSync(`${store}/LATEST`);
    } catch { /* none */ }
  };
  return {
    root,
    flags,
    small,
    empty,
    big,
    mb,
    payload: (transcript: string) =>
      JSON.stringify({
        session_id: END_SESSION,
        transcript_path: transcript,
        cwd: root,
        hook_event_name: "SessionEnd",
        reason: "clear",
      }),
    reset,
    /** This session's dump, ten minutes old. */
    dumped: () => {
      reset();
      const created = ago(10).toISOString().replace(/\.\d{3}Z$/, "Z");
      Deno.writeTextFileSync(
        `${store}/bench-dump.md`,
        `---\nslug: bench-dump\ncreated: ${created}\nconsumed: false\nbranch: main\n` +
          `session: ${END_SESSION}\n---\n\n## Goal\n\nShip it.\n`,
      );
      Deno.writeTextFileSync(`${store}/LATEST`, "bench-dump\n");
    },
    drafted: () => docs().some((e) => e.name.endsWith("-draft.md")),
  };
}
