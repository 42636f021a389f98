import assert from "node:assert/strict";
import { DEFAULT_OPTIONS, gate, parseHookArgs, parsePayload } from "../../lib/hook/input.ts";
import { BUDGETS } from "../../lib/frame/budget.ts";
import { buildContext } from "../../lib/hook/context.ts";
import { restore } from "../../lib/hook/restore.ts";
import { hookOutput } from "../../lib/hook/output.ts";
import { answer } from "../../lib/hook/answer.ts";
import { docPath } from "../../lib/store/store.ts";
import { join } from "../../lib/fs/path.ts";
import { readLatest } from "../../lib/store/latest.ts";
import { markClearing } from "../../lib/store/sessions.ts";
import {
  BODY,
  DOCS_LOCK,
  mkfifo,
  NOW,
  type ScratchProject,
  scratchProject,
  writeDoc,
} from "../support/scratch.ts";

const minutes = (n: number) => new Date(NOW.getTime() - n * 60_000);

Deno.test("parsePayload", async (t) => {
  await t.step("reads the fields Claude Code sends", () => {
    const p = parsePayload(
      '{"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"SessionStart","source":"clear","extra":[1]}',
    );
    assert.deepEqual(p, {
      session_id: "s",
      transcript_path: "/t",
      cwd: "/p",
      hook_event_name: "SessionStart",
      source: "clear",
    });
  });
  await t.step("rejects what is not an object with a non-empty string cwd", () => {
    for (
      const bad of ["", "nul", "[]", "null", "42", '"x"', "{}", '{"cwd":""}', '{"cwd":3}', "{"]
    ) {
      assert.equal(parsePayload(bad), undefined, bad);
    }
  });
  await t.step("wrong-typed optional fields are dropped, not trusted", () => {
    assert.equal(parsePayload('{"cwd":"/p","source":5}')!.source, undefined);
  });
  await t.step("deeply nested JSON does not throw", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    assert.equal(parsePayload(deep), undefined);
  });
});

Deno.test("gate: event and source", () => {
  const base = { cwd: "/p", hook_event_name: "SessionStart" };
  assert.equal(gate({ ...base, source: "clear" }, DEFAULT_OPTIONS), undefined);
  assert.equal(gate(base, DEFAULT_OPTIONS), undefined, "source absent injects");
  assert.ok(gate({ ...base, source: "compact" }, DEFAULT_OPTIONS));
  assert.ok(gate({ ...base, source: "startup" }, DEFAULT_OPTIONS));
  assert.ok(gate({ ...base, hook_event_name: "UserPromptSubmit" }, DEFAULT_OPTIONS));
  assert.ok(gate({ cwd: "/p" }, DEFAULT_OPTIONS), "no event name: not SessionStart");
  const opt = parseHookArgs(["--source", "compact,resume"]);
  assert.equal(gate({ ...base, source: "compact" }, opt), undefined);
  assert.equal(gate({ ...base, source: "resume" }, opt), undefined);
  assert.ok(gate({ ...base, source: "startup" }, opt));
});

Deno.test("parseHookArgs", () => {
  assert.deepEqual(parseHookArgs([]), DEFAULT_OPTIONS);
  assert.equal(parseHookArgs(["--window-minutes", "5"]).windowMs, 5 * 60_000);
  assert.equal(parseHookArgs(["--window-minutes=90"]).windowMs, 90 * 60_000);
  assert.equal(parseHookArgs(["--window-minutes", "nope"]).windowMs, DEFAULT_OPTIONS.windowMs);
  assert.equal(parseHookArgs(["--agent", "codex"]).budget, BUDGETS.codex);
  assert.equal(parseHookArgs(["--agent", "unknown"]).budget, BUDGETS.claude);
  assert.deepEqual(parseHookArgs(["--source=startup"]).sources, ["clear", "startup"]);
  assert.deepEqual(parseHookArgs(["--bogus", "x"]), DEFAULT_OPTIONS, "unknown flags are ignored");
});

