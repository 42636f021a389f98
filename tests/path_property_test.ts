/**
 * Property: whatever characters the project's path, the checkout's path and the home directory
 * hold (every shell metacharacter, commas, quotes, newlines, non-ASCII, spaces, `$(…)`,
 * backticks), the command `install` registers — for every agent, scope and event — reaches Deno
 * as exactly the words install meant (SessionEnd and PreCompact with the agent's transcript folder
 * granted), the SessionStart one restores when a shell runs it, and the shell expands nothing: a
 * `touch PWNED` planted in the names never runs.
 */

import assert from "node:assert/strict";
import type { Scope } from "../lib/agents/targets.ts";
import { join } from "../lib/fs/path.ts";
import { prng } from "./support/prng.ts";
import { installHook, reasonOf, registeredCommand, runRegistered } from "./support/registered.ts";
import { hookFlags } from "../lib/agents/command.ts";
import { REPO, scratchDir, writeDoc } from "./support/scratch.ts";
import { clearPayload } from "./support/run.ts";
import { storeAt } from "../lib/store/store.ts";

/** Pieces a name is built from: each shell metacharacter, and whole injections. */
const PIECES = [
  ..."`$();|&<>*?[]{}~#!'\"\\,=%^ \t\n-_.",
  "é",
  "日本",
  "🙂",
  "a",
  "Z",
  "9",
  "$(touch PWNED)",
  "`touch PWNED`",
  ";touch PWNED;",
  "&& touch PWNED",
  "| touch PWNED",
  "$HOME",
  "${IFS}",
  "'$(touch PWNED)'",
  '"$(touch PWNED)"',
  ",",
  ",,",
];

/** A file name of pieces drawn by `rand` (never `.`/`..`, no `/` or NUL). */
function nameFrom(rand: () => number): string {
  let name = "p";
  const n = 2 + Math.floor(rand() * 6);
  for (let i = 0; i < n; i++) name += PIECES[Math.floor(rand() * PIECES.length)];
  return name;
}

/** The parts of this checkout the CLI and the hook need, copied under `dir`. */
async function copyCheckout(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  for (const f of ["session.ts", "session_restore.ts", "deno.json", "deno.lock"]) {
    await Deno.copyFile(join(REPO, f), join(dir, f));
  }
  const copyTree = async (sub: string) => {
    await Deno.mkdir(join(dir, sub), { recursive: true });
    for (const e of Deno.readDirSync(join(REPO, sub))) {
      if (e.isDirectory) await copyTree(join(sub, e.name));
      else if (e.isFile) await Deno.copyFile(join(REPO, sub, e.name), join(dir, sub, e.name));
    }
  };
  await copyTree("lib");
  await copyTree("bin");
}

/** Every file a planted `touch PWNED` made under `dir`. */
function planted(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      const path = join(d, e.name);
      if (e.name === "PWNED") out.push(path);
      if (e.isDirectory && !e.isSymlink) walk(path);
    }
  };
  walk(dir);
  return out;
}

/**
 * A stand-in `deno` that records the words the launcher passed it, one per NUL (and says it is
 * Deno 2 when the launcher asks).
 */
const FAKE_BIN = await Deno.makeTempDir({ prefix: "session-fake-deno-" });
await Deno.writeTextFile(
  join(FAKE_BIN, "deno"),
  `#!/bin/sh\n[ "$1" = --version ] && echo 'deno 2.9.6 (fake)' && exit 0\n` +
    `for a in "$@"; do printf '%s\\0' "$a"; done > "$ARGV_OUT"\n`,
);
await Deno.chmod(join(FAKE_BIN, "deno"), 0o755);
globalThis.addEventListener("unload", () => Deno.removeSync(FAKE_BIN, { recursive: true }));

/** The argv a shell gives `deno` for the registered `command`, run in `cwd`. */
async function argvOf(command: string, cwd: string): Promise<string[]> {
  const out = join(FAKE_BIN, `argv-${crypto.randomUUID()}`);
  const r = await new Deno.Command("sh", {
    args: ["-c", command],
    cwd,
    env: { PATH: `${FAKE_BIN}:/usr/bin:/bin`, ARGV_OUT: out },
    clearEnv: true,
  }).output();
  assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
  const words = (await Deno.readTextFile(out)).split("\0");
  await Deno.remove(out);
  return words.slice(0, -1);
}

