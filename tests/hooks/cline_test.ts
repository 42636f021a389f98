/**
 * The Cline CLI plugin (hooks/cline.ts): which run becomes which payload, where the answer's
 * context goes (a new session's first run: `appendContext`; a compacted request: the card after
 * its summary), exactly when, and that a silent hook adds nothing. The hook is a recording stub.
 */
import assert from "node:assert/strict";
import { sessionRestore, startsSession, summaryOf, withCard } from "../../hooks/cline.ts";
import type { HookAnswer } from "../../hooks/opencode.ts";

/** A plugin over a stub hook that records each payload and answers `answer(payload)`. */
function plugin(answer: (p: Record<string, unknown>) => HookAnswer) {
  const calls: Record<string, unknown>[] = [];
  const p = sessionRestore("the command", (command, payload) => {
    assert.equal(command, "the command");
    calls.push(payload);
    return Promise.resolve(answer(payload));
  });
  p.setup(undefined, { session: { sessionId: "s-1" }, workspaceInfo: { rootPath: "/p" } });
  return { p, calls };
}

const user = (text: string) => ({ role: "user", content: [{ type: "text", text }] });
const summary = (id: string) => ({ id, role: "user", metadata: { kind: "compaction_summary" } });
/** The text of the message after the summary in what beforeModel answered. */
const cardText = (answer: { messages: { content?: unknown }[] } | undefined) =>
  (answer?.messages[1].content as { text: string }[] | undefined)?.[0].text;
const run = (n: number) => ({ snapshot: { messages: Array.from({ length: n }, () => user("x")) } });

Deno.test("cline plugin", async (t) => {
  await t.step("a session's first run, holding only the user's message, starts it", () => {
    assert.equal(startsSession(false, run(1)), true);
    assert.equal(startsSession(false, run(0)), true);
    assert.equal(startsSession(false, run(2)), false, "a resumed session has its history");
    assert.equal(startsSession(true, run(1)), false, "a later run");
  });

  await t.step("the first run is SessionStart clear; its context is appended, once", async () => {
    const { p, calls } = plugin(() => ({ context: "HANDOVER" }));
    assert.deepEqual(await p.hooks.beforeRun(run(1)), { appendContext: "HANDOVER" });
    assert.deepEqual(calls, [{
      session_id: "s-1",
      cwd: "/p",
      hook_event_name: "SessionStart",
      source: "clear",
    }]);
    assert.equal(await p.hooks.beforeRun(run(3)), undefined);
    assert.equal(calls.length, 1, "no hook for a later run");
    p.setup(undefined, { session: { sessionId: "s-2" } });
    assert.deepEqual(
      await p.hooks.beforeRun(run(1)),
      { appendContext: "HANDOVER" },
      "a new session",
    );
    assert.equal(calls[1].session_id, "s-2");
  });

  await t.step(
    "a resumed session's first run runs no hook; a silent hook adds nothing",
    async () => {
      const resumed = plugin(() => ({ context: "HANDOVER" }));
      assert.equal(await resumed.p.hooks.beforeRun(run(4)), undefined);
      assert.equal(resumed.calls.length, 0);
      const silent = plugin(() => ({}));
      assert.equal(await silent.p.hooks.beforeRun(run(1)), undefined);
      assert.equal(silent.calls.length, 1);
    },
  );

  await t.step("the summary of a compacted request, and the card right after it", () => {
    assert.equal(summaryOf([user("a")]), undefined);
    assert.equal(summaryOf(undefined), undefined);
    const messages = [summary("m1"), user("a")];
    assert.deepEqual(summaryOf(messages), { at: 0, key: "m1" });
    const carded = withCard(messages, 0, "CARD");
    assert.equal(carded.length, 3);
    assert.deepEqual(carded[1].content, [{ type: "text", text: "CARD" }]);
    assert.equal(carded[2], messages[1]);
  });

  await t.step("a new summary: PreCompact, then SessionStart compact; its card stays", async () => {
    const { p, calls } = plugin((payload) => ({
      context: payload.hook_event_name === "SessionStart" ? `CARD ${calls.length}` : undefined,
    }));
    await p.hooks.beforeRun(run(1));
    assert.equal(await p.hooks.beforeModel({ request: { messages: [user("a")] } }), undefined);
    const first = [summary("m1"), user("b")];
    const carded = await p.hooks.beforeModel({ request: { messages: first } });
    assert.deepEqual(calls.slice(1).map((c) => [c.hook_event_name, c.source ?? c.trigger]), [
      ["PreCompact", "auto"],
      ["SessionStart", "compact"],
    ]);
    assert.equal(cardText(carded), "CARD 3");
    const again = await p.hooks.beforeModel({ request: { messages: [...first, user("c")] } });
    assert.equal(cardText(again), "CARD 3", "the same card, no new hook run");
    assert.equal(calls.length, 3);
    await p.hooks.beforeModel({ request: { messages: [summary("m2"), user("d")] } });
    assert.equal(calls.length, 5, "another compaction: another card");
  });

  await t.step("a resumed session's own summary brings no card", async () => {
    const { p, calls } = plugin(() => ({ context: "CARD" }));
    const history = [summary("old"), user("a"), user("b")];
    await p.hooks.beforeRun({ snapshot: { messages: history } });
    assert.equal(await p.hooks.beforeModel({ request: { messages: history } }), undefined);
    assert.equal(calls.length, 0);
  });
});
