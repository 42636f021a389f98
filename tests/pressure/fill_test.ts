import assert from "node:assert/strict";
import {
  crossed,
  type Fill,
  fillFromTail,
  fillWords,
  NUDGE_MAX,
  nudgeText,
  parseThresholds,
  windowFor,
} from "../../lib/pressure/fill.ts";
import { assistantLine } from "../support/transcript.ts";
import { sessionLine } from "../../lib/frame/banner.ts";

const nudgeLine = (fill: Fill) => sessionLine(nudgeText(fill));

const user = JSON.stringify({ type: "user", message: { role: "user", content: "go on" } });
const fill = (used: number, size = 200_000): Fill => ({ used, size, source: "transcript" });

Deno.test("pressure fill", async (t) => {
  await t.step("the newest assistant usage: input + cache creation + cache read + output", () => {
    const text = [assistantLine(50_000), user, assistantLine(140_000), user, ""].join("\n");
    assert.deepEqual(fillFromTail(text, 0), fill(140_000));
  });
  await t.step("the window: 200k up to 200k tokens, 1M above", () => {
    assert.equal(windowFor(200_000), 200_000);
    assert.equal(windowFor(200_001), 1_000_000);
    assert.deepEqual(fillFromTail(assistantLine(250_000), 0), fill(250_000, 1_000_000));
  });
  await t.step("no usage record, a malformed one, a synthetic or sidechain one: unknown", () => {
    assert.equal(fillFromTail([user, user].join("\n"), 0), undefined);
    assert.equal(fillFromTail('{"type":"assistant","message":{"usage":', 0), undefined);
    const bad = assistantLine(1).replace('"input_tokens":10', '"input_tokens":"many"');
    assert.equal(fillFromTail(bad, 0), undefined);
    const noInput = assistantLine(1).replace('"input_tokens":10,', "");
    assert.equal(fillFromTail(noInput, 0), undefined);
    const synthetic = assistantLine(150_000).replace("claude-opus-4-8", "<synthetic>");
    assert.equal(fillFromTail(synthetic, 0), undefined);
    assert.equal(fillFromTail(assistantLine(150_000, { isSidechain: true }), 0), undefined);
  });
  await t.step("a record older than the last compaction does not count", () => {
    const boundary = JSON.stringify({ type: "system", subtype: "compact_boundary" });
    assert.equal(fillFromTail([assistantLine(190_000), boundary, user].join("\n"), 0), undefined);
    assert.deepEqual(
      fillFromTail([boundary, assistantLine(30_000)].join("\n"), 0),
      fill(30_000),
    );
  });
  await t.step("a tail cut mid-line skips its first line", () => {
    const text = assistantLine(150_000);
    assert.equal(fillFromTail(text, 10), undefined);
    assert.deepEqual(fillFromTail(`${text}\n${text}`, 10), fill(150_000));
  });
  await t.step("Codex: the newest token_count, against the window it names", () => {
    const line = JSON.stringify({
      type: "event_msg",
      payload: {
        type: "token_count",
        info: {
          last_token_usage: {
            input_tokens: 180_000,
            cached_input_tokens: 170_000,
            output_tokens: 900,
          },
          model_context_window: 258_400,
        },
      },
    });
    assert.deepEqual(fillFromTail(line, 0), fill(180_900, 258_400));
    // A window of 0 says nothing: the usual window, never a division by zero.
    const zero = line.replace("258400", "0");
    assert.deepEqual(fillFromTail(zero, 0), fill(180_900, 200_000));
    assert.equal(fillWords(fillFromTail(zero, 0)!), "90 % (181k of 200k tokens)");
    const noInfo = JSON.stringify({
      type: "event_msg",
      payload: { type: "token_count", info: null },
    });
    assert.equal(fillFromTail(noInfo, 0), undefined);
  });
  await t.step("each side of each threshold", () => {
    assert.deepEqual(crossed(fill(139_999), [70, 85], []), []);
    assert.deepEqual(crossed(fill(140_000), [70, 85], []), [70]);
    assert.deepEqual(crossed(fill(169_999), [70, 85], [70]), []);
    assert.deepEqual(crossed(fill(170_000), [70, 85], [70]), [85]);
  });
  await t.step("once per threshold; a jump past both is due at both", () => {
    assert.deepEqual(crossed(fill(150_000), [70, 85], [70]), []);
    assert.deepEqual(crossed(fill(190_000), [70, 85], []), [70, 85]);
    assert.deepEqual(crossed(fill(190_000), [70, 85], [70, 85]), []);
  });
  await t.step("--nudge A,B: whole percents 1..99", () => {
    assert.deepEqual(parseThresholds("60,80"), [60, 80]);
    assert.deepEqual(parseThresholds("80, 60"), [60, 80]);
    for (const bad of ["", "0,80", "100", "60,x", "60.5", "-1"]) {
      assert.equal(parseThresholds(bad), undefined, bad);
    }
  });
  await t.step("the nudge: one plain [session] line within its length, naming the fill", () => {
    const line = nudgeLine(fill(144_000));
    assert.match(line, /^\[session\] The context is 72 % \(144k of 200k tokens\) full\./);
    assert.match(line, /`\/session dump`/);
    assert.ok(line.length <= NUDGE_MAX, `${line.length}`);
    assert.ok(!line.includes("\n") && !line.includes("```"));
    assert.ok(nudgeLine(fill(999_999, 1_000_000)).length <= NUDGE_MAX);
  });
  await t.step("the dump offered in the agent's words: Codex has no /session command", () => {
    const codex = sessionLine(nudgeText(fill(999_999, 1_000_000), "codex"));
    assert.match(codex, /offer the user a handover \("dump the session"\) now, once/);
    assert.ok(!codex.includes("/session"), codex);
    assert.ok(codex.length <= NUDGE_MAX, `${codex.length}`);
    assert.match(
      sessionLine(nudgeText(fill(144_000), "claude")),
      /offer the user `\/session dump`/,
    );
  });
});
