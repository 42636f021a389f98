import assert from "node:assert/strict";
import { join } from "../lib/fs/path.ts";
import { REPO, scratchDir } from "./support/scratch.ts";

Deno.test("demo: a whole round trip from another directory, cleaned up", async () => {
  await using elsewhereDir = await scratchDir("session-demo-cwd-");
  const elsewhere = elsewhereDir.path;
  const env = Deno.env.toObject();
  delete env.CLAUDE_PROJECT_DIR;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", join(REPO, "scripts/demo.ts")],
    cwd: elsewhere,
    env: { ...env, NO_COLOR: "1" },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, stdout + new TextDecoder().decode(out.stderr));
  assert.match(stdout, /│ \/clear\n/, "dump's last line is /clear");
  assert.match(stdout, /│ \[session\] The previous session left this handover: "rate-limit"/);
  assert.match(stdout, /│ Add rate limiting to the public API/);
  assert.match(stdout, /nothing injected/);
  const scratch = /\(removed (\S+)\)/.exec(stdout)![1];
  await assert.rejects(Deno.stat(scratch), Deno.errors.NotFound);
  assert.deepEqual([...Deno.readDirSync(elsewhere)], [], "nothing written to the cwd");
});