Deno.test("buildContext", async (t) => {
  await t.step("banner: slug, age, branch, exact recall command; then the body", () => {
    const ctx = buildContext(
      { slug: "s1", created: "2026-11-30T11:48:00Z", branch: "feat/x", body: "\n" + BODY },
      NOW,
      BUDGETS.claude,
    );
    const [banner, ...rest] = ctx.split("\n");
    assert.match(banner, /"s1"/);
    assert.match(banner, /12 min ago/);
    assert.match(banner, /branch feat\/x/);
    assert.match(
      banner,
      /`sh \S+\/bin\/with-deno run --allow-read --allow-write --allow-env --allow-run=git \S+\/session\.ts recall s1`/,
    );
    assert.equal(rest.join("\n"), "```\n" + BODY.trim() + "\n```");
  });
  await t.step("a body over 8,000 characters becomes a digest within 9,500", () => {
    const big = BODY + "\n## Lessons / corrections\n\n" + "- filler lesson\n".repeat(2_000);
    const ctx = buildContext(
      { slug: "big", created: "2026-11-30T11:59:00Z", body: big },
      NOW,
      BUDGETS.claude,
    );
    assert.ok(ctx.length <= 9_500, `${ctx.length}`);
    assert.ok(!ctx.includes("filler lesson"));
    assert.match(ctx, /## Goal[\s\S]*## Next step/);
    assert.match(ctx, /Full document: `sh \S+\/bin\/with-deno run .*recall big`\)\n```$/);
  });
  await t.step("a body just under the threshold is injected whole", () => {
    const body = "## Goal\n\n" + "x".repeat(7_900);
    const ctx = buildContext({ slug: "s", body }, NOW, BUDGETS.claude);
    assert.ok(ctx.endsWith("x".repeat(7_900) + "\n```"));
  });
  await t.step("no branch and no created still render", () => {
    assert.match(
      buildContext({ slug: "s", body: "" }, NOW, BUDGETS.claude),
      /dumped unknown age, branch none/,
    );
  });
});

Deno.test("hookOutput is the one JSON object the agents read", () => {
  assert.deepEqual(JSON.parse(hookOutput('ctx "quoted"\n')), {
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: 'ctx "quoted"\n' },
  });
});

Deno.test("restore (in-process)", async (t) => {
  const payload = (cwd: string) => ({ cwd, hook_event_name: "SessionStart", source: "clear" });
  await t.step("injects once, flips consumed byte-exactly, clears LATEST", async () => {
    await using p = await scratchProject();
    const text = await writeDoc(p.store, "a", { created: minutes(5) });
    const first = await restore(payload(p.root), DEFAULT_OPTIONS, {}, NOW);
    assert.equal(first.injected, true);
    assert.equal(
      await Deno.readTextFile(docPath(p.store, "a")),
      text.replace("consumed: false", "consumed: true"),
    );
    assert.equal(readLatest(p.store), undefined);
    const second = await restore(payload(p.root), DEFAULT_OPTIONS, {}, NOW);
    assert.deepEqual(second, { injected: false, reason: "no LATEST pointer" });
  });
  await t.step("CLAUDE_PROJECT_DIR wins over the payload's cwd", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "a");
    const o = await restore(
      payload("/nonexistent/elsewhere"),
      DEFAULT_OPTIONS,
      { projectDir: p.root },
      NOW,
    );
    assert.equal(o.injected, true);
  });
  await t.step("stays silent, with a reason, on every failed gate", async () => {
    await using p = await scratchProject();
    const silent = async (setup: () => Promise<unknown>, reason: RegExp) => {
      await Deno.remove(p.store.dir, { recursive: true });
      await Deno.mkdir(p.store.dir, { recursive: true });
      await setup();
      const o = await restore(payload(p.root), DEFAULT_OPTIONS, {}, NOW);
      assert.equal(o.injected, false);
      if (!o.injected) assert.match(o.reason, reason);
    };
    await silent(() => writeDoc(p.store, "a", { consumed: true }), /already consumed/);
    await silent(
      () => writeDoc(p.store, "a", { created: minutes(31) }),
      /outside the restore window/,
    );
    await silent(() => writeDoc(p.store, "a", { created: null }), /outside the restore window/);
    await silent(
      () => writeDoc(p.store, "a", { created: minutes(-10) }),
      /outside the restore window/,
    );
    await silent(() => writeDoc(p.store, "a", { latest: false }), /no LATEST/);
    await silent(() => Deno.writeTextFile(p.store.latest, "../a"), /unsafe/);
    await silent(() => Deno.writeTextFile(p.store.latest, "gone"), /missing or unreadable/);
    await silent(async () => {
      await writeDoc(p.store, "a");
      await Deno.writeTextFile(docPath(p.store, "a"), "no front matter");
    }, /no front matter/);
  });
  await t.step(
    "in the main checkout: an empty `worktree:` restores, a named one does not",
    async () => {
      await using p = await scratchProject();
      await writeDoc(p.store, "a", { worktree: "" });
      const o = await restore(payload(p.root), DEFAULT_OPTIONS, {}, NOW);
      assert.equal(o.injected, true, o.injected ? "" : o.reason);
      await writeDoc(p.store, "b", { worktree: ".claude/worktrees/feat" });
      assert.deepEqual(await restore(payload(p.root), DEFAULT_OPTIONS, {}, NOW), {
        injected: false,
        reason:
          'document "b" was written in worktree .claude/worktrees/feat, not the main worktree',
      });
    },
  );
  await t.step("a document 29 minutes old injects; the window is a flag", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "a", { created: minutes(29) });
    assert.equal((await restore(payload(p.root), DEFAULT_OPTIONS, {}, NOW)).injected, true);
    await writeDoc(p.store, "b", { created: minutes(45) });
    const wide = parseHookArgs(["--window-minutes", "60"]);
    assert.equal((await restore(payload(p.root), wide, {}, NOW)).injected, true);
  });
});

