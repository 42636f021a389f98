/**
 * Every command `install` registers, for every agent and event, and the plugin's hooks/hooks.json,
 * run as the agent runs them (`sh -c`, tests/support/registered.ts) on a machine whose PATH has no
 * Deno (tests/support/bare_path.ts): with none anywhere each exits 0, SessionStart says what is
 * missing once a day and every other event says nothing; with Deno only in `~/.deno/bin` (the
 * official installer's folder) each restores, drafts and saves as usual. The plugin of opencode and
 * Kilo Code CLI runs its registered command for PreCompact too, told that event (hooks/opencode.ts
 * `commandFor`).
 */
import assert from "node:assert/strict";
import { AGENTS, eventOf } from "../lib/agents/targets.ts";
import { FLAT_ANSWER, PLUGIN_ROOT_VAR } from "../lib/agents/command.ts";
import { commandFor } from "../hooks/opencode.ts";
import { join } from "../lib/fs/path.ts";
import { clearPayload, contextOf } from "./support/run.ts";
import { installHook, reasonOf, registeredCommand, runRegistered } from "./support/registered.ts";
import { REPO, scratchDir, scratchProject, writeDoc } from "./support/scratch.ts";
import type { Agent } from "../lib/frame/budget.ts";
import { barePath, bareTest, placeDeno } from "./support/bare_path.ts";

/** One registered command: who registered it, for which event. */
interface Registered {
  label: string;
  agent: Agent;
  event: string;
  command: string;
}

/** Every registration of every agent (project scope), and the plugin's, for `root`. */
async function everyRegistration(root: string): Promise<Registered[]> {
  const out: Registered[] = [];
  for (const agent of Object.keys(AGENTS) as Agent[]) {
    await installHook(root, { agent });
    for (const target of AGENTS[agent].targets) {
      const event = eventOf(target);
      const command = await registeredCommand(root, { agent, event });
      out.push({ label: `${agent} ${event}`, agent, event, command });
      if (target.file) {
        // The plugin (opencode's, Kilo's, Cline's) runs its one command for a compaction's PreCompact too.
        out.push({
          label: `${agent} PreCompact`,
          agent,
          event: "PreCompact",
          command: commandFor(command, "PreCompact"),
        });
      }
    }
  }
  // Claude Code's status line (`install --statusline`), which it runs like a hook.
  await installHook(root, { flags: ["--statusline"] });
  const settings = JSON.parse(await Deno.readTextFile(join(root, ".claude", "settings.json")));
  out.push({
    label: "claude status line",
    agent: "claude",
    event: "StatusLine",
    command: settings.statusLine.command,
  });
  const plugin = JSON.parse(await Deno.readTextFile(join(REPO, "hooks", "hooks.json")));
  for (const [event, groups] of Object.entries(plugin.hooks)) {
    const command = (groups as { hooks: { command: string }[] }[])[0].hooks[0].command;
    assert.ok(command.includes(PLUGIN_ROOT_VAR), command);
    out.push({ label: `plugin ${event}`, agent: "claude", event, command });
  }
  return out;
}

/** The payload an agent sends for `event` (Gemini's BeforeAgent has no source). */
function payloadOf(root: string, r: Registered, session: string): string {
  const extra: Record<string, unknown> = { hook_event_name: r.event, session_id: session };
  if (r.event !== "SessionStart") extra.source = undefined;
  if (r.event === "PreCompact") extra.trigger = "auto";
  if (r.event === "SessionEnd") extra.reason = "clear";
  // GitHub Copilot CLI names /clear's new session (and a launch's first) `new`.
  if (r.agent === "copilot" && r.event === "SessionStart") extra.source = "new";
  return clearPayload(root, extra);
}

