/**
 * The hook as Claude Code runs it: `deno run … session_restore.ts` with the payload on stdin.
 */
import assert from "node:assert/strict";
import { docPath } from "../lib/store/store.ts";
import { join } from "../lib/fs/path.ts";
import { readLatest } from "../lib/store/latest.ts";
import { OS_LOCKS } from "../lib/fs/lock.ts";
import {
  DOCS_LOCK,
  NOW,
  REPO,
  type ScratchProject,
  scratchProject,
  writeDoc,
} from "./support/scratch.ts";
import { clearPayload, contextOf, type Ran, runHookProcess } from "./support/run.ts";

const minutes = (n: number) => new Date(NOW.getTime() - n * 60_000);

/**
 * Asserts the hook stayed silent for the reason given: exit 0, nothing on stdout, and that reason
 * as its last word on stderr (SESSION_DEBUG=1, see {@link hook}) — so a crash, which is silent
 * too, fails here instead of passing as silence.
 */
function assertSilent(ran: Ran, what: string, reason: string | RegExp) {
  assert.equal(ran.code, 0, `${what}: exit code`);
  assert.equal(ran.stdout, "", `${what}: stdout must be empty`);
  const last = ran.stderr.trimEnd().split("\n").at(-1);
  const said = last?.startsWith("session_restore: ") ? last.slice(17) : `(${last})`;
  if (typeof reason === "string") assert.equal(said, reason, `${what}: the reason`);
  else assert.match(said, reason, `${what}: the reason`);
}

/** What the hook says of a payload it cannot use (always, not only with SESSION_DEBUG). */
const NO_PAYLOAD = "no usable payload on stdin; nothing injected";

/** The hook with SESSION_DEBUG=1, which says on stderr why it stayed silent. */
function hook(payload: string | Uint8Array, o: Parameters<typeof runHookProcess>[1] = {}) {
  return runHookProcess(payload, { ...o, env: { SESSION_DEBUG: "1", ...o?.env } });
}

/** Asserts the hook injected: exit 0, exactly one JSON object on stdout; returns the context. */
function assertInjected(ran: Ran, what: string): string {
  assert.equal(ran.code, 0, `${what}: exit code`);
  assert.equal(ran.stdout.trimEnd().split("\n").length, 1, `${what}: one line of JSON`);
  const parsed = JSON.parse(ran.stdout);
  assert.deepEqual(Object.keys(parsed), ["hookSpecificOutput"]);
  assert.equal(parsed.hookSpecificOutput.hookEventName, "SessionStart");
  return contextOf(ran)!;
}

async function withProject(fn: (p: ScratchProject) => Promise<void>, options = {}) {
  await using p = await scratchProject(options);
  await fn(p);
}