Deno.test("the hook's answer to /clear, in-process", async (t) => {
  const clear = (cwd: string) => ({ cwd, hook_event_name: "SessionStart", source: "clear" });
  /** What session_restore.ts does with a payload, in-process. */
  const hook = async (cwd: string, projectDir?: string) => {
    const r = await answer(clear(cwd), DEFAULT_OPTIONS, { projectDir }, NOW);
    return r.stdout === undefined ? { silence: r.reason } : r;
  };
  const storeNames = (p: ScratchProject) =>
    [...Deno.readDirSync(p.store.dir)].map((e) => e.name).filter((n) => n !== DOCS_LOCK).sort();

  await t.step("no store, no LATEST, a blank LATEST: silent", async () => {
    await using p = await scratchProject({ store: false });
    assert.deepEqual(await hook(p.root), { silence: "no LATEST pointer" });
    await Deno.mkdir(p.store.dir, { recursive: true });
    assert.deepEqual(await hook(p.root), { silence: "no LATEST pointer" });
    await Deno.writeTextFile(p.store.latest, " \n");
    assert.deepEqual(await hook(p.root), { silence: "no LATEST pointer" });
  });
  await t.step(
    "a document with a BOM is consumed byte for byte; no temp file is left",
    async () => {
      await using p = await scratchProject();
      const text = "\ufeff" + await writeDoc(p.store, "bom", { created: minutes(2), crlf: true });
      await Deno.writeTextFile(docPath(p.store, "bom"), text);
      const r = await hook(p.root);
      assert.ok("stdout" in r && r.stdout?.includes("additionalContext"), JSON.stringify(r));
      const after = await Deno.readFile(docPath(p.store, "bom"));
      assert.deepEqual(
        after,
        new TextEncoder().encode(text.replace("consumed: false", "consumed: true")),
      );
      assert.deepEqual(storeNames(p), ["bom.md"], "LATEST cleared, the claim became the doc");
      assert.deepEqual(await hook(p.root), { silence: "no LATEST pointer" });
    },
  );
  await t.step("a store symlinked inside the project is followed", async () => {
    await using p = await scratchProject({ store: false });
    const real = join(p.root, "elsewhere-in-project");
    await Deno.mkdir(real, { recursive: true });
    await Deno.mkdir(join(p.root, ".claude/state"), { recursive: true });
    await Deno.symlink(real, p.store.dir);
    await writeDoc(p.store, "linked", { created: minutes(1) });
    const r = await hook(p.root, p.root);
    assert.ok("stdout" in r && r.stdout !== undefined, JSON.stringify(r));
  });
  await t.step("a LATEST or a document that is a named pipe never blocks the hook", async () => {
    await using p = await scratchProject();
    await mkfifo(p.store.latest);
    assert.deepEqual(await hook(p.root), { silence: "no LATEST pointer" });
    await Deno.remove(p.store.latest);
    await mkfifo(docPath(p.store, "pipe"));
    await Deno.writeTextFile(p.store.latest, "pipe\n");
    assert.deepEqual(await hook(p.root), { silence: 'document "pipe" is missing or unreadable' });
  });
});

Deno.test("the predecessor's own handover only while unconsumed and in the window", async (t) => {
  const payload = (cwd: string) => ({
    cwd,
    session_id: "s-next",
    hook_event_name: "SessionStart",
    source: "clear",
  });
  /** A document of session `session`, LATEST left as it is. */
  const ownDoc = async (p: ScratchProject, slug: string, o: Parameters<typeof writeDoc>[2]) => {
    const text = await writeDoc(p.store, slug, { ...o, latest: false });
    await Deno.writeTextFile(
      docPath(p.store, slug),
      text.replace("branch: main\n", "branch: main\nsession: s-prev\n"),
    );
  };
  for (
    const [what, own] of [
      ["consumed", { created: minutes(1), consumed: true }],
      ["stale (outside the window)", { created: minutes(120) }],
    ] as const
  ) {
    await t.step(`its own ${what}: LATEST's fresh handover is restored`, async () => {
      await using p = await scratchProject();
      await writeDoc(p.store, "fresh", { created: minutes(2) });
      await ownDoc(p, "own", own);
      assert.equal(markClearing(p.store, "s-prev", NOW), true);
      const o = await restore(payload(p.root), DEFAULT_OPTIONS, { projectDir: p.root }, NOW);
      assert.equal(o.injected, true, o.injected ? "" : o.reason);
      assert.equal(o.injected && o.slug, "fresh");
      assert.equal(readLatest(p.store), undefined);
    });
  }
});
