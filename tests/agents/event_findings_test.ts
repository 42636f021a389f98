import assert from "node:assert/strict";
import * as events from "../../lib/agents/event_findings.ts";

import { scratchDir } from "../support/scratch.ts";

const CMD = "deno run /s/session_restore.ts";

Deno.test("doctor on the continuity events", async (t) => {
  await t.step("a matcher missing clear or compact is a fix naming what is lost", () => {
    const [old] = events.matcherFindings("claude", "clear", CMD, "hook", "session.ts install");
    assert.equal(old.status, "fix");
    assert.match(old.text, /does not run on compact \(no card after compaction\).*install/);
    const [none] = events.matcherFindings("claude", "startup", CMD, "hook", "session.ts install");
    assert.match(none.text, /does not run on clear or compact/);
    assert.deepEqual(events.matcherFindings("claude", "clear|compact", CMD, "hook", "x"), []);
    assert.deepEqual(
      events.matcherFindings("gemini", "clear", CMD, "hook", "x"),
      [],
      "no compact there",
    );
  });
  await t.step("startup with --source startup is said; more sources are information", () => {
    const [startup] = events.matcherFindings(
      "claude",
      "clear|compact|startup",
      `${CMD} --source startup`,
      "hook",
      "x",
    );
    assert.deepEqual(startup.status, "info");
    assert.match(startup.text, /also restores at startup/);
    const [all] = events.matcherFindings("claude", "*", CMD, "hook", "x");
    assert.equal(all.status, "info");
    assert.match(all.text, /also runs on startup and resume/);
  });
  await t.step("an older registration: run install to update", () => {
    const f = events.olderRegistrationFinding(
      "/p/.claude/settings.json",
      ["SessionEnd", "PreCompact"],
      "i",
    );
    assert.equal(f.status, "fix");
    assert.match(
      f.text,
      /older registration \(no SessionEnd, no PreCompact; without SessionEnd .*may restore another window's handover\) — run install to update/,
    );
    const other = events.olderRegistrationFinding("/p/s.json", ["PreCompact"], "i");
    assert.match(
      other.text,
      /\(no PreCompact\) — run install/,
      "the why only when SessionEnd is missing",
    );
  });
  await t.step("the transcript folder must be granted, unless reads are unlimited", () => {
    assert.deepEqual(events.transcriptGrantFinding(undefined, "/h/.claude/projects", "w", "f"), []);
    assert.deepEqual(
      events.transcriptGrantFinding(["/p", "/h/.claude/projects"], "/h/.claude/projects", "w", "f"),
      [],
    );
    assert.deepEqual(
      events.transcriptGrantFinding(["/p", "/h"], "/h/.claude/projects", "w", "f"),
      [],
    );
    const [f] = events.transcriptGrantFinding(["/p"], "/h/.claude/projects", "w", "f");
    assert.equal(f.status, "fix");
    assert.match(f.text, /may not read the transcripts in \/h\/\.claude\/projects/);
  });
  await t.step("settings plus plugin: both run", () => {
    const f = events.twiceFinding("SessionEnd", "session@m", ["/p/.claude/settings.json"], "");
    assert.equal(f.status, "fix");
    assert.match(f.text, /and by the plugin session@m: Claude Code runs both/);
  });
  await t.step("SessionEnd only in the plugin: fine for small transcripts, a fix for big", () => {
    const small = events.pluginSessionEndFinding("session@m", 1024);
    assert.equal(small.status, "ok");
    assert.match(small.text, /cannot raise Claude Code's 1.5 s SessionEnd budget/);
    const big = events.pluginSessionEndFinding("session@m", events.DRAFT_FITS_BYTES + 1);
    assert.equal(big.status, "fix");
    assert.match(big.text, /may not finish in 1.5 s — fix: session.ts install/);
    assert.equal(events.pluginSessionEndFinding("session@m", undefined).status, "ok");
  });
  await t.step("the largest transcript, by stat alone", async () => {
    await using dir = await scratchDir("transcripts-");
    assert.equal(events.largestTranscript(dir.path), undefined);
    assert.equal(events.largestTranscript(`${dir.path}/missing`), undefined);
    await Deno.writeTextFile(`${dir.path}/a.jsonl`, "x".repeat(10));
    await Deno.writeTextFile(`${dir.path}/b.jsonl`, "x".repeat(30));
    await Deno.writeTextFile(`${dir.path}/c.txt`, "x".repeat(99));
    assert.equal(events.largestTranscript(dir.path), 30);
  });
});
