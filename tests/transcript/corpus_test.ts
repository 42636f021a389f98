/**
 * The reader, `recover`'s draft and SessionEnd's draft over every session of the real corpus
 * (`../shared/corpus/claude-code-log/projects/` beside the project: real Claude Code transcripts,
 * 1.0.24 to 2.1.114, in Claude Code's own layout). Nothing crashes; no text the client wrapped
 * around the user's (IDE context, reminders, task notifications, slash commands) reaches a Goal,
 * a request or a question; the files and the unfinished tasks are what the records say, computed
 * here from the raw records by the plain rules, independently of lib/transcript/. Skipped where
 * the corpus is absent (it is not part of this repository). The corpus is only read: the drafts
 * are written to a scratch store.
 */
import assert from "node:assert/strict";
import { posix } from "node:path";
import { draftSession } from "../../lib/continuity/_write.ts";
import { idleSession } from "../../lib/continuity/idle.ts";
import { worthCarrying } from "../../lib/continuity/draft.ts";
import { join } from "../../lib/fs/path.ts";
import { recoverMarkdown } from "../../lib/handover/recover.ts";
import type { Store } from "../../lib/store/store.ts";
import { readTranscript } from "../../lib/transcript/claude.ts";
import { isUnfinished, type TranscriptFacts } from "../../lib/transcript/facts.ts";
import { NOW, scratchDir } from "../support/scratch.ts";

const PROJECT = decodeURIComponent(new URL("../../", import.meta.url).pathname);
const CORPUS = posix.resolve(PROJECT, "../shared/corpus/claude-code-log/projects");

function present(dir: string): boolean {
  try {
    return Deno.statSync(dir).isDirectory;
  } catch {
    return false;
  }
}

/** Text the client puts around or instead of what the user typed. */
const WRAPPER =
  /<(?:ide_|task-notification|system-reminder|command-|local-command-|bash-|user-prompt-submit-hook)/;

// deno-lint-ignore no-explicit-any
type Rec = any;

function records(path: string): Rec[] {
  const out: Rec[] = [];
  for (const line of Deno.readTextFileSync(path).split("\n")) {
    try {
      const r = JSON.parse(line);
      if (r && typeof r === "object") out.push(r);
    } catch { /* not a record */ }
  }
  return out;
}

/** The session's files: its own, then its subagents' (the 2.1.x folder, the 2.0.x files beside). */
function sessionFiles(dir: string, name: string, sessionId: string | undefined): string[] {
  const base = name.slice(0, -".jsonl".length);
  const files = [`${dir}/${name}`];
  const sub = `${dir}/${base}/subagents`;
  if (present(sub)) {
    for (const e of Deno.readDirSync(sub)) {
      if (e.name.startsWith("agent-") && e.name.endsWith(".jsonl")) files.push(`${sub}/${e.name}`);
    }
  }
  for (const e of Deno.readDirSync(dir)) {
    if (!e.name.startsWith("agent-") || !e.name.endsWith(".jsonl")) continue;
    if (records(`${dir}/${e.name}`).some((r) => r.sessionId === sessionId)) {
      files.push(`${dir}/${e.name}`);
    }
  }
  return files;
}

/** What the raw records say: files written (absolute) and unfinished tasks (subjects). */
function expected(all: { rec: Rec; main: boolean }[]) {
  const errors = new Set<string>();
  const results = new Map<string, Rec>();
  for (const { rec } of all) {
    for (const b of Array.isArray(rec.message?.content) ? rec.message.content : []) {
      if (b?.type !== "tool_result") continue;
      if (b.is_error === true) errors.add(b.tool_use_id);
      results.set(b.tool_use_id, { block: b, extra: rec.toolUseResult });
    }
  }
  const files = new Set<string>();
  let todos: Rec[] = [];
  const tasks = new Map<string, { subject: string; status: string }>();
  const calls = all.flatMap(({ rec, main }) =>
    rec.type !== "assistant" || !Array.isArray(rec.message?.content) ? [] : rec.message.content
      .filter((b: Rec) => b?.type === "tool_use" && !errors.has(b.id))
      .map((b: Rec) => ({ b, rec, main }))
  ).sort((x: Rec, y: Rec) => Date.parse(x.rec.timestamp) - Date.parse(y.rec.timestamp));
  for (const { b, rec, main } of calls) {
    const input = b.input ?? {};
    const path = ["Write", "Edit", "MultiEdit"].includes(b.name)
      ? input.file_path
      : b.name === "NotebookEdit"
      ? input.notebook_path
      : undefined;
    if (typeof path === "string" && path !== "") files.add(joined(rec.cwd ?? "/", path));
    if (b.name === "TodoWrite" && main && !rec.isSidechain && Array.isArray(input.todos)) {
      todos = input.todos;
    }
    if (b.name === "TaskCreate") {
      const r = results.get(b.id);
      const text = typeof r?.block.content === "string"
        ? r.block.content
        : JSON.stringify(r?.block.content ?? "");
      const id = r?.extra?.task?.id ?? /Task #(\w+)/.exec(text)?.[1];
      if (id !== undefined) {
        tasks.set(String(id), { subject: input.subject, status: input.status ?? "pending" });
      }
    }
    if (b.name === "TaskUpdate") {
      const t = tasks.get(String(input.taskId));
      if (t && input.status === "deleted") tasks.delete(String(input.taskId));
      else if (t && input.status) t.status = input.status;
    }
  }
  const open = (s: string) => s === "pending" || s === "in_progress";
  return {
    files: [...files].sort(),
    tasks: [
      ...todos.filter((t) => open(t.status ?? "pending")).map((t) => t.content),
      ...[...tasks.values()].filter((t) => open(t.status)).map((t) => t.subject),
    ].sort(),
  };
}

