/**
 * Test support for the CLI: runs a mode in-process with a scratch cwd, a pinned clock, given
 * stdin and captured output; and makes real git repositories with pinned commit dates.
 * @module
 */

import { main } from "../../lib/cli/main.ts";
import { join } from "../../lib/fs/path.ts";
import { isoStamp } from "../../lib/store/time.ts";
import { NOW } from "./scratch.ts";

/** What an in-process CLI run returned and printed. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `session.ts <args>` in-process. `env` replaces the environment (nothing is inherited). */
export async function cli(
  args: string[],
  o: { cwd: string; stdin?: string; now?: Date; env?: Record<string, string> },
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    cwd: o.cwd,
    env: (name) => o.env?.[name],
    now: o.now ?? NOW,
    readStdin: () => Promise.resolve(o.stdin ?? ""),
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** Runs git in `cwd` with a fixed identity; commit dates pinned to `at` (default NOW - 1 h). */
export async function git(cwd: string, args: string[], at?: Date): Promise<string> {
  const stamp = isoStamp(at ?? new Date(NOW.getTime() - 3_600_000));
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args],
    cwd,
    env: { GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout);
}

/** A scratch directory, made into a real git repository on `branch` unless `git: false`. */
export async function scratchRepo(
  o: { git?: boolean; branch?: string } = {},
): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "session-cli-" }));
  if (o.git !== false) await git(root, ["init", "-q", "-b", o.branch ?? "main"]);
  return { root, cleanup: () => Deno.remove(root, { recursive: true }) };
}

/** Writes `text` to `root/rel`, creating directories. */
export async function put(root: string, rel: string, text: string): Promise<void> {
  const path = join(root, rel);
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}