bareTest(
  "every registration with no Deno anywhere: exit 0, a message once on SessionStart",
  async (t) => {
    await using p = await scratchProject();
    await using tmp = await scratchDir("session-no-deno-");
    const bin = await barePath(join(tmp.path, "bin"));
    const home = join(tmp.path, "home");
    await Deno.mkdir(home);
    const registrations = await everyRegistration(p.root);
    // Every agent's events, the plugin files' PreCompact runs, the status line, the plugin's events.
    const events = Object.values(AGENTS).reduce((n, a) => n + a.targets.length, 0);
    const files = Object.values(AGENTS).filter((a) => a.targets[0].file).length;
    assert.equal(files, 3, "opencode, kilo and cline");
    assert.equal(registrations.length, events + files + 1 + AGENTS.claude.targets.length);
    let n = 0;
    for (const r of registrations) {
      await t.step(r.label, async () => {
        const cache = join(tmp.path, `cache${n++}`);
        const env = { PATH: bin, HOME: home, XDG_CACHE_HOME: cache, CLAUDE_PLUGIN_ROOT: REPO };
        const run = () =>
          runRegistered(r.command, payloadOf(p.root, r, "5e55-0001"), {
            cwd: p.root,
            projectDir: p.root,
            env,
          });
        const first = await run();
        assert.equal(first.code, 0, `${r.label}: ${first.stderr}`);
        assert.equal(first.stderr, "");
        if (r.event !== "SessionStart") {
          assert.equal(first.stdout, "", r.label);
          return;
        }
        const answer = JSON.parse(first.stdout);
        if (FLAT_ANSWER.includes(r.agent)) {
          // The one field Copilot reads: the model is told, in the words the others get.
          assert.deepEqual(Object.keys(answer), ["additionalContext"]);
          assert.match(answer.additionalContext, /^\[session\] No handover.*Deno 2 was not found/);
        } else {
          assert.match(answer.systemMessage, /^\[session\] Deno 2 was not found .* install it: /);
          assert.match(answer.hookSpecificOutput.additionalContext, /^\[session\] No handover/);
        }
        const again = await run();
        assert.deepEqual([again.code, again.stdout], [0, ""], `${r.label}: once a day`);
      });
    }
  },
);

bareTest("every registration with Deno only in ~/.deno/bin: restores as usual", async (t) => {
  await using p = await scratchProject();
  await using tmp = await scratchDir("session-home-deno-");
  const bin = await barePath(join(tmp.path, "bin"));
  const home = join(tmp.path, "home");
  await placeDeno(join(home, ".deno", "bin"));
  const env = {
    PATH: bin,
    HOME: home,
    XDG_CACHE_HOME: join(home, ".cache"),
    CLAUDE_PLUGIN_ROOT: REPO,
  };
  const registrations = await everyRegistration(p.root);
  let n = 0;
  for (const r of registrations) {
    await t.step(r.label, async () => {
      const session = `5e55-${String(n++).padStart(4, "0")}`;
      const run = (which: Registered) =>
        runRegistered(which.command, payloadOf(p.root, which, session), {
          cwd: p.root,
          projectDir: r.agent === "codex" ? undefined : p.root,
          env,
        });
      if (r.event === "BeforeAgent") return; // delivered in Gemini's SessionStart step
      if (r.event === "StatusLine") {
        const ran = await run(r);
        assert.equal(ran.code, 0, ran.stderr);
        assert.match(ran.stdout, /^session: .*\n$/);
        return;
      }
      if (r.event !== "SessionStart") {
        const ran = await run(r);
        assert.equal(ran.code, 0, `${r.label}: ${ran.stderr}`);
        assert.equal(ran.stdout, "");
        assert.ok(reasonOf(ran), `${r.label}: the hook ran and said why (${ran.stderr})`);
        return;
      }
      const slug = `mark-${session}`;
      await writeDoc(p.store, slug, { body: `## Goal\n\nMARK-${session}\n` });
      let ran = await run(r);
      assert.equal(ran.code, 0, `${r.label}: ${ran.stderr}`);
      if (r.agent === "gemini") {
        assert.match(ran.stdout, /will be restored with your next message/, ran.stderr);
        const deliver = registrations.find((x) => x.label === "gemini BeforeAgent")!;
        ran = await run(deliver);
      }
      assert.match(contextOf(ran) ?? "", new RegExp(`MARK-${session}`), reasonOf(ran));
      if (FLAT_ANSWER.includes(r.agent)) {
        assert.deepEqual(Object.keys(JSON.parse(ran.stdout)), ["additionalContext"], r.label);
      }
    });
  }
});