/**
 * `path` against the directory `cwd`, normalized, without a leading `/`: one corpus session
 * carries a sanitized relative `cwd` (`-experiments/worktrees`), which must not be taken against
 * this process's directory.
 */
function joined(cwd: string, path: string): string {
  return posix.normalize(posix.isAbsolute(path) ? path : `${cwd}/${path}`).replace(/^\/+/, "");
}

function absolute(facts: TranscriptFacts, root: string): string[] {
  return facts.files.map((f) => (f.outside ? joined("/", f.path) : joined(root, f.path))).sort();
}

/** The Goal section of a draft, and its "Continue with the last request" line. */
function requestsOf(markdown: string): string {
  const goal = /## Goal\n([\s\S]*?)(?=\n## |$)/.exec(markdown)?.[1] ?? "";
  const last = /Continue with the last request: .*/.exec(markdown)?.[0] ?? "";
  return goal + "\n" + last;
}

Deno.test({
  name: "the real corpus: reader, recover and the SessionEnd draft" +
    (present(CORPUS) ? "" : " (skipped: no ../shared/corpus beside the project)"),
  ignore: !present(CORPUS),
  fn: async (t) => {
    await using scratch = await scratchDir();
    let sessions = 0;
    let withWork = 0;
    for (const folder of [...Deno.readDirSync(CORPUS)].map((e) => e.name).sort()) {
      const dir = `${CORPUS}/${folder}`;
      if (!present(dir)) continue;
      for (const e of [...Deno.readDirSync(dir)].sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (!e.isFile || !e.name.endsWith(".jsonl") || e.name.startsWith("agent-")) continue;
        const path = `${dir}/${e.name}`;
        sessions++;
        await t.step(`${folder}/${e.name}`, async () => {
          const own = records(path);
          const root = own.find((r) => typeof r.cwd === "string")?.cwd ?? "/";
          const sessionId = own.find((r) => typeof r.sessionId === "string")?.sessionId;
          const facts = await readTranscript(path, { root });
          const all = sessionFiles(dir, e.name, sessionId).flatMap((p, i) =>
            records(p).map((rec) => ({ rec, main: i === 0 }))
          );
          const want = expected(all);
          assert.deepEqual(absolute(facts, root), want.files, "files touched");
          assert.deepEqual(
            facts.tasks.filter(isUnfinished).map((x) => x.subject).sort(),
            want.tasks,
            "unfinished tasks",
          );
          if (want.files.length + want.tasks.length > 0) withWork++;
          for (
            const m of [
              facts.firstRequest,
              facts.lastRequest,
              facts.firstSubstantive,
              facts.lastSubstantive,
              ...facts.questions,
              ...facts.deferrals,
            ]
          ) {
            if (m) assert.doesNotMatch(m.text, WRAPPER, `line ${m.line}`);
          }
          const recovered = recoverMarkdown(facts);
          assert.doesNotMatch(requestsOf(recovered), WRAPPER, "recover's Goal and last request");
          // SessionEnd's own write, into a scratch store of the session's project.
          const into = join(scratch.path, String(sessions), ".claude", "state", "session");
          const store: Store = {
            root,
            dir: into,
            latest: join(into, "LATEST"),
            parked: join(into, "PARKED.md"),
            dropped: join(into, "dropped.jsonl"),
          };
          const answer = await draftSession({ store, transcript: path, session: "s", now: NOW });
          const docs = present(into)
            ? [...Deno.readDirSync(into)].filter((d) => d.name.endsWith("-draft.md"))
            : [];
          assert.equal(docs.length, worthCarrying(facts) ? 1 : 0, answer.reason);
          for (const doc of docs) {
            const draft = Deno.readTextFileSync(join(into, doc.name));
            assert.doesNotMatch(requestsOf(draft), WRAPPER, "the draft's Goal and last request");
            for (const line of draft.split("\n").filter((l) => l.includes("Unanswered:"))) {
              assert.doesNotMatch(line, WRAPPER, "a question");
            }
            const flat = draft.replace(/\s+/g, " ");
            for (const task of want.tasks) {
              const subject = String(task).replace(/\s+/g, " ").trim().replace(/\.$/, "");
              assert.ok(flat.includes(subject), `unfinished task in the draft: ${subject}`);
            }
          }
          // The quick look never calls idle a session the full reading finds worth carrying.
          if (idleSession(path) === true) assert.equal(worthCarrying(facts), false);
        });
      }
    }
    assert.ok(sessions >= 40, `sessions: ${sessions}`);
    assert.ok(withWork >= 15, `sessions with files or tasks: ${withWork}`);
  },
});
