/**
 * `deno task e2e`: the end-to-end tests in the real clients. Installs the pinned Claude Codes (once,
 * into .temp/e2e/), checks tmux, then runs every `tests/e2e/*_e2e.ts` with `deno test`. Kept out
 * of `deno task test` by name: it needs npm, tmux and a minute or two.
 * @module
 */

import { CLAUDE_CODE_VERSIONS, ensureClaude } from "./support/claude.ts";

const tmux = await new Deno.Command("tmux", { args: ["-V"], stdout: "piped", stderr: "piped" })
  .output().catch(() => undefined);
if (!tmux?.success) {
  console.error("e2e: tmux is missing; install it (apt-get install -y tmux) and rerun.");
  Deno.exit(1);
}
for (const version of CLAUDE_CODE_VERSIONS) {
  console.log(`e2e: installing Claude Code ${version} (pinned) …`);
  console.log(`e2e: ${await ensureClaude(version)}`);
}

const here = new URL(".", import.meta.url).pathname;
const files = [...Deno.readDirSync(here)].filter((e) => e.isFile && e.name.endsWith("_e2e.ts"))
  .map((e) => `${here}${e.name}`).sort();
const started = Date.now();
const { code } = await new Deno.Command(Deno.execPath(), {
  args: ["test", "--allow-all", ...files, ...Deno.args],
  stdout: "inherit",
  stderr: "inherit",
}).output();
console.log(
  `e2e: ${code === 0 ? "passed" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
Deno.exit(code);
