/**
 * Every cut session makes, with an emoji straddling its cut point: the digest (each agent's
 * budget), the draft notice, the draft's quotes (and the transcript's caps under them, down to
 * the stored file), the continuity card, "Since the dump" and sweep's cells. Each must hold its
 * bound and leave no lone surrogate (what the agent would receive) and no U+FFFD (what a file
 * would store).
 */
import assert from "node:assert/strict";
import { hasLoneSurrogate } from "./_text.ts";
import { BUDGETS } from "../../lib/frame/budget.ts";
import { buildContext, draftNotice } from "../../lib/hook/context.ts";
import { buildNotice, NOTICE_LIMIT, noticeBanner } from "../../lib/hook/notice.ts";
import { buildCard, CARD_LIMIT } from "../../lib/continuity/card.ts";
import { FILES, TASKS } from "../../lib/continuity/material.ts";
import { sinceSection } from "../../lib/continuity/since_dump.ts";
import { capLines } from "../../lib/handover/document.ts";
import { QUOTE_MAX, recoverMarkdown } from "../../lib/handover/recover.ts";
import { closingQuestion, deferralsIn } from "../../lib/transcript/prose.ts";
import { utf8Length } from "../../lib/text/bytes.ts";
import type { TranscriptFacts } from "../../lib/transcript/facts.ts";
import { git, NOW, scratchProject } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";
import { transcriptOf } from "../support/transcript.ts";

const ROCKET = "🚀";
/** `n` rockets after `pad` letters: with pads 0 and 1 some cut lands inside a pair. */
const rockets = (n: number, pad: number) => "a".repeat(pad) + ROCKET.repeat(n);
const PADS = [0, 1, 2, 3];

function clean(text: string, what: string): void {
  assert.ok(!hasLoneSurrogate(text), `${what}: a lone surrogate`);
  assert.ok(!text.includes("\ufffd"), `${what}: U+FFFD`);
}

Deno.test("the digest, per agent: no half emoji, within the budget", () => {
  for (const [agent, budget] of Object.entries(BUDGETS)) {
    for (const pad of PADS) {
      const body = [
        "## Goal",
        "",
        rockets(2_000, pad),
        "",
        "## Files touched",
        "",
        ...Array.from(
          { length: 40 },
          (_, i) => `| \`src/${rockets(30, pad)}${i}.ts\` | +1/-1 | wip | |`,
        ),
        "",
        "## Next step",
        "",
        rockets(1_500, pad),
      ].join("\n");
      assert.ok(body.length > budget.digestOver);
      const doc = { slug: "big", created: "2026-11-30T11:59:00Z", branch: "main", body };
      const context = buildContext(doc, NOW, budget);
      clean(context, `${agent} pad ${pad}`);
      assert.match(context, /Digest of a large handover/);
      assert.ok(context.length <= budget.limit, `${agent}: ${context.length}`);
      if (budget.maxBytes) assert.ok(utf8Length(context) <= budget.maxBytes, agent);
    }
  }
});

Deno.test("capLines cuts a long line inside, on a code point", () => {
  for (const pad of PADS) {
    for (let max = 60; max < 70; max++) {
      const out = capLines(rockets(100, pad) + "\nnext line", max);
      clean(out, `pad ${pad} max ${max}`);
      assert.ok(out.length <= max, `${out.length} > ${max}`);
    }
  }
});

Deno.test("the draft notice: request, files and tasks cut on code points", () => {
  const body = (pad: number) =>
    [
      "## Goal",
      "",
      "Refactor. (transcript L4)",
      "",
      `Last request: ${rockets(400, pad)} (transcript L18)`,
      "",
      "## Files touched",
      "",
      "| File | Change | State | Ref |",
      "|---|---|---|---|",
      ...[1, 2, 3].map((i) => `| \`${rockets(60, pad)}${i}.ts\` | +3/-1 | uncommitted | |`),
      "",
      "## Outstanding",
      "",
      ...[1, 2].map((i) =>
        `- **task-${i}** — ${rockets(60, pad)} ${i}. Why: unfinished task (pending). Next: do it.`
      ),
    ].join("\n");
  for (const pad of PADS) {
    const notice = draftNotice(
      { slug: "main-draft", created: "2026-11-30T11:59:00Z", branch: "main", body: body(pad) },
      NOW,
    );
    clean(notice, `pad ${pad}`);
    assert.ok(notice.length <= NOTICE_LIMIT, `${notice.length}`);
    for (const each of [1, 2]) {
      const small = buildNotice(
        { request: rockets(300, pad), files: [rockets(90, pad + each)], tasks: [rockets(90, pad)] },
        noticeBanner("d", "1 min ago", "main", "deno run x recall d"),
      );
      clean(small, `pad ${pad}`);
    }
  }
});