/** Names every round checks, then generated ones. */
const FIXED: [string, string][] = [["a,b", "to,ol"], ["a b", "to$HOME"], [
  "$(touch PWNED)",
  "`touch PWNED`",
]];

Deno.test("property: any project or checkout path restores and runs nothing", async (t) => {
  const rand = prng(0x5e55);
  const rounds: [string, string][] = [...FIXED];
  for (let i = 0; i < 3; i++) rounds.push([nameFrom(rand), nameFrom(rand)]);
  for (const [projectName, checkoutName] of rounds) {
    await t.step(
      `project ${JSON.stringify(projectName)}, checkout ${JSON.stringify(checkoutName)}`,
      async () => {
        await using tmp = await scratchDir("session-prop-");
        const scratch = tmp.path;
        const root = join(scratch, projectName);
        const checkout = join(scratch, checkoutName, "session");
        // The transcript folders SessionEnd and PreCompact read sit under it: odd names too.
        const home = join(scratch, `home${projectName}`);
        await Deno.mkdir(join(root, ".git"), { recursive: true });
        await Deno.mkdir(home);
        await copyCheckout(checkout);
        const store = storeAt(root);
        await Deno.mkdir(store.dir, { recursive: true });
        const registrations: [string, Scope][] = [
          ["claude", "project"],
          ["claude", "local"],
          ["claude", "user"],
          ["codex", "project"],
          ["codex", "user"],
          ["gemini", "project"],
          ["gemini", "user"],
        ];
        for (const [agent, scope] of registrations) {
          const command = await installHook(root, {
            agent: agent as "claude" | "codex" | "gemini",
            scope,
            home,
            checkout,
          });
          const slug = `${agent}-${scope}`;
          await writeDoc(store, slug, { body: `## Goal\n\nMARK-${slug}\n` });
          const projectDir = agent === "codex" ? undefined : root;
          let r = await runRegistered(command, clearPayload(root), { cwd: root, projectDir });
          if (agent === "gemini") {
            assert.match(r.stdout, /will be restored with your next message/, r.stderr);
            r = await runRegistered(
              command,
              clearPayload(root, { hook_event_name: "BeforeAgent", source: undefined }),
              { cwd: root, projectDir },
            );
          }
          assert.deepEqual(planted(scratch), [], `${slug}: nothing ran`);
          assert.equal(r.code, 0);
          assert.match(
            r.stdout,
            new RegExp(`MARK-${slug}`),
            `${slug}: ${reasonOf(r)} ${r.stderr}`,
          );
          assert.match(await Deno.readTextFile(join(store.dir, `${slug}.md`)), /consumed: true/);
          if (agent === "gemini") continue;
          const transcripts = agent === "claude"
            ? join(home, ".claude", "projects")
            : join(home, ".codex", "sessions");
          for (const event of ["SessionEnd", "PreCompact"]) {
            const o = { agent: agent as "claude" | "codex", scope, home, event };
            const cmd = await registeredCommand(root, o);
            const grant = scope === "user" ? undefined : { root, top: root, also: [transcripts] };
            assert.deepEqual(await argvOf(cmd, root), [
              "run",
              ...hookFlags(grant, grant && join(checkout, "lib")),
              join(checkout, "session_restore.ts"),
              ...(agent === "claude" ? [] : ["--agent", agent]),
            ], `${slug} ${event}: the words install meant`);
            const payload = clearPayload(root, { hook_event_name: event, source: undefined });
            const ran = await runRegistered(cmd, payload, { cwd: root, projectDir });
            assert.equal(ran.code, 0, `${slug} ${event}: ${ran.stderr}`);
            assert.doesNotMatch(ran.stderr, /NotCapable|Requires (read|write) access/);
            assert.deepEqual(planted(scratch), [], `${slug} ${event}: nothing ran`);
          }
        }
      },
    );
  }
});
