/**
 * `deno task demo`: one round trip in a scratch git repository — the agent dumps a handover,
 * the user runs `/clear`, the SessionStart hook injects it into the fresh context; a second
 * `/clear` injects nothing. Runs the real scripts as processes; works from any directory;
 * removes its scratch directory.
 * @module
 */

import { CLI_FLAGS, projectFile } from "../lib/agents/command.ts";
import { MODES } from "../lib/cli/main.ts";

const CLI = projectFile("session.ts");
const HOOK = projectFile("session_restore.ts");
const dec = new TextDecoder();

/** The environment of the children: the user's, minus what would point them at a real project. */
function childEnv(): Record<string, string> {
  const env = Deno.env.toObject();
  for (
    const name of [
      "CLAUDE_PROJECT_DIR",
      "CLAUDE_CODE_SESSION_ID",
      "CLAUDE_CONFIG_DIR",
      "SESSION_NOW",
    ]
  ) {
    delete env[name];
  }
  return { ...env, NO_COLOR: "1" };
}

async function run(cmd: string, args: string[], cwd: string, stdin = ""): Promise<
  { code: number; stdout: string; stderr: string }
> {
  const child = new Deno.Command(cmd, {
    args,
    cwd,
    env: childEnv(),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
  await w.close();
  const out = await child.output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const r = await run(
    "git",
    ["-c", "user.name=Demo", "-c", "user.email=demo@example.com", ...args],
    cwd,
  );
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
}

function session(cwd: string, args: string[], stdin = "") {
  return run(Deno.execPath(), ["run", "--no-prompt", ...CLI_FLAGS, CLI, ...args], cwd, stdin);
}

function hook(cwd: string, payload: unknown) {
  return run(
    Deno.execPath(),
    ["run", "--no-prompt", "--allow-read", "--allow-write", "--allow-env", HOOK],
    cwd,
    JSON.stringify(payload),
  );
}

function step(title: string): void {
  console.log(`\n━━ ${title} ${"━".repeat(Math.max(0, 72 - title.length))}`);
}

function indent(text: string, prefix = "  │ "): string {
  return text.trimEnd().split("\n").map((l) => prefix + l).join("\n");
}

const HANDOVER = `## Goal

Add rate limiting to the public API without touching the auth middleware.

## Decisions

- Token bucket per API key, in memory — why: one instance today; Redis when we scale out.
- 429 with a Retry-After header — why: the SDKs already back off on it.

## Lessons / corrections

- The integration tests need \`API_KEY=test\`; without it they silently skip.

## Standing instructions

- Never commit to main directly; open a PR.

## Outstanding

- **bucket-metrics** — Expose bucket fill levels as metrics. Why: ops asked. Next: add a gauge.

## Next step

Write the test for burst traffic in \`tests/limiter_test.ts\`, then wire the limiter into \`src/server.ts\`.
`;

const root = await Deno.makeTempDir({ prefix: "session-demo-" });
let failed = false;
try {
  step("1. A project with some work in progress");
  await git(root, "init", "-q", "-b", "feat/rate-limit");
  await Deno.mkdir(`${root}/src`);
  await Deno.writeTextFile(`${root}/src/server.ts`, "export const port = 8080;\n");
  await git(root, "add", ".");
  await git(root, "commit", "-qm", "initial server");
  await Deno.writeTextFile(`${root}/src/limiter.ts`, "export class TokenBucket {}\n");
  await Deno.writeTextFile(
    `${root}/src/server.ts`,
    "export const port = 8080;\nexport const limit = 100;\n",
  );
  console.log(`  scratch repo: ${root} (branch feat/rate-limit, one edit, one new file)`);
  if ("park" in MODES) {
    const parked = await session(root, [
      "park",
      "Flaky",
      "CI",
      "on",
      "macOS",
      "--why",
      "timeouts",
      "--next",
      "bisect",
    ]);
    console.log(indent(parked.stdout || parked.stderr));
  }

  step("2. The agent writes its handover: session.ts dump rate-limit < sections.md");
  const dumped = await session(root, ["dump", "rate-limit"], HANDOVER);
  console.log(indent(dumped.stdout + dumped.stderr));
  if (dumped.code !== 0) throw new Error(`dump exited ${dumped.code}`);

  step("3. The user runs /clear: Claude Code fires the SessionStart hook");
  const payload = {
    hook_event_name: "SessionStart",
    source: "clear",
    cwd: root,
    session_id: "11111111-2222-4333-8444-555555555555",
    transcript_path: `${root}/.demo-transcript.jsonl`,
  };
  console.log(indent(JSON.stringify(payload), "  stdin: "));
  const first = await hook(root, payload);
  if (first.code !== 0 || first.stdout.trim() === "") {
    throw new Error(`the hook injected nothing (exit ${first.code}): ${first.stderr}`);
  }
  const context = JSON.parse(first.stdout).hookSpecificOutput.additionalContext as string;
  console.log(`  The fresh context starts with (${context.length} characters):\n`);
  console.log(indent(context));

  step("4. A second /clear injects nothing: the handover was consumed");
  const second = await hook(root, {
    ...payload,
    session_id: "66666666-7777-4888-9999-000000000000",
  });
  console.log(
    second.stdout.trim() === "" && second.code === 0
      ? "  (hook exit 0, nothing on stdout: nothing injected)"
      : `  UNEXPECTED: exit ${second.code}, stdout ${second.stdout}`,
  );
  if (second.stdout.trim() !== "") failed = true;

  step("5. What the store holds now: session.ts list");
  const listed = await session(root, ["list"]);
  console.log(indent(listed.stdout + listed.stderr));
} catch (err) {
  failed = true;
  console.error(`demo failed: ${err instanceof Error ? err.message : err}`);
} finally {
  await Deno.remove(root, { recursive: true }).catch(() => {});
  console.log(`\n(removed ${root})`);
}
Deno.exit(failed ? 1 : 0);
