/**
 * The compaction card quotes the user's typed prompts: newest first, verbatim, wrappers dropped,
 * labelled as the user's words, and within a fixed share of the card's room.
 */
import assert from "node:assert/strict";
import { answerCompact } from "../../lib/continuity/compact.ts";
import { buildCard, CARD_LIMIT, USER_WORDS_SHARE } from "../../lib/continuity/card.ts";
import { USER_WORDS } from "../../lib/continuity/material.ts";
import { DEFAULT_OPTIONS } from "../../lib/hook/input.ts";
import { BUDGETS } from "../../lib/frame/budget.ts";
import { join } from "../../lib/fs/path.ts";
import { NOW, scratchProject } from "../support/scratch.ts";
import { transcriptOf } from "../support/transcript.ts";
import { parseTranscript } from "../../lib/transcript/claude.ts";
import { RECENT_REQUESTS } from "../../lib/transcript/facts.ts";

const SID = "sess-words";
const CORRECTION = "No — keep the retry limit at 3, not 5; the upstream API bans at 4.";

Deno.test("the card after a compaction without a dump quotes the user's own words", async (t) => {
  await using p = await scratchProject();
  const transcript = join(p.root, "t.jsonl");
  await Deno.writeTextFile(
    transcript,
    transcriptOf(p.root, [
      { prompt: "Add retries to the fetch client." },
      {
        tool: "Write",
        input: { file_path: join(p.root, "src/fetch.ts"), content: "x" },
        result: "ok",
      },
      { prompt: CORRECTION },
      {
        prompt: "<command-name>/compact</command-name>\n<command-message>compact</command-message>",
      },
      { prompt: "<system-reminder>internal</system-reminder>" },
    ], SID),
  );
  const payload = {
    cwd: p.root,
    session_id: SID,
    transcript_path: transcript,
    hook_event_name: "SessionStart",
    source: "compact",
  };
  const r = await answerCompact(payload, DEFAULT_OPTIONS, {}, NOW);
  const ctx = JSON.parse(r.stdout!).hookSpecificOutput.additionalContext as string;
  await t.step("labelled, verbatim, newest first", () => {
    const section = ctx.slice(ctx.indexOf(`## ${USER_WORDS}`));
    assert.ok(
      ctx.includes(`## ${USER_WORDS}\n\n> ${CORRECTION}\n\n> Add retries to the fetch client.`),
      ctx,
    );
    assert.ok(section.indexOf(CORRECTION) < section.indexOf("Add retries"));
  });
  await t.step("wrappers and slash commands are not the user's words", () => {
    assert.doesNotMatch(ctx, /command-name|system-reminder|internal/);
  });
});

Deno.test("the user's words stay within their share of the card", () => {
  const long = Array.from({ length: 12 }, (_, i) => `> prompt ${i} ${"word ".repeat(80)}`);
  const material = {
    sections: [
      { title: USER_WORDS, content: long.join("\n\n") },
      { title: "Unfinished tasks", content: "- Ship it (in_progress)" },
    ],
  };
  const card = buildCard(material, undefined, undefined, BUDGETS.claude);
  const words = card.slice(card.indexOf(`## ${USER_WORDS}`), card.indexOf("## Unfinished tasks"));
  assert.ok(words.length <= CARD_LIMIT * USER_WORDS_SHARE + 60, `${words.length}`);
  assert.match(words, /> prompt 0 /, "the newest kept");
  assert.match(words, /more lines? elided/);
  assert.match(card, /## Unfinished tasks\n\n- Ship it/);
});

Deno.test("the transcript's facts keep the newest requests only, in order", () => {
  const steps = Array.from({ length: RECENT_REQUESTS + 5 }, (_, i) => ({ prompt: `ask ${i}` }));
  const facts = parseTranscript(transcriptOf("/p", steps, SID), { root: "/p" });
  const texts = (facts.recentRequests ?? []).map((m) => m.text);
  assert.equal(texts.length, RECENT_REQUESTS);
  assert.equal(texts.at(-1), `ask ${RECENT_REQUESTS + 4}`);
  assert.equal(texts[0], "ask 5");
});
