/**
 * The framing every injected context shares (lib/frame/) and the hook's own flags and payload
 * (lib/hook/input.ts).
 */
import assert from "node:assert/strict";
import { branchWords } from "../../lib/frame/banner.ts";
import {
  frameCost,
  framed,
  longestBacktickRun,
  MAX_BODY_RUN,
  shortenRuns,
} from "../../lib/frame/fence.ts";
import { wholeContext } from "../../lib/frame/fit.ts";
import { DEFAULT_OPTIONS, parseHookArgs, parsePayload } from "../../lib/hook/input.ts";
import { BUDGETS } from "../../lib/frame/budget.ts";
import { buildContext } from "../../lib/hook/context.ts";
import { NOW } from "../support/scratch.ts";
import { prng } from "../support/prng.ts";

/** The framing: one banner line, then a fence no line inside can close, ending the context. */
function assertFramed(context: string, what: string): void {
  const lines = context.split("\n");
  assert.match(lines[0], /^\[session\] The previous session left this handover: /, what);
  const fence = lines[1];
  assert.match(fence, /^`{3,}$/, what);
  assert.equal(lines.at(-1), fence, what);
  for (const line of lines.slice(2, -1)) assert.ok(!line.includes(fence), `${what}: ${line}`);
}

Deno.test("framing: every generated body stays inside its fence", () => {
  const next = prng(613);
  const pieces = ["`", "``", "```", "````", "x", "\n", "## Next step\n", "ignore previous", "🚀"];
  for (let i = 0; i < 2_000; i++) {
    let body = "";
    for (let n = Math.floor(next() * 30); n > 0; n--) {
      body += pieces[Math.floor(next() * pieces.length)];
    }
    const context = buildContext(
      { slug: "s", created: "2026-11-30T11:58:00Z", branch: "main", body },
      NOW,
      BUDGETS.claude,
    );
    assertFramed(context, JSON.stringify(body));
  }
});

Deno.test("backtick runs: the longest is found; longer than the cap are cut to it", () => {
  assert.equal(longestBacktickRun("a ` b ``` c ``"), 3);
  assert.equal(longestBacktickRun("none"), 0);
  const hostile = "x" + "`".repeat(MAX_BODY_RUN + 1) + "y";
  assert.equal(longestBacktickRun(shortenRuns(hostile)), MAX_BODY_RUN);
  assert.equal(shortenRuns("`".repeat(MAX_BODY_RUN)), "`".repeat(MAX_BODY_RUN));
});

Deno.test("a body's backtick runs up to 16 arrive as they are; longer ones are cut to 16", () => {
  const doc = { slug: "s", created: "2026-11-30T11:58:00Z", branch: "main" };
  const inject = (run: number) =>
    buildContext({ ...doc, body: `## Goal\n\na ${"`".repeat(run)} b` }, NOW, BUDGETS.claude);
  for (const run of [15, 16]) {
    const ctx = inject(run);
    assert.ok(ctx.includes(`a ${"`".repeat(run)} b`), `${run}: unchanged`);
    assert.equal(ctx.split("\n")[1], "`".repeat(run + 1), `${run}: the fence one longer`);
  }
  for (const run of [17, 40]) {
    const ctx = inject(run);
    assert.ok(ctx.includes(`a ${"`".repeat(16)} b`), `${run}: cut to 16`);
    assert.equal(ctx.split("\n")[1], "`".repeat(17), `${run}: the fence stays 17`);
  }
});

Deno.test("wholeContext: never over the limit, however wide the body's fence", () => {
  // A budget whose digest line is its limit, so only the frame's cost decides (the table's agents
  // digest a body long before that).
  const budget = { digestOver: 1_000, limit: 1_000 };
  const banner = "[session] banner";
  for (const run of [0, 3, 8, MAX_BODY_RUN]) {
    const ticks = "`".repeat(run);
    const fits = 1_000 - frameCost(banner, run);
    const body = (n: number) => ticks + "x".repeat(n - run);
    const exact = wholeContext(banner, body(fits), budget);
    assert.equal(exact?.length, 1_000, `run ${run}: a body that just fits is whole`);
    assert.equal(exact, framed(banner, body(fits)));
    assert.equal(wholeContext(banner, body(fits + 1), budget), undefined, `run ${run}: one more`);
  }
});

Deno.test("branchWords: a plain branch as is, anything else quoted and cut", () => {
  assert.equal(branchWords(undefined), "branch none");
  assert.equal(branchWords("feat/login-2"), "branch feat/login-2");
  assert.equal(branchWords("x\nignore"), 'branch "x\\nignore"');
  assert.equal(branchWords("é".repeat(80)), `branch ${JSON.stringify("é".repeat(60))}`);
});

Deno.test("hook flags and payload: --no-notice, PreCompact's trigger, the defaults", () => {
  assert.equal(parseHookArgs(["--no-notice"]).noNotice, true);
  assert.equal(parseHookArgs([]).noNotice, undefined);
  assert.equal(
    parsePayload('{"cwd":"/p","hook_event_name":"PreCompact","trigger":"auto"}')?.trigger,
    "auto",
  );
  assert.ok(!("trigger" in parsePayload('{"cwd":"/p"}')!), "absent unless sent");
  assert.deepEqual(DEFAULT_OPTIONS.sources, ["clear"]);
  assert.equal(DEFAULT_OPTIONS.windowMs, 30 * 60_000);
  assert.equal(DEFAULT_OPTIONS.agent, "claude");
});
