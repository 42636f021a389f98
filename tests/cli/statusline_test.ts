import assert from "node:assert/strict";
import { join, parentDir } from "../../lib/fs/path.ts";
import { parseStatusInput, statusText, windowFill } from "../../lib/cli/statusline.ts";
import { FILL_PREFIX } from "../../lib/pressure/state.ts";
import { NOW, put, scratchDir, scratchProject, writeDoc } from "../support/scratch.ts";
import { runCliProcess } from "../support/run.ts";
import { installHook } from "../support/registered.ts";
import { WELL_FORMED } from "../parked/_fixture.ts";

/** The statusline JSON as Claude Code sends it (2.1.x: the fields this reads, and some others). */
export function statusJson(root: string, sid: string, window: Record<string, unknown> | null) {
  return JSON.stringify({
    hook_event_name: "Status",
    session_id: sid,
    transcript_path: `/home/dev/.claude/projects/x/${sid}.jsonl`,
    cwd: root,
    model: { id: "claude-opus-4-8", display_name: "Opus" },
    workspace: { current_dir: root, project_dir: root },
    version: "2.1.197",
    output_style: { name: "default" },
    cost: { total_cost_usd: 0.01 },
    context_window: window,
  });
}

const WINDOW = {
  total_input_tokens: 150_000,
  total_output_tokens: 2_000,
  context_window_size: 200_000,
  current_usage: {
    input_tokens: 100,
    output_tokens: 900,
    cache_creation_input_tokens: 1_000,
    cache_read_input_tokens: 142_000,
  },
  used_percentage: 71,
  remaining_percentage: 29,
};

Deno.test("statusline: the client's JSON read leniently", async (t) => {
  await t.step("current_usage summed against context_window_size", () => {
    assert.deepEqual(windowFill(WINDOW), { used: 144_000, size: 200_000, source: "statusline" });
  });
  await t.step("used_percentage when current_usage is null; nothing before the first reply", () => {
    assert.deepEqual(windowFill({ ...WINDOW, current_usage: null }), {
      used: 142_000,
      size: 200_000,
      source: "statusline",
    });
    assert.equal(
      windowFill({ ...WINDOW, current_usage: null, used_percentage: null }),
      undefined,
    );
    assert.equal(windowFill({ context_window_size: 0, used_percentage: 50 }), undefined);
  });
  await t.step("garbage reads as nothing known", () => {
    assert.deepEqual(parseStatusInput("not json"), {});
    assert.deepEqual(parseStatusInput("[1]").fill, undefined);
  });
  await t.step("the line: handover, parked, fill; --segment without the fill", () => {
    const fill = { used: 144_000, size: 200_000, source: "statusline" as const };
    const parts = { handover: { slug: "fix-auth", ago: "5 min ago" }, parked: 2, fill };
    assert.equal(
      statusText(parts, false),
      'session: "fix-auth" pending (5 min ago) · 2 parked · context 72 % (144k of 200k tokens)',
    );
    assert.equal(statusText(parts, true), 'session: "fix-auth" pending (5 min ago) · 2 parked');
    assert.equal(statusText({ parked: 0 }, false), "session: no handover pending · 0 parked");
  });
});

