/**
 * Which transcript files are opened (lib/transcript/open.ts): a regular file inside its
 * transcripts folder, symlinks resolved; never a FIFO, never a symlink that leads out. In-process
 * for the rule (a FIFO only in a process, which a timer can kill: opened by mistake, it blocks), and
 * as Claude Code runs the hook (SessionEnd, PreCompact) with the registered
 * least privilege: a FIFO does not block it, a symlink to a file outside carries nothing of it.
 */
import assert from "node:assert/strict";
import { hookFlags, projectFile } from "../../lib/agents/command.ts";
import { join } from "../../lib/fs/path.ts";
import { isoStamp } from "../../lib/store/time.ts";
import { NotATranscript, openTranscript, transcriptsFolder } from "../../lib/transcript/open.ts";
import { readTranscript } from "../../lib/transcript/claude.ts";
import { HOOK, NOW, scratchDir, scratchProject } from "../support/scratch.ts";
import * as fx from "../continuity/_fixture.ts";

/** A folder laid out as Claude Code's: `<dir>/projects/<project folder>/`. */
function projectsIn(dir: string): { projects: string; folder: string } {
  const projects = join(dir, "projects");
  const folder = join(projects, "-home-me-app");
  Deno.mkdirSync(folder, { recursive: true });
  return { projects, folder };
}

