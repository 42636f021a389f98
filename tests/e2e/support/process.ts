/**
 * The processes the end-to-end tests start besides the clients' TUIs: plain commands, the pinned
 * npm installs into `.temp/e2e/`, the environment every client runs with (scratch HOME, the
 * runner's Deno and module cache), and the session CLI run in a scratch project.
 * @module
 */

import { CLI_FLAGS, projectFile } from "../../../lib/agents/command.ts";

/** Runs `cmd` to completion; its stdout + stderr, or an error carrying them when it fails. */
export async function run(cmd: string, args: string[], cwd?: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed:\n${text}`);
  return text;
}

/** Commits everything in the git repository at `dir` (empty commits too) as the e2e author. */
export async function commitAll(dir: string, subject: string): Promise<void> {
  await run("git", ["add", "-A"], dir);
  await run("git", [
    "-c",
    "user.name=e2e",
    "-c",
    "user.email=e2e@example.invalid",
    "commit",
    "-q",
    "--allow-empty",
    "-m",
    subject,
  ], dir);
}

/** `npm install`s `spec` (e.g. `pkg@1.2.3`) into the private `prefix`, quietly. */
export async function npmInstall(prefix: string, spec: string): Promise<void> {
  await Deno.mkdir(prefix, { recursive: true });
  await run("npm", [
    "install",
    "--prefix",
    prefix,
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    spec,
  ]);
}

let cache: string | undefined;

/** The runner's Deno module cache: a scratch HOME has none, and must need no download. */
export function denoDir(): string {
  if (cache) return cache;
  cache = Deno.env.get("DENO_DIR");
  if (!cache) {
    const out = new Deno.Command(Deno.execPath(), {
      args: ["info", "--json"],
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    try {
      cache = JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
    } catch {
      // fall back to the default location below
    }
  }
  cache ??= `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;
  return cache;
}

/** The environment every client runs with: scratch HOME, Deno on PATH with the real module cache. */
export function clientEnv(home: string, extra: Record<string, string>): Record<string, string> {
  return {
    HOME: home,
    PATH: `${Deno.execPath().replace(/\/[^/]+$/, "")}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    DENO_DIR: denoDir(),
    ...extra,
  };
}

/** Runs the session CLI in `world`'s project with `stdin` as its input (for install, dump, …). */
export async function runCli(
  world: { home: string; project: string },
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...CLI_FLAGS, projectFile("session.ts"), ...args],
    cwd: world.project,
    env: { HOME: world.home, DENO_DIR: denoDir(), ...options.env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? ""));
  await writer.close();
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * A folder of links to every tool in /usr/bin and /bin except `deno`: a PATH on which the clients
 * run and Deno is missing (this machine's /usr/bin holds a `deno`).
 */
export async function pathWithoutDeno(dir: string): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  for (const from of ["/usr/bin", "/bin"]) {
    for await (const e of Deno.readDir(from)) {
      if (e.name === "deno") continue;
      await Deno.symlink(`${from}/${e.name}`, `${dir}/${e.name}`).catch(() => {});
    }
  }
  return dir;
}
