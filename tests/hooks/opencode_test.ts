/**
 * The opencode plugin (hooks/opencode.ts): which payload each opencode event becomes, where the
 * answer's context goes, and that a failing or silent hook adds nothing. The hook command is a
 * stand-in shell script that logs each payload and answers what the test says.
 */
import assert from "node:assert/strict";
import { commandFor, runHook, sessionRestore } from "../../hooks/opencode.ts";
import { scratchDir } from "../support/scratch.ts";

/** A command that appends its stdin to `log` (one payload a line) and prints `answer`. */
function stand(log: string, answer: string): string {
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  return `{ cat; echo; } >> ${q(log)}; printf '%s' ${q(answer)}`;
}

const answer = (context: string) =>
  JSON.stringify({
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context },
  });

async function payloads(log: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(log).catch(() => "");
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

Deno.test("opencode plugin", async (t) => {
  await using dir = await scratchDir("opencode-plugin-");
  const log = `${dir.path}/payloads.jsonl`;

  await t.step(
    "runHook: the answer's additionalContext and systemMessage; silence and failure give none",
    async () => {
      assert.deepEqual(await runHook(stand(log, answer("CTX")), { cwd: "/p" }), {
        context: "CTX",
        message: undefined,
      });
      const both = JSON.stringify({ systemMessage: "MSG", ...JSON.parse(answer("CTX")) });
      assert.deepEqual(await runHook(stand(log, both), { cwd: "/p" }), {
        context: "CTX",
        message: "MSG",
      });
      assert.deepEqual(await runHook(stand(log, ""), { cwd: "/p" }), {});
      assert.deepEqual(await runHook(stand(log, "not json"), { cwd: "/p" }), {});
      assert.deepEqual(await runHook("exit 3", { cwd: "/p" }), {});
      await Deno.remove(log);
    },
  );

  await t.step("the launcher is told each run's event (registered for SessionStart)", () => {
    const registered = "sh /s/bin/with-deno --event SessionStart run --no-config /s/x.ts";
    assert.equal(commandFor(registered, "SessionStart"), registered);
    assert.equal(
      commandFor(registered, "PreCompact"),
      "sh /s/bin/with-deno --event PreCompact run --no-config /s/x.ts",
    );
  });

  await t.step("a systemMessage is shown as a toast; a client without a TUI is fine", async () => {
    const shown: unknown[] = [];
    const client = { tui: { showToast: (o: unknown) => (shown.push(o), Promise.resolve()) } };
    const say = stand(log, JSON.stringify({ systemMessage: "[session] Deno 2 was not found" }));
    const hooks = await sessionRestore(say)({ directory: "/proj", client });
    await hooks.event({ event: { type: "session.created", properties: { info: { id: "t1" } } } });
    const output = { system: ["base"] };
    await hooks["experimental.chat.system.transform"]({ sessionID: "t1" }, output);
    assert.deepEqual(output.system, ["base"]);
    const body = {
      message: "[session] Deno 2 was not found",
      variant: "warning",
      duration: 10_000,
    };
    assert.deepEqual(shown, [{ body, ...body }]);
    const bare = await sessionRestore(say)({ directory: "/proj", client: {} });
    await bare.event({ event: { type: "session.created", properties: { info: { id: "t2" } } } });
    await bare["experimental.chat.system.transform"]({ sessionID: "t2" }, { system: [] });
    await Deno.remove(log);
  });

  await t.step(
    "a new top-level session is SessionStart clear; its context joins the system",
    async () => {
      const hooks = await sessionRestore(stand(log, answer("HANDOVER")))({ directory: "/proj" });
      await hooks.event({ event: { type: "session.created", properties: { info: { id: "s1" } } } });
      const output = { system: ["base"] };
      await hooks["experimental.chat.system.transform"]({ sessionID: "s1" }, output);
      assert.deepEqual(output.system, ["base", "HANDOVER"]);
      // Every request of the session carries it; the hook ran once.
      const again = { system: ["base"] };
      await hooks["experimental.chat.system.transform"]({ sessionID: "s1" }, again);
      assert.deepEqual(again.system, ["base", "HANDOVER"]);
      assert.deepEqual(await payloads(log), [
        { session_id: "s1", cwd: "/proj", hook_event_name: "SessionStart", source: "clear" },
      ]);
      await Deno.remove(log);
    },
  );

  await t.step("a subagent's session (with a parent) and an unknown one get nothing", async () => {
    const hooks = await sessionRestore(stand(log, answer("HANDOVER")))({ directory: "/proj" });
    await hooks.event({
      event: { type: "session.created", properties: { info: { id: "s2", parentID: "s1" } } },
    });
    for (const sessionID of ["s2", "s9", undefined]) {
      const output = { system: ["base"] };
      await hooks["experimental.chat.system.transform"]({ sessionID }, output);
      assert.deepEqual(output.system, ["base"]);
    }
    assert.deepEqual(await payloads(log), []);
  });

  await t.step(
    "a compaction is PreCompact, then SessionStart compact: the card replaces",
    async () => {
      const hooks = await sessionRestore(stand(log, answer("CARD")))({ directory: "/proj" });
      await hooks["experimental.session.compacting"]({ sessionID: "s3" });
      const output = { system: [] as string[] };
      await hooks["experimental.chat.system.transform"]({ sessionID: "s3" }, output);
      assert.deepEqual(output.system, ["CARD"]);
      assert.deepEqual(
        (await payloads(log)).map((p) => [p.hook_event_name, p.source ?? p.trigger]),
        [
          ["PreCompact", "auto"],
          ["SessionStart", "compact"],
        ],
      );
    },
  );
});
