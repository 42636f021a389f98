/**
 * Test support: scratch projects, handover documents, and running the two scripts as processes
 * the way Claude Code does.
 * @module
 */

import { renderFrontMatter } from "../../lib/store/front_matter.ts";
import { join } from "../../lib/fs/path.ts";
import { type Store, storeAt } from "../../lib/store/store.ts";
import { isoStamp } from "../../lib/store/time.ts";

/** The repository root (where session.ts lives). */
export const REPO = decodeURIComponent(new URL("../../", import.meta.url).pathname).replace(
  /\/$/,
  "",
);
/** Absolute path of the hook script. */
export const HOOK = join(REPO, "session_restore.ts");
/** Absolute path of the CLI script. */
export const CLI = join(REPO, "session.ts");

/** A fixed "now" for tests: nothing reads the real clock. */
export const NOW = new Date("2026-11-30T12:00:00Z");

/** A scratch project directory; removed by `cleanup`. */
export interface Project {
  root: string;
  store: Store;
  cleanup: () => Promise<void>;
}

/** Makes a scratch project (a git repo unless `git: false`) with its store directory. */
export async function makeProject(options: { git?: boolean; store?: boolean } = {}): Promise<
  Project
> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "session-test-" }));
  if (options.git !== false) await Deno.mkdir(join(root, ".git"));
  const store = storeAt(root);
  if (options.store !== false) await Deno.mkdir(store.dir, { recursive: true });
  return { root, store, cleanup: () => Deno.remove(root, { recursive: true }) };
}

/** Options for a handover document written straight into a store. */
export interface DocOptions {
  created?: Date | string | null;
  consumed?: boolean;
  branch?: string;
  body?: string;
  crlf?: boolean;
  latest?: boolean;
}

/** A small, typical handover body. */
export const BODY = [
  "## Goal",
  "",
  "Ship the restore hook.",
  "",
  "## Decisions",
  "",
  "- Rename LATEST to claim it — why: exactly one hook may inject.",
  "",
  "## Next step",
  "",
  "Run the tests.",
  "",
].join("\n");

/** Writes a document (and by default points LATEST at it); returns its text. */
export async function writeDoc(store: Store, slug: string, o: DocOptions = {}): Promise<string> {
  const created = o.created === undefined ? NOW : o.created;
  const fields: [string, string][] = [["slug", slug]];
  if (created !== null) {
    fields.push(["created", typeof created === "string" ? created : isoStamp(created)]);
  }
  fields.push(["consumed", String(o.consumed ?? false)], ["branch", o.branch ?? "main"]);
  let text = renderFrontMatter(fields) + "\n" + (o.body ?? BODY);
  if (o.crlf) text = text.replaceAll("\n", "\r\n");
  await Deno.writeTextFile(join(store.dir, `${slug}.md`), text);
  if (o.latest !== false) await Deno.writeTextFile(store.latest, slug + "\n");
  return text;
}

/** What a finished process left. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The payload Claude Code sends on `/clear`. */
export function clearPayload(cwd: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "00000000-0000-4000-8000-000000000000",
    transcript_path: join(cwd, "transcript.jsonl"),
    cwd,
    hook_event_name: "SessionStart",
    source: "clear",
    ...extra,
  });
}

/** Options for running a script. */
export interface RunOptions {
  stdin?: string | Uint8Array;
  cwd?: string;
  env?: Record<string, string>;
  now?: Date;
  /** Deno permission flags; default: read, write, env, run=git. */
  flags?: string[];
  /** Variables of the runner's environment to leave out. */
  unset?: string[];
}

/** The runner's environment minus what would point a child at a real project or session. */
function baseEnv(unset: string[] = []): Record<string, string> {
  const env = Deno.env.toObject();
  for (const name of ["CLAUDE_PROJECT_DIR", "CLAUDE_CODE_SESSION_ID", "SESSION_DEBUG", ...unset]) {
    delete env[name];
  }
  return env;
}

/** Runs `program` with `args` and exactly `env`, `stdin` fed and closed; collects the output. */
export async function runProcess(
  program: string,
  args: string[],
  o: { cwd?: string; env: Record<string, string>; stdin?: string | Uint8Array },
): Promise<Ran> {
  const child = new Deno.Command(program, {
    args,
    cwd: o.cwd,
    env: o.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const input = o.stdin ?? "";
  await writer.write(typeof input === "string" ? new TextEncoder().encode(input) : input).catch(
    () => {},
  );
  await writer.close().catch(() => {});
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Runs `script` with `args` as a process, stdin fed and closed, with a pinned clock. */
export function runScript(script: string, args: string[], o: RunOptions = {}): Promise<Ran> {
  const flags = o.flags ?? ["--allow-read", "--allow-write", "--allow-env", "--allow-run=git"];
  return runProcess(Deno.execPath(), ["run", "--no-prompt", ...flags, script, ...args], {
    cwd: o.cwd,
    env: { ...baseEnv(o.unset), SESSION_NOW: isoStamp(o.now ?? NOW), NO_COLOR: "1", ...o.env },
    stdin: o.stdin,
  });
}

/** Runs the hook with a payload, as Claude Code does (CLAUDE_PROJECT_DIR unset unless given). */
export function runHook(payload: string | Uint8Array, o: RunOptions & { args?: string[] } = {}) {
  return runScript(HOOK, o.args ?? [], { ...o, stdin: payload, env: { ...o.env } });
}

/** Runs the CLI with `args`. */
export function runCli(args: string[], o: RunOptions = {}): Promise<Ran> {
  return runScript(CLI, args, o);
}

/** The additionalContext of the hook's stdout, or undefined when it printed nothing. */
export function contextOf(ran: Ran): string | undefined {
  if (ran.stdout.trim() === "") return undefined;
  const parsed = JSON.parse(ran.stdout);
  return parsed.hookSpecificOutput.additionalContext;
}

/** Makes a named pipe (Deno has no API for one): reading it would block forever. */
export async function mkfifo(path: string): Promise<void> {
  const { code } = await new Deno.Command("mkfifo", { args: [path] }).output();
  if (code !== 0) throw new Error(`mkfifo ${path} failed`);
}
