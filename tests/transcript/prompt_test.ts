import assert from "node:assert/strict";
import {
  codexPromptText,
  contentText,
  isSubstantive,
  promptText,
  queuedText,
  typedText,
} from "../../lib/transcript/prompt.ts";
import { prng, textOf } from "../support/prng.ts";

Deno.test("isSubstantive: acknowledgements and go-aheads ask for nothing new", () => {
  for (
    const ack of [
      "thanks",
      "Thanks!",
      "ok",
      "OK.",
      "great, thanks!",
      "yes",
      "Yes please",
      "continue",
      "go ahead",
      "lgtm 👍",
      "perfect, thank you very much",
      "sounds good",
      "  ",
      "👍",
    ]
  ) assert.equal(isSubstantive(ack), false, ack);
  for (
    const ask of [
      "Add a greeting module in src/greet.ts",
      "fix the footer",
      "thanks, now add tests",
      "yes, and rename it to greet_all",
      "ok do the migration",
      "continue with the parser",
      "no",
      "Thanks. Let's park the i18n idea for later",
    ]
  ) assert.equal(isSubstantive(ask), true, ask);
});

Deno.test("isSubstantive: the ASCII path splits words as the regexes do", () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pieces = (
    "thanks|OK|ok|great|Yes|please|go|ahead|it's|'|''|'ok'|that's|fix|the|bug|42|a1| |  |\t|\n|" +
    ",|.|!|?|-|_|/|x'|'y|~|=|THANKS"
  ).split("|");
  const seen = new Set<boolean>();
  for (let i = 0; i < 20_000; i++) {
    let text = "";
    for (let n = Math.floor(next() * 12); n > 0; n--) {
      text += pieces[Math.floor(next() * pieces.length)];
    }
    // A trailing no-break space is a separator to the regexes and sends any text their way.
    const substantive = isSubstantive(text);
    assert.equal(substantive, isSubstantive(text + "\u00a0"), JSON.stringify(text));
    seen.add(substantive);
  }
  assert.equal(seen.size, 2, "both answers generated");
});

Deno.test("promptText: wrappers, shell input and notices are not requests", () => {
  const user = (content: unknown) => ({ type: "user", message: { role: "user", content } });
  for (
    const wrapped of [
      "<command-name>/clear</command-name>",
      "<local-command-stdout>ok</local-command-stdout>",
      "<bash-input>ls</bash-input>",
      "<system-reminder>x</system-reminder>",
      "<user-prompt-submit-hook>x</user-prompt-submit-hook>",
      "[Request interrupted by user]",
      "Caveat: the messages below",
    ]
  ) assert.equal(promptText(user(wrapped)), undefined, wrapped);
  assert.equal(promptText(user("  <b>bold</b> please ")), "<b>bold</b> please");
  assert.equal(promptText(user("<commands> list")), "<commands> list");
  assert.equal(promptText(user([{ type: "text", text: "fix it" }])), "fix it");
});

Deno.test("isSubstantive: the same answer as the regexes alone, long texts and non-ASCII anywhere", () => {
  // A leading no-break space sends a text to the regexes from its first character (and is only a
  // separator to them): the regex reading, with no ASCII path and no stop at the ninth word.
  const byRegexes = (text: string) => isSubstantive("\u00a0" + text);
  const pieces = (
    "thanks|OK|great|Yes|please|go|ahead|that's|fix|bug|42| |  |\t|\n|,|.|!|'|''|_|-|" +
    "café|’|‘ok’|👍|\u00a0|é|日本"
  ).split("|");
  const next = prng(20261201);
  const seen = new Set<string>();
  for (let i = 0; i < 20_000; i++) {
    const text = textOf(next, pieces, 30);
    const answer = isSubstantive(text);
    assert.equal(answer, byRegexes(text), JSON.stringify(text));
    seen.add(`${answer}/${[...text].some((c) => c.charCodeAt(0) > 127)}`);
  }
  assert.equal(seen.size, 4, `ASCII and not, both answers: ${[...seen]}`);
});

Deno.test("typedText: the client's wrappers and markers are set aside, wherever they stand", async (t) => {
  await t.step("context blocks are cut out; a message of nothing else is none", () => {
    assert.equal(
      typedText("<ide_opened_file>The user opened /x.ts</ide_opened_file>\nFix the import"),
      "Fix the import",
    );
    assert.equal(
      typedText("Fix it <system-reminder>be brief</system-reminder> now"),
      "Fix it   now",
      "in the middle too",
    );
    assert.equal(typedText("<ide_selection>lines 1-2\n<b>x</b></ide_selection>"), undefined);
    assert.equal(
      typedText("<task-notification><status>done</status></task-notification>"),
      undefined,
    );
    assert.equal(
      typedText("Strip every <system-reminder> block from the goal"),
      "Strip every <system-reminder> block from the goal",
      "never closed: typed about the tag, not by the client",
    );
    assert.equal(typedText("<ide_mark/>Rename the flag"), "Rename the flag", "self-closing");
    assert.equal(typedText("<ide>not ours</ide> ok"), "<ide>not ours</ide> ok");
  });
  await t.step("slash commands, their output and shell input are none", () => {
    assert.equal(typedText("<command-message>init</command-message>"), undefined);
    assert.equal(typedText("<local-command-caveat>Caveat</local-command-caveat>"), undefined);
    assert.equal(typedText("<bash-stdout>ok</bash-stdout>"), undefined);
    assert.equal(typedText("<user-memory-input>use tabs</user-memory-input>"), undefined);
    assert.equal(typedText("<mcp-resource-update>r changed</mcp-resource-update>Go"), "Go");
  });
  await t.step("image markers and the backslash before a typed line break go", () => {
    assert.equal(typedText("[Image #1] [Image #12]"), undefined);
    assert.equal(typedText("[Image #1] Why is this red?"), "Why is this red?");
    assert.equal(typedText("first\\\n\\\nsecond\\\r\nthird"), "first\n\nsecond\r\nthird");
    assert.equal(typedText("a path C:\\dir stays"), "a path C:\\dir stays");
  });
  await t.step("promptText and contentText read through it", () => {
    const user = (content: unknown) => ({ type: "user", message: { role: "user", content } });
    assert.equal(
      promptText(user([{ type: "text", text: "<ide_opened_file>x</ide_opened_file>" }, {
        type: "text",
        text: "Go",
      }])),
      "Go",
    );
    assert.equal(contentText([{ type: "image" }, { type: "text", text: "[Image #1]" }]), undefined);
    assert.equal(contentText([{ type: "tool_result", content: "x" }]), undefined);
  });
});