/** Makes a FIFO at `path` (no Deno API makes one). */
function mkfifo(path: string): void {
  const out = new Deno.Command("mkfifo", { args: [path] }).outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

const WINDOWS = Deno.build.os === "windows";

Deno.test("transcriptsFolder: the nearest projects/ or sessions/ above, else the file's folder", () => {
  assert.equal(transcriptsFolder("/h/.claude/projects/-a/s.jsonl"), "/h/.claude/projects");
  assert.equal(
    transcriptsFolder("/h/.claude/projects/-a/s/subagents/agent-1.jsonl"),
    "/h/.claude/projects",
  );
  assert.equal(
    transcriptsFolder("/h/.codex/sessions/2026/11/30/rollout-x.jsonl"),
    "/h/.codex/sessions",
  );
  assert.equal(transcriptsFolder("/tmp/x/t.jsonl"), "/tmp/x");
  assert.equal(transcriptsFolder("t.jsonl"), ".");
  assert.equal(
    transcriptsFolder("C:\\Users\\me\\.claude\\projects\\-a\\s.jsonl"),
    "C:/Users/me/.claude/projects",
  );
});

Deno.test({
  name: "openTranscript: regular files inside the folder only",
  ignore: WINDOWS,
  fn: async (t) => {
    await using home = await scratchDir();
    const { projects, folder } = projectsIn(home.path);
    const ok = join(folder, "ok.jsonl");
    Deno.writeTextFileSync(ok, "{}\n");
    const outside = join(home.path, "secret.txt");
    Deno.writeTextFileSync(outside, "SECRET\n");
    await t.step("a regular file, and a symlink to one in the folder", () => {
      openTranscript(ok).close();
      Deno.symlinkSync(ok, join(folder, "link.jsonl"));
      openTranscript(join(folder, "link.jsonl")).close();
    });
    await t.step("a symlink to a file outside, or through a symlinked folder, is refused", () => {
      Deno.symlinkSync(outside, join(folder, "out.jsonl"));
      assert.throws(() => openTranscript(join(folder, "out.jsonl")), /leads outside/);
      Deno.mkdirSync(join(home.path, "elsewhere"));
      Deno.writeTextFileSync(join(home.path, "elsewhere", "t.jsonl"), "{}\n");
      Deno.symlinkSync(join(home.path, "elsewhere"), join(projects, "-other"));
      assert.throws(() => openTranscript(join(projects, "-other", "t.jsonl")), /leads outside/);
    });
    await t.step(
      "a symlink into a sibling folder sharing the prefix (projects-evil/) is refused",
      () => {
        const evil = join(home.path, "projects-evil");
        Deno.mkdirSync(evil);
        Deno.writeTextFileSync(join(evil, "t.jsonl"), "{}\n");
        Deno.symlinkSync(join(evil, "t.jsonl"), join(folder, "evil.jsonl"));
        assert.throws(() => openTranscript(join(folder, "evil.jsonl")), /leads outside/);
      },
    );
    await t.step(
      "a directory is no transcript; a missing file throws the file system's error",
      () => {
        assert.throws(() => openTranscript(folder), NotATranscript);
        assert.throws(() => openTranscript(join(folder, "none.jsonl")), Deno.errors.NotFound);
      },
    );
    await t.step("the reader rejects them, so nothing of their text is read", async () => {
      await assert.rejects(() => readTranscript(join(folder, "out.jsonl"), { root: "/" }));
    });
  },
});

/** The registered hook for `event`, read also on `projects`; killed (and failing) after 10 s. */
async function runHook(root: string, projects: string, payload: object) {
  const flags = hookFlags({ root, also: [projects] }, projectFile("lib"));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, HOOK],
    cwd: root,
    env: { SESSION_NOW: isoStamp(NOW), SESSION_DEBUG: "1", NO_COLOR: "1" },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const started = performance.now();
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(payload)));
  await writer.close();
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  return {
    code: out.code,
    signal: out.signal,
    ms: performance.now() - started,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

Deno.test({
  name: "process: a FIFO as transcript_path blocks neither SessionEnd nor PreCompact",
  ignore: WINDOWS,
  fn: async (t) => {
    await using p = await scratchProject();
    await using home = await scratchDir();
    const { projects, folder } = projectsIn(home.path);
    const fifo = join(folder, `${fx.SESSION}.jsonl`);
    mkfifo(fifo);
    for (const event of ["SessionEnd", "PreCompact"]) {
      await t.step(event, async () => {
        const ran = await runHook(p.root, projects, {
          ...fx.endPayload(p.root, fifo),
          hook_event_name: event,
          trigger: "manual",
        });
        assert.equal(ran.signal, null, `killed after ${Math.round(ran.ms)} ms: it blocked`);
        assert.equal(ran.code, 0, ran.stderr);
        assert.equal(ran.stdout, "");
        assert.ok(ran.ms < 5_000, `${Math.round(ran.ms)} ms`);
      });
    }
    assert.deepEqual(fx.docsIn(p.store), [], "nothing drafted");
  },
});

Deno.test({
  name: "process: a symlink out of the transcripts folder carries nothing into a draft or a card",
  ignore: WINDOWS,
  fn: async () => {
    await using p = await scratchProject();
    await using home = await scratchDir();
    await using elsewhere = await scratchDir();
    const { projects, folder } = projectsIn(home.path);
    // A session's text, worth a draft, in a file outside the transcripts folder (and the grant).
    const secret = join(elsewhere.path, "private.jsonl");
    Deno.writeTextFileSync(
      secret,
      fx.timedTranscript(p.root, [{
        at: fx.minutesAgo(5),
        steps: [{ prompt: "PRIVATE-MARKER do not copy this anywhere" }, ...fx.workSteps()],
      }]),
    );
    const link = join(folder, `${fx.SESSION}.jsonl`);
    Deno.symlinkSync(secret, link);
    const ran = await runHook(p.root, projects, fx.endPayload(p.root, link));
    assert.equal(ran.code, 0, ran.stderr);
    const written = fx.docsIn(p.store).map((n) => Deno.readTextFileSync(join(p.store.dir, n)));
    assert.deepEqual(written.filter((d) => d.includes("PRIVATE-MARKER")), []);
    assert.deepEqual(written, [], "nothing drafted");
    assert.match(ran.stderr, /leads outside/);
    // PreCompact saves nothing of it for the card either (its task would be on it).
    const pre = await runHook(p.root, projects, {
      ...fx.endPayload(p.root, link),
      hook_event_name: "PreCompact",
      trigger: "auto",
    });
    assert.equal(pre.code, 0, pre.stderr);
    const saved = [...Deno.readDirSync(p.store.dir)].filter((e) => e.name.startsWith(".compact-"))
      .map((e) => Deno.readTextFileSync(join(p.store.dir, e.name)));
    assert.deepEqual(saved.filter((m) => m.includes("Write the validation tests")), []);
  },
});

Deno.test({
  name: "process: a transcripts folder reached through a symlink (a dotfiles ~/.claude) is read",
  ignore: WINDOWS,
  fn: async () => {
    await using p = await scratchProject();
    await using home = await scratchDir();
    await using dotfiles = await scratchDir();
    // ~/.claude is a symlink; the grant names the path through it, as install writes it.
    const { folder } = projectsIn(dotfiles.path);
    Deno.symlinkSync(dotfiles.path, join(home.path, ".claude"));
    const transcript = join(folder, `${fx.SESSION}.jsonl`);
    Deno.writeTextFileSync(
      transcript,
      fx.timedTranscript(p.root, [{ at: fx.minutesAgo(5), steps: fx.workSteps() }]),
    );
    const named = join(home.path, ".claude", "projects", "-home-me-app", `${fx.SESSION}.jsonl`);
    const ran = await runHook(
      p.root,
      join(home.path, ".claude", "projects"),
      fx.endPayload(p.root, named),
    );
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, /drafted/);
    assert.equal(fx.docsIn(p.store).length, 1);
  },
});
