/**
 * Test support: a machine without Deno on PATH, and Deno put where the official installer puts it.
 * {@link barePath} is a folder holding only the tools the launcher (bin/with-deno) and `sh -c`
 * use, linked from the system, so a PATH of it alone has no `deno` (this machine's /usr/bin does).
 * @module
 */

import { join } from "../../lib/fs/path.ts";
import { REPO } from "./scratch.ts";

/** The launcher, in this checkout. */
export const LAUNCHER_PATH = join(REPO, "bin", "with-deno");

/** The tools linked into a bare PATH: what bin/with-deno and the agents' `sh -c` run. */
const TOOLS = ["sh", "cat", "mkdir", "mv", "rm", "date"];

/** Where a tool lives on this machine (the first of /usr/bin, /bin that holds it). */
function systemTool(name: string): string {
  for (const dir of ["/usr/bin", "/bin"]) {
    try {
      Deno.statSync(join(dir, name));
      return join(dir, name);
    } catch { /* next */ }
  }
  throw new Error(`no ${name} in /usr/bin or /bin`);
}

/** Makes `dir` a PATH folder of the launcher's tools and nothing else; returns it. */
export async function barePath(dir: string): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  for (const tool of TOOLS) await Deno.symlink(systemTool(tool), join(dir, tool));
  return dir;
}

/** Puts a `deno` at `dir` (created) that is `target` (default: the Deno running the tests). */
export async function placeDeno(dir: string, target = Deno.execPath()): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, "deno");
  await Deno.symlink(target, path);
  return path;
}

/**
 * A stand-in `deno` at `dir` that reports `version`, counts its `--version` calls in `<dir>/asked`
 * and otherwise prints `deno <version>` and its words, one a line, so a test sees which Deno the
 * launcher ran and with what.
 */
export async function fakeDeno(dir: string, version: string, name = "deno"): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, name);
  const asked = join(dir, "asked").replaceAll("'", `'\\''`);
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nif [ "$1" = --version ]; then echo x >> '${asked}'; ` +
      `echo 'deno ${version} (stable, release, x86_64-unknown-linux-gnu)'; exit 0; fi\n` +
      `echo 'deno ${version}'; printf 'ran:%s\\n' "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/** How many times the stand-in at `dir` was asked its version. */
export function versionAsks(dir: string): number {
  try {
    return Deno.readTextFileSync(join(dir, "asked")).split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** Why a test of a bare PATH cannot run here (Windows), or undefined where it can. */
export const BARE_PATH_MISSING = Deno.build.os === "windows"
  ? "skipped on Windows: a bare PATH is made of /usr/bin's tools by symlink (the Windows rules " +
    "are fed as strings in tests/agents/windows_paths_test.ts)"
  : undefined;

/** `Deno.test` for a test that needs a bare PATH: skipped, saying why, where there is none. */
export function bareTest(name: string, fn: (t: Deno.TestContext) => Promise<void>): void {
  Deno.test({
    name: BARE_PATH_MISSING ? `${name}: ${BARE_PATH_MISSING}` : name,
    ignore: BARE_PATH_MISSING !== undefined,
    fn,
  });
}
