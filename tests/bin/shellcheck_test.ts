/**
 * The launcher is POSIX sh that shellcheck finds nothing in (every agent and the CLI start Deno
 * through it, under dash, bash, busybox ash or Git Bash). Skipped, saying so, where shellcheck is
 * not installed; `.ci/run` installs Debian's package and also runs it by itself.
 */
import assert from "node:assert/strict";
import { join } from "../../lib/fs/path.ts";
import { REPO } from "../support/scratch.ts";

/** shellcheck's version line, or undefined when it cannot run here. */
function shellcheck(): string | undefined {
  try {
    const out = new Deno.Command("shellcheck", { args: ["--version"], stdout: "piped" })
      .outputSync();
    return out.success ? new TextDecoder().decode(out.stdout).split("\n")[1] : undefined;
  } catch {
    return undefined;
  }
}

const VERSION = shellcheck();

Deno.test({
  name: VERSION === undefined
    ? "bin/with-deno: shellcheck: skipped, shellcheck is not installed (.ci/run installs it)"
    : `bin/with-deno: shellcheck (${VERSION}) finds nothing, as POSIX sh`,
  ignore: VERSION === undefined,
  fn: async () => {
    const out = await new Deno.Command("shellcheck", {
      args: ["--shell=sh", "--severity=style", join(REPO, "bin", "with-deno")],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text);
    assert.equal(text, "");
  },
});