Deno.test("isSubstantive: praise is an acknowledgement", () => {
  for (
    const ack of ["Excellent work, thank you!", "Great job!", "nice work, thanks for your help"]
  ) {
    assert.equal(isSubstantive(ack), false, ack);
  }
  for (const ask of ["work on the parser", "help me with the tests", "job queue is stuck"]) {
    assert.equal(isSubstantive(ask), true, ask);
  }
});

/** A fixture's records, each naming the client-written shape it holds and what of it was typed. */
function shapes(
  path: string,
): { shape: string; expect: string | null; rec: Record<string, unknown> }[] {
  return Deno.readTextFileSync(new URL(path, import.meta.url)).split("\n").filter(Boolean)
    .map((l) => JSON.parse(l)).filter((rec) => typeof rec.shape === "string")
    .map((rec) => ({ shape: rec.shape, expect: rec.expect, rec }));
}

Deno.test("what counts as typed: every client-written shape of Claude Code's user records", async (t) => {
  const path = "../fixtures/transcripts/hand/client_text.jsonl";
  for (const { shape, expect, rec } of shapes(path)) {
    await t.step(shape, () => {
      const got = rec.type === "queue-operation" ? queuedText(rec.content) : promptText(rec);
      assert.equal(got ?? null, expect);
    });
  }
  await t.step("the facts quote only what was typed", async () => {
    const { parseTranscript } = await import("../../lib/transcript/claude.ts");
    const text = Deno.readTextFileSync(new URL(path, import.meta.url));
    const facts = parseTranscript(text, { root: "/home/dev/app" });
    const typed = shapes(path).map((s) => s.expect).filter((e) => e !== null);
    assert.deepEqual(facts.recentRequests?.map((m) => m.text), typed);
    assert.equal(facts.firstSubstantive?.text, typed[0]);
    assert.equal(facts.lastSubstantive?.text, "Now cap the retries at 3");
    assert.doesNotMatch(JSON.stringify(facts.recentRequests), /output file|transcript at|\/init/);
  });
});

Deno.test("what counts as typed: Codex's user messages, by provenance, else by shape", async (t) => {
  const path = "../fixtures/codex/client_text.jsonl";
  for (const { shape, expect, rec } of shapes(path)) {
    await t.step(shape, () => assert.equal(codexPromptText(rec.payload) ?? null, expect));
  }
  await t.step("the rollout's facts quote only what was typed", async () => {
    const { parseCodexTranscript } = await import("../../lib/transcript/codex.ts");
    const text = Deno.readTextFileSync(new URL(path, import.meta.url));
    const facts = parseCodexTranscript(text, { root: "/tmp/p" });
    const typed = shapes(path).map((s) => s.expect).filter((e) => e !== null);
    assert.deepEqual(facts.recentRequests?.map((m) => m.text), typed);
  });
});

Deno.test("typedText: a person's text about the client's shapes stays theirs", () => {
  for (
    const own of [
      "Why does the output say 'Read the output file to retrieve the result'?",
      "grep for <task-notification> in the logs",
      "/tmp/build is full, clean it",
      "/usr is full: clean it",
      "<channels> are listed in config.ts",
      "Summarise: This session is being continued is what the client writes",
    ]
  ) assert.equal(typedText(own), own, own);
});

Deno.test("what counts as typed is judged in prompt.ts alone: no other lib file reads the marks", () => {
  // The fields and shapes that say who wrote a user message: code reading any of them elsewhere
  // would be a second rule of what a person typed.
  const marks =
    /isCompactSummary|isMeta|isVisibleInTranscriptOnly|\.origin\b|provenance|environment_context|AGENTS\.md|task-notification|Request interrupted|Caveat: /;
  const lib = new URL("../../lib/", import.meta.url);
  const offenders: string[] = [];
  const walk = (dir: URL) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(new URL(`${e.name}/`, dir));
      else if (e.name.endsWith(".ts") && new URL(e.name, dir).pathname !== prompt.pathname) {
        Deno.readTextFileSync(new URL(e.name, dir)).split("\n").forEach((line, i) => {
          if (!/^\s*(\*|\/\/|\/\*\*)/.test(line) && marks.test(line)) {
            offenders.push(`${new URL(e.name, dir).pathname}:${i + 1}: ${line.trim()}`);
          }
        });
      }
    }
  };
  const prompt = new URL("transcript/prompt.ts", lib);
  walk(lib);
  assert.deepEqual(offenders, []);
});