Deno.test("statusline as a process", async (t) => {
  await t.step("one line for a pending handover, parked items, the fill; recorded", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "fix-auth", { created: new Date(NOW.getTime() - 5 * 60_000) });
    await put(p.root, ".claude/state/session/PARKED.md", WELL_FORMED);
    const r = await runCliProcess(["statusline"], {
      cwd: p.root,
      stdin: statusJson(p.root, "sid-1", WINDOW),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      'session: "fix-auth" pending (5 min ago) · 2 parked · context 72 % (144k of 200k tokens)\n',
    );
    const saved = JSON.parse(await Deno.readTextFile(join(p.store.dir, `${FILL_PREFIX}sid-1`)));
    assert.deepEqual([saved.used, saved.size], [144_000, 200_000]);
    const seg = await runCliProcess(["statusline", "--segment"], {
      cwd: p.root,
      stdin: statusJson(p.root, "sid-1", WINDOW),
    });
    assert.equal(seg.stdout, 'session: "fix-auth" pending (5 min ago) · 2 parked\n');
  });
  await t.step("no store: one line, and no store created", async () => {
    await using p = await scratchProject({ store: false });
    const r = await runCliProcess(["statusline"], {
      cwd: p.root,
      stdin: statusJson(p.root, "sid-2", WINDOW),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      "session: no handover pending · 0 parked · context 72 % (144k of 200k tokens)\n",
    );
    await assert.rejects(Deno.stat(p.store.dir));
  });
  for (const scope of ["project", "local"] as const) {
    await t.step(
      `installed here (${scope}), no store yet: the figures kept from the first reply`,
      async () => {
        await using p = await scratchProject({ store: false });
        await installHook(p.root, { scope });
        // A fresh clone has the shared settings but not the store (kept out of git).
        await Deno.remove(p.store.dir, { recursive: true }).catch(() => {});
        const r = await runCliProcess(["statusline"], {
          cwd: p.root,
          stdin: statusJson(p.root, "sid-3", WINDOW),
        });
        assert.equal(r.code, 0, r.stderr);
        const saved = JSON.parse(await Deno.readTextFile(join(p.store.dir, `${FILL_PREFIX}sid-3`)));
        assert.deepEqual([saved.used, saved.size], [144_000, 200_000]);
      },
    );
  }
  await t.step("a user-wide install names no project: no store created", async () => {
    await using p = await scratchProject({ store: false });
    await using home = await scratchDir();
    await installHook(p.root, { scope: "user", home: home.path });
    await Deno.remove(p.store.dir, { recursive: true }).catch(() => {});
    const r = await runCliProcess(["statusline"], {
      cwd: p.root,
      stdin: statusJson(p.root, "sid-4", WINDOW),
      env: { HOME: home.path },
      unset: ["CLAUDE_CONFIG_DIR"],
    });
    assert.equal(r.code, 0, r.stderr);
    await assert.rejects(Deno.stat(p.store.dir));
  });
  await t.step("garbage on stdin: still one line, exit 0", async () => {
    await using d = await scratchDir();
    const r = await runCliProcess(["statusline"], { cwd: d.path, stdin: "\u0000{" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.split("\n").filter(Boolean).length, 1);
  });
});

Deno.test("install --statusline: only where no settings file has one; uninstall removes only ours", async (t) => {
  await t.step("set in the project's settings, reported; uninstall takes it out", async () => {
    await using p = await scratchProject();
    await using home = await scratchDir("session-home-");
    const env = { HOME: home.path };
    const r = await runCliProcess(["install", "--statusline"], {
      cwd: p.root,
      env,
      unset: ["CLAUDE_CONFIG_DIR"],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Installed: status line in .*\.claude\/settings\.json/);
    const settings = JSON.parse(await Deno.readTextFile(join(p.root, ".claude/settings.json")));
    assert.equal(settings.statusLine.type, "command");
    assert.match(settings.statusLine.command, /session\.ts statusline$/);
    const again = await runCliProcess(["install", "--statusline"], {
      cwd: p.root,
      env,
      unset: ["CLAUDE_CONFIG_DIR"],
    });
    assert.match(again.stdout, /Already installed: status line/);
    const u = await runCliProcess(["uninstall"], {
      cwd: p.root,
      env,
      unset: ["CLAUDE_CONFIG_DIR"],
    });
    assert.equal(u.code, 0, u.stderr);
    assert.match(u.stdout, /status line removed/);
    await assert.rejects(
      Deno.stat(join(p.root, ".claude/settings.json")),
      "nothing else was there",
    );
  });
  await t.step(
    "a status line of the user's anywhere Claude Code reads is never replaced",
    async () => {
      for (const where of ["user", "project", "local"] as const) {
        await using p = await scratchProject();
        await using home = await scratchDir("session-home-");
        const env = { HOME: home.path };
        const theirs =
          '{\n  // mine\n  "statusLine": { "type": "command", "command": "~/my-line.sh" }\n}\n';
        const path = where === "user" ? join(home.path, ".claude/settings.json") : join(
          p.root,
          where === "local" ? ".claude/settings.local.json" : ".claude/settings.json",
        );
        await Deno.mkdir(parentDir(path)!, { recursive: true });
        await Deno.writeTextFile(path, theirs);
        const r = await runCliProcess(["install", "--statusline"], {
          cwd: p.root,
          env,
          unset: ["CLAUDE_CONFIG_DIR"],
        });
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /Status line: not set, .* has one of its own \(kept\)/, where);
        if (where !== "project") {
          const project = await Deno.readTextFile(join(p.root, ".claude/settings.json"));
          assert.doesNotMatch(project, /statusLine/, where);
        }
        await runCliProcess(["uninstall"], { cwd: p.root, env, unset: ["CLAUDE_CONFIG_DIR"] });
        assert.equal(
          await Deno.readTextFile(path).catch(() => ""),
          where === "project" ? theirs : theirs,
        );
      }
    },
  );
  await t.step("--statusline with another agent is a usage error", async () => {
    await using p = await scratchProject();
    const r = await runCliProcess(["install", "--agent", "codex", "--statusline"], { cwd: p.root });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--statusline/);
  });
});

Deno.test("statusline: the JSON the real clients sent (captured by the e2e)", async (t) => {
  const dir = new URL("../fixtures/statusline/", import.meta.url);
  await t.step("2.1.332, mid-session: its current_usage against its 1M window", async () => {
    const input = parseStatusInput(await Deno.readTextFile(new URL("claude-2.1.332.json", dir)));
    assert.equal(input.session, "9e87e824-cf73-4530-8bbb-04793c9aed23");
    assert.equal(input.cwd, "/home/dev/demo-app");
    assert.equal(input.projectDir, "/home/dev/demo-app");
    assert.deepEqual(input.fill, { used: 176_000, size: 1_000_000, source: "statusline" });
  });
  await t.step("2.1.197, just after a compaction: zeros, read as an empty context", async () => {
    const input = parseStatusInput(await Deno.readTextFile(new URL("claude-2.1.197.json", dir)));
    assert.equal(input.session, "571ab30e-0737-4551-83e6-6167887c4e7f");
    assert.deepEqual(input.fill, { used: 0, size: 1_000_000, source: "statusline" });
  });
});
