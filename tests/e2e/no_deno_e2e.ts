/**
 * End to end in the real Claude Code on a machine without Deno: every tool of /usr/bin and /bin
 * but `deno` on PATH, and none in ~/.deno/bin. The hooks `install` registered start Deno through
 * bin/with-deno, so `/clear` is no hook error: the user sees the one-line `systemMessage` on the
 * screen, the next request carries the agent's line (`additionalContext`), and a second `/clear`
 * the same day says nothing. Then Deno appears in ~/.deno/bin (the official installer's folder),
 * and the next `/clear` works with no other change: SessionEnd drafts, SessionStart restores.
 */

import assert from "node:assert/strict";
import { isoStamp } from "../../lib/store/time.ts";
import { ensureClaudes, makeWorld, startClaude } from "./support/claude.ts";
import { lastUserText, type StandIn, startStandIn } from "./support/stand_in.ts";
import { pathWithoutDeno, runCli } from "./support/process.ts";
import { sleep, type Tmux } from "./support/tmux.ts";

const NOW = new Date("2026-11-30T12:00:00Z");
const ENV = { SESSION_NOW: isoStamp(NOW) };

/** Sends `prompt` and returns the raw request it produced. */
async function ask(tmux: Tmux, standIn: StandIn, prompt: string): Promise<string> {
  const since = standIn.requests.length;
  await tmux.submit(prompt);
  const r = await standIn.waitFor((r) => lastUserText(r).includes(prompt), {
    since,
    timeoutMs: 30_000,
  });
  return r.raw;
}

for (const { version, bin } of await ensureClaudes()) {
  Deno.test(`Claude Code ${version}: no Deno on PATH is a message; then ~/.deno/bin just works`, async (t) => {
    const world = await makeWorld(version);
    const standIn = startStandIn(() => ({ text: "OK." }));
    let tmux: Tmux | undefined;
    try {
      const r = await runCli(world, ["install"]);
      assert.equal(r.code, 0, r.stderr);
      const path = await pathWithoutDeno(`${world.home}/../no-deno-bin`);
      tmux = await startClaude(bin, world, standIn, { env: { ...ENV, PATH: path } });

      await t.step("/clear: the user sees the one line, not a hook error", async () => {
        await tmux!.submit("/clear");
        const screen = await tmux!.waitForScreen("Deno 2 was not found", 20_000);
        assert.match(screen, /\[session\] Deno 2 was not found/);
        console.log(screen.split("\n").filter((l) => l.includes("[session]")).join("\n"));
        assert.doesNotMatch(screen, /hook error|exit code 127|not found\s*$/im);
      });
      await t.step("the next request carries the agent's line", async () => {
        const raw = await ask(tmux!, standIn, "hello after clear");
        assert.ok(raw.includes("[session] No handover was restored or saved: Deno 2"), raw);
        assert.ok(raw.includes("never install a runtime unasked"));
      });
      await t.step("a second /clear the same day: nothing", async () => {
        await tmux!.submit("/clear");
        await sleep(3_000);
        const raw = await ask(tmux!, standIn, "hello again");
        assert.ok(!raw.includes("[session] No handover"), "once a day");
      });
      await t.step("Deno in ~/.deno/bin: the next /clear drafts and restores", async () => {
        await Deno.mkdir(`${world.home}/.deno/bin`, { recursive: true });
        await Deno.symlink(Deno.execPath(), `${world.home}/.deno/bin/deno`);
        await tmux!.submit("/clear");
        await sleep(5_000);
        // SessionEnd drafted the session that said "hello again"; SessionStart injects its notice,
        // whose recall command runs through the launcher too.
        const raw = await ask(tmux!, standIn, "go on");
        assert.ok(raw.includes("[session] The previous session left no handover; an automatic"));
        assert.ok(raw.includes("/bin/with-deno run --allow-read"), "the recall command");
      });
    } finally {
      await tmux?.kill();
      await standIn.close();
      await world.cleanup();
      await Deno.remove(`${world.home}/../no-deno-bin`, { recursive: true }).catch(() => {});
    }
  });
}