Deno.test("the draft's quotes, and the transcript's caps under them: no half emoji, bounded", async (t) => {
  const facts = (pad: number): TranscriptFacts => ({
    path: "/t.jsonl",
    files: [],
    tasks: [],
    questions: [{ text: rockets(300, pad) + "?", line: 9 }],
    deferrals: [{ text: `Let's park ${rockets(300, pad)} for later.`, line: 8 }],
    firstRequest: { text: rockets(500, pad), line: 2 },
    lastRequest: { text: "Then " + rockets(500, pad), line: 7 },
    lastAssistantText: { text: rockets(500, pad), line: 10 },
  });
  await t.step("recoverMarkdown", () => {
    for (const pad of PADS) {
      const md = recoverMarkdown(facts(pad));
      clean(md, `pad ${pad}`);
      for (const line of md.split("\n")) {
        const quoted = line.match(/🚀[🚀]*…?/gu) ?? [];
        for (const q of quoted) assert.ok(q.length <= QUOTE_MAX, `${q.length}`);
      }
    }
  });
  await t.step("the transcript's caps: deferrals and questions", () => {
    for (const pad of PADS) {
      for (const d of deferralsIn(`We will defer ${rockets(400, pad)} to a follow-up.`)) {
        clean(d, `deferral pad ${pad}`);
        assert.ok(d.length <= 300);
      }
      const q = closingQuestion(`${rockets(400, pad)} should we ship it?`);
      assert.ok(q !== undefined);
      clean(q, `question pad ${pad}`);
      assert.ok(q.length <= 300);
    }
  });
  await t.step("recover's stored draft holds no U+FFFD", async () => {
    await using p = await scratchProject({ git: "repo" });
    await git(p.root, ["commit", "-q", "--allow-empty", "-m", "init"]);
    for (const pad of [0, 1]) {
      const transcript = `${p.root}/t${pad}.jsonl`;
      await Deno.writeTextFile(
        transcript,
        transcriptOf(p.root, [
          { prompt: rockets(500, pad) },
          { say: `I will defer ${rockets(400, pad)} to a follow-up. ${rockets(400, pad)}?` },
          { prompt: "Then " + rockets(500, pad) },
          { say: rockets(500, pad) },
        ]),
      );
      const name = `emoji-${pad}`;
      const r = await runCliInProcess(["recover", name, "--transcript", transcript], {
        cwd: p.root,
      });
      assert.equal(r.code, 0, r.err);
      const bytes = await Deno.readFile(`${p.store.dir}/${name}.md`);
      const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      clean(text, `stored draft pad ${pad}`);
      assert.match(text, /🚀…/);
    }
  });
});

Deno.test("the continuity card: sections cut on code points, within its limit", () => {
  for (const [agent, budget] of Object.entries(BUDGETS)) {
    for (const pad of PADS) {
      const titles = ["Goal", "Standing instructions", "Decisions", "Next step", TASKS, FILES];
      const card = buildCard(
        {
          handover: { slug: "s", created: "2026-11-30T11:00:00Z", branch: "main" },
          sections: titles.map((title) => ({ title, content: rockets(900, pad) })),
        },
        "1 h ago",
        "deno run x recall s",
        budget,
      );
      clean(card, `${agent} pad ${pad}`);
      assert.ok(card.length <= CARD_LIMIT, `${agent}: ${card.length}`);
      if (budget.maxBytes) assert.ok(utf8Length(card) <= budget.maxBytes, agent);
    }
  }
});

Deno.test("Since the dump: a long commit message cut on a code point", () => {
  for (const pad of PADS) {
    const none: TranscriptFacts = {
      path: "/t",
      files: [],
      tasks: [],
      questions: [],
      deferrals: [],
    };
    const s = sinceSection({
      before: none,
      after: none,
      fromLine: 1,
      commits: [{ text: rockets(200, pad), line: 3 }],
    })!;
    clean(s, `pad ${pad}`);
    assert.match(s, /…/);
  }
});

Deno.test("the banner's branch: at most 60 UTF-16 units, no half emoji", async (t) => {
  const { branchWords } = await import("../../lib/frame/banner.ts");
  for (const pad of PADS) {
    await t.step(`pad ${pad}`, () => {
      const words = branchWords(`feat/${rockets(80, pad)}`);
      const shown: string = JSON.parse(words.slice("branch ".length));
      clean(shown, `branch pad ${pad}`);
      assert.ok(shown.length >= 59 && shown.length <= 60, `${shown.length}`);
    });
  }
});