Deno.test("hook process: injecting", async (t) => {
  await t.step(
    "on /clear: one JSON object, document consumed, LATEST cleared",
    () =>
      withProject(async (p) => {
        const text = await writeDoc(p.store, "fix-login", {
          created: minutes(12),
          branch: "feat/login",
        });
        const ctx = assertInjected(await hook(clearPayload(p.root)), "inject");
        assert.match(
          ctx,
          /^\[session\] The previous session left this handover: "fix-login" \(dumped 12 min ago, branch feat\/login\)/,
        );
        assert.match(ctx.split("\n")[0], /recall fix-login`\. It is quoted below/);
        assert.ok(ctx.includes("## Goal\n\nShip the restore hook."));
        assert.ok(!ctx.includes("consumed:"), "front matter is not injected");
        const after = await Deno.readTextFile(docPath(p.store, "fix-login"));
        assert.equal(after, text.replace("consumed: false", "consumed: true"));
        assert.equal(readLatest(p.store), undefined);
        assert.deepEqual(
          [...Deno.readDirSync(p.store.dir)].map((e) => e.name).sort(),
          // The marker of the handover this session started from (the compaction card's).
          // An OS lock's file stays; the fallback's (a Deno without OS locks) is removed on release.
          [
            ...(OS_LOCKS ? [DOCS_LOCK] : []),
            ".restored-00000000-0000-4000-8000-000000000000",
            "fix-login.md",
          ],
        );
      }),
  );
  await t.step("a second /clear is silent", () =>
    withProject(async (p) => {
      await writeDoc(p.store, "a");
      assertInjected(await hook(clearPayload(p.root)), "first");
      assertSilent(await hook(clearPayload(p.root)), "second", "no LATEST pointer");
    }));
  await t.step("source absent injects", () =>
    withProject(async (p) => {
      await writeDoc(p.store, "a");
      assertInjected(await hook(clearPayload(p.root, { source: undefined })), "no source");
    }));
  await t.step("from a subdirectory, the project's store is found", () =>
    withProject(async (p) => {
      const sub = join(p.root, "src", "deep");
      await Deno.mkdir(sub, { recursive: true });
      await writeDoc(p.store, "a");
      assertInjected(await hook(clearPayload(sub)), "subdir");
    }));
  await t.step("CLAUDE_PROJECT_DIR names the project", () =>
    withProject(async (p) => {
      await writeDoc(p.store, "a");
      const ran = await hook(clearPayload("/"), { env: { CLAUDE_PROJECT_DIR: p.root } });
      assertInjected(ran, "env");
    }));
  await t.step(
    "opt-in sources: compact injects only with --source compact",
    () =>
      withProject(async (p) => {
        await writeDoc(p.store, "a");
        const compact = clearPayload(p.root, { source: "compact" });
        assertSilent(await hook(compact), "compact by default", `source "compact" is not enabled`);
        assertInjected(
          await hook(compact, { args: ["--source", "compact"] }),
          "compact opted in",
        );
      }),
  );
  await t.step(
    "29 minutes old injects; 31 minutes old is silent and untouched",
    () =>
      withProject(async (p) => {
        await writeDoc(p.store, "young", { created: minutes(29) });
        assertInjected(await hook(clearPayload(p.root)), "29 min");
        const old = await writeDoc(p.store, "old", { created: minutes(31) });
        assertSilent(
          await hook(clearPayload(p.root)),
          "31 min",
          `document "old" is outside the restore window`,
        );
        assert.equal(await Deno.readTextFile(docPath(p.store, "old")), old);
        assert.equal(readLatest(p.store), "old", "a stale pointer is left for recall");
        assertInjected(
          await hook(clearPayload(p.root), { args: ["--window-minutes", "60"] }),
          "window flag",
        );
      }),
  );
  await t.step(
    "CRLF document: injected with LF, consumed byte-exactly keeping CRLF",
    () =>
      withProject(async (p) => {
        const text = await writeDoc(p.store, "win", { crlf: true });
        const ctx = assertInjected(await hook(clearPayload(p.root)), "crlf");
        assert.ok(!ctx.includes("\r"));
        assert.ok(ctx.includes("## Goal\n\nShip the restore hook."));
        const after = await Deno.readFile(docPath(p.store, "win"));
        assert.deepEqual(
          after,
          new TextEncoder().encode(text.replace("consumed: false\r\n", "consumed: true\r\n")),
        );
      }),
  );
  await t.step(
    'a quoted consumed: "false" is flipped byte for byte, injected once',
    () =>
      withProject(async (p) => {
        const text = (await writeDoc(p.store, "q")).replace("consumed: false", 'consumed: "false"');
        await Deno.writeTextFile(docPath(p.store, "q"), text);
        assertInjected(await hook(clearPayload(p.root)), "quoted");
        const after = await Deno.readTextFile(docPath(p.store, "q"));
        assert.equal(after, text.replace('consumed: "false"', 'consumed: "true"'));
        await Deno.writeTextFile(p.store.latest, "q\n"); // a pointer left to it: still once
        assertSilent(await hook(clearPayload(p.root)), "again", `document "q" is already consumed`);
      }),
  );
  await t.step("unicode survives the round trip", () =>
    withProject(async (p) => {
      const body = "## Goal\n\nRéparer l’API — 修复登录 🚀\n\n## Next step\n\nΔοκιμή.\n";
      await writeDoc(p.store, "unicode", { body });
      const ctx = assertInjected(await hook(clearPayload(p.root)), "unicode");
      assert.ok(ctx.endsWith(`${body.trim()}\n\`\`\``));
    }));
  await t.step(
    "a large body becomes a digest within 9,500 characters",
    () =>
      withProject(async (p) => {
        const rows = Array.from({ length: 400 }, (_, i) => `| src/m${i}.ts | +3/-1 | wip | |`);
        const body = [
          "## Goal\n\nMigrate the store.",
          "## Decisions\n\n" + "- filler decision — why: padding\n".repeat(300),
          "## Files touched\n\n| File | Change | State | Ref |\n|---|---|---|---|\n" +
          rows.join("\n"),
          "## Next step\n\nRun the migration.",
        ].join("\n\n");
        await writeDoc(p.store, "big", { body });
        const ctx = assertInjected(await hook(clearPayload(p.root)), "digest");
        assert.ok(ctx.length <= 9_500, `${ctx.length}`);
        assert.match(ctx, /## Goal\n\nMigrate the store\./);
        assert.match(ctx, /## Files touched\n\n\| File/);
        assert.match(ctx, /## Next step\n\nRun the migration\./);
        assert.match(ctx, /more rows elided/);
        assert.match(ctx, /recall big`\)\n```$/);
        assert.ok(!ctx.includes("filler decision"));
      }),
  );
});

Deno.test("hook process: silent on every failed gate, exit 0", async (t) => {
  await t.step("other events and sources", () =>
    withProject(async (p) => {
      await writeDoc(p.store, "a");
      for (const source of ["startup", "resume", "compact", "other"]) {
        assertSilent(
          await hook(clearPayload(p.root, { source })),
          source,
          `source "${source}" is not enabled`,
        );
      }
      assertSilent(
        await hook(clearPayload(p.root, { hook_event_name: "Notification" })),
        "event",
        "not a SessionStart event",
      );
      assertSilent(await hook(clearPayload(p.root, { cwd: "" })), "empty cwd", NO_PAYLOAD);
      assertSilent(await hook(clearPayload(p.root, { cwd: 7 })), "numeric cwd", NO_PAYLOAD);
      assert.equal(readLatest(p.store), "a", "nothing was consumed");
    }));
  await t.step("bad stdin: malformed, empty, binary, 2 MB", () =>
    withProject(async (p) => {
      await writeDoc(p.store, "a");
      assertSilent(await hook("{not json"), "malformed", NO_PAYLOAD);
      assertSilent(await hook(""), "empty", NO_PAYLOAD);
      assertSilent(await hook(new Uint8Array([0xff, 0x00, 0xfe, 0x80])), "binary", NO_PAYLOAD);
      assertSilent(await hook("x".repeat(2 * 1024 * 1024)), "2 MB garbage", NO_PAYLOAD);
      assert.equal(readLatest(p.store), "a");
      const padded = clearPayload(p.root, { padding: "y".repeat(2 * 1024 * 1024) });
      assertInjected(await hook(padded), "2 MB valid payload");
    }));
  await t.step(
    "pointer blank, missing, or naming something unsafe",
    () =>
      withProject(async (p) => {
        await writeDoc(p.store, "a", { latest: false });
        assertSilent(await hook(clearPayload(p.root)), "missing", "no LATEST pointer");
        for (const bad of ["", "\n", "../a", "sub/a", "sub\\a", "..", "LATEST"]) {
          await Deno.writeTextFile(p.store.latest, bad);
          assertSilent(
            await hook(clearPayload(p.root)),
            JSON.stringify(bad),
            bad.trim() === "" ? "no LATEST pointer" : "LATEST names an unsafe slug",
          );
        }
      }),
  );
  await t.step("pointer naming a symlink out of the store", () =>
    withProject(async (p) => {
      await using other = await scratchProject();
      const text = await writeDoc(other.store, "secret");
      await Deno.symlink(docPath(other.store, "secret"), docPath(p.store, "link"));
      await Deno.writeTextFile(p.store.latest, "link\n");
      assertSilent(
        await hook(clearPayload(p.root)),
        "symlink out",
        `document "link" is missing or unreadable`,
      );
      assert.equal(await Deno.readTextFile(docPath(other.store, "secret")), text);
    }));
  await t.step("binary, truncated or consumed documents", () =>
    withProject(async (p) => {
      await writeDoc(p.store, "a");
      await Deno.writeFile(docPath(p.store, "a"), crypto.getRandomValues(new Uint8Array(4096)));
      assertSilent(
        await hook(clearPayload(p.root)),
        "binary",
        `document "a" is missing or unreadable`,
      );
      await Deno.writeTextFile(
        docPath(p.store, "a"),
        "---\nslug: a\ncreated: 2026-11-30T11:59:00Z\ncons",
      );
      assertSilent(
        await hook(clearPayload(p.root)),
        "truncated",
        `document "a" has no front matter`,
      );
      await writeDoc(p.store, "a", { consumed: true });
      assertSilent(
        await hook(clearPayload(p.root)),
        "consumed",
        `document "a" is already consumed`,
      );
    }));
  await t.step("no store, no git", () =>
    withProject(async (p) => {
      assertSilent(await hook(clearPayload(p.root)), "no store", "no LATEST pointer");
      assertSilent(
        await hook(clearPayload("/nonexistent/dir")),
        "cwd that does not exist",
        "no LATEST pointer",
      );
    }, { git: false, store: false }));
  await t.step("permission denied by Deno's sandbox", () =>
    withProject(async (p) => {
      await writeDoc(p.store, "a");
      const denied = await hook(clearPayload(p.root), { flags: ["--allow-read=/nonexistent"] });
      assertSilent(
        denied,
        "no read permission",
        /^Requires read access to "[^"]*\/lib\/hook\/answer\.ts"/,
      );
      const readOnly = await hook(clearPayload(p.root), {
        flags: [`--allow-read=${p.root},${REPO}/lib`, "--allow-env"],
      });
      assertSilent(
        readOnly,
        "no write permission: cannot claim, so cannot inject",
        /^this hook may not write the store .*: run session\.ts install --dir /,
      );
    }));
});

Deno.test("hook process: two hooks at once inject exactly once", async () => {
  const trials = Number(Deno.env.get("SESSION_RACE_TRIALS") ?? 15);
  await withProject(async (p) => {
    for (let i = 0; i < trials; i++) {
      await writeDoc(p.store, `race-${i}`);
      const runs = await Promise.all([
        runHookProcess(clearPayload(p.root)),
        runHookProcess(clearPayload(p.root)),
        runHookProcess(clearPayload(p.root)),
      ]);
      const injected = runs.filter((r) => r.stdout !== "");
      assert.equal(injected.length, 1, `trial ${i}: ${injected.length} injected`);
      for (const r of runs) assert.equal(r.code, 0);
      assert.equal(readLatest(p.store), undefined);
    }
  });
});
