/**
 * Test support: the two ways a test runs session. In-process ({@link runCliInProcess}: the
 * dispatcher with a captured Context, a pinned clock and given stdin) and as a process
 * ({@link runCliProcess}, {@link runHookProcess}: `deno run … session.ts` / the hook script, the
 * way an agent does). The hook exactly as an installed agent runs it is in registered.ts.
 * @module
 */

import { CLI_FLAGS } from "../../lib/agents/command.ts";
import { answer, type HookAnswer } from "../../lib/hook/answer.ts";
import { DEFAULT_OPTIONS, type Payload, type RestoreOptions } from "../../lib/hook/input.ts";
import type { HookEnv } from "../../lib/hook/restore.ts";
import { main } from "../../lib/cli/main.ts";
import { decodeStdin } from "../../lib/cli/run_context.ts";
import { join } from "../../lib/fs/path.ts";
import { isoStamp } from "../../lib/store/time.ts";
import { CLI, HOOK, NOW } from "./scratch.ts";

/** What an in-process CLI run returned and printed. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `session.ts <args>` in-process. `env` replaces the environment (nothing is inherited). */
export async function runCliInProcess(
  args: string[],
  o: { cwd: string; stdin?: string; now?: Date; env?: Record<string, string> },
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    cwd: o.cwd,
    env: (name) => o.env?.[name],
    now: o.now ?? NOW,
    // As session.ts reads it: bytes decoded by the one text rule.
    readStdin: () => Promise.resolve(decodeStdin(new TextEncoder().encode(o.stdin ?? ""))),
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** The hook's answer in-process (lib/hook/answer.ts `answer`), at the pinned {@link NOW}. */
export function answerInProcess(
  payload: Payload,
  options: RestoreOptions = DEFAULT_OPTIONS,
  env: HookEnv = {},
  now: Date = NOW,
): Promise<HookAnswer> {
  return answer(payload, options, env, now);
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
  const flags = o.flags ?? CLI_FLAGS;
  // Once: Deno 2.0 refuses a flag given twice, and a registered hook's flags carry it already.
  const prompt = flags.includes("--no-prompt") ? [] : ["--no-prompt"];
  return runProcess(Deno.execPath(), ["run", ...prompt, ...flags, script, ...args], {
    cwd: o.cwd,
    env: { ...baseEnv(o.unset), SESSION_NOW: isoStamp(o.now ?? NOW), NO_COLOR: "1", ...o.env },
    stdin: o.stdin,
  });
}

/** Runs the hook as a process with a payload (CLAUDE_PROJECT_DIR unset unless given). */
export function runHookProcess(
  payload: string | Uint8Array,
  o: RunOptions & { args?: string[] } = {},
): Promise<Ran> {
  return runScript(HOOK, o.args ?? [], { ...o, stdin: payload, env: { ...o.env } });
}

/** Runs the CLI (`session.ts <args>`) as a process. */
export function runCliProcess(args: string[], o: RunOptions = {}): Promise<Ran> {
  return runScript(CLI, args, o);
}

/**
 * The additionalContext of the hook's stdout (GitHub Copilot CLI's: at the top level), or
 * undefined when it printed nothing.
 */
export function contextOf(ran: Ran): string | undefined {
  if (ran.stdout.trim() === "") return undefined;
  const parsed = JSON.parse(ran.stdout);
  return parsed.hookSpecificOutput?.additionalContext ?? parsed.additionalContext;
}

/**
 * `flags` plus `--v8-flags=<extra>` when `extra` is set: a test's heap cap, so a run whose memory
 * grows with its input fails loudly (no command a user runs carries a V8 flag).
 */
export function withV8(flags: string[], extra: string | undefined): string[] {
  return extra ? [...flags, `--v8-flags=${extra}`] : flags;
}
