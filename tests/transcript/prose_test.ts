import assert from "node:assert/strict";
import {
  answersQuestion,
  closingQuestion,
  DEFERRAL_PATTERNS,
  deferralsIn,
} from "../../lib/transcript/prose.ts";
import { prng, textOf } from "../support/prng.ts";

Deno.test("deferral patterns (one place)", async (t) => {
  const yes = [
    "Let's do the docs later.",
    "Park this for now",
    "park the i18n idea",
    "We'll come back to caching",
    "Circle back to the flaky test tomorrow",
    "Do the migration after the API refactor lands",
    "after PR #42 is merged we can clean up",
    "Revisit the naming",
    "Defer the cleanup",
    "not now, first fix the build",
    "put a pin in the benchmark",
    "leave that for the next session",
    "skip it for now",
    "add it to the backlog",
    "keep that on the back burner",
    "the release is on hold",
  ];
  const no = [
    "Fix the parser.",
    "The parking lot service needs a test",
    "Collateral damage is fine",
    "after all, it works",
    "Come here and look at this",
  ];
  await t.step("parks", () => {
    for (const s of yes) assert.equal(deferralsIn(s).length, 1, s);
  });
  await t.step("does not park", () => {
    for (const s of no) {
      assert.deepEqual(deferralsIn(s), [], s);
    }
  });
  await t.step("sentence by sentence", () => {
    assert.deepEqual(deferralsIn("Fix the build. Docs later! Then ship."), ["Docs later!"]);
  });
});

Deno.test("closing questions and whether a reply answers them", async (t) => {
  await t.step("closingQuestion", () => {
    assert.equal(closingQuestion("Done. Shall I go on?"), "Shall I go on?");
    assert.equal(closingQuestion("Line one\n**Want me to push?**"), "Want me to push?");
    assert.equal(closingQuestion("Done."), undefined);
    assert.equal(closingQuestion("Is it x? Yes it is."), undefined);
  });
  await t.step("answersQuestion", () => {
    const q = "Should I also add a --shout flag?";
    assert.ok(answersQuestion(q, "yes please"));
    assert.ok(answersQuestion(q, "No."));
    assert.ok(answersQuestion(q, "OK go"));
    assert.ok(answersQuestion(q, "2"));
    assert.ok(answersQuestion(q, "Add the shout flag, but hidden"));
    assert.ok(!answersQuestion(q, "Now write docs/greet.md describing the module."));
    assert.ok(!answersQuestion(q, "Run the tests"));
  });
});

Deno.test("prose shortcuts give the answers of the full readings", async (t) => {
  const pieces = (
    "Fix the build| later|Later| park this| let's park| come back to| revisit| after the API " +
    "refactor lands| defer| not now| some time| next session| put a pin in| on the back burner|" +
    " on hold| leave it for| skip it for now| backlog|.|!|?|;| |\n|\n\n|**|`|)|\"|'|_| done|" +
    " Shall I go on|—|é|Ready?|\u00a0|\t"
  ).split("|");
  const next = prng(1201);
  const texts: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    texts.push(textOf(next, pieces, 14));
  }
  await t.step("deferralsIn: as sentence by sentence with every pattern", () => {
    let found = 0;
    for (const text of texts) {
      const want: string[] = [];
      for (const sentence of text.split(/(?<=[.!?;])\s+|\n+/)) {
        const s = sentence.trim();
        if (s && DEFERRAL_PATTERNS.some((re) => re.test(s))) {
          want.push(s.length > 300 ? s.slice(0, 299) + "…" : s);
        }
      }
      assert.deepEqual(deferralsIn(text), want, JSON.stringify(text));
      if (want.length > 0) found++;
    }
    assert.ok(found > 1_000 && found < 9_000, `both answers generated: ${found}`);
  });
  await t.step(
    "closingQuestion: one exactly when a `?` ends the text before trailing markup",
    () => {
      // The reading strips trailing white space and markup, then wants a `?`: the `?` shortcut may
      // only ever answer "none" where that is what the reading would say.
      let asked = 0;
      for (const text of texts) {
        const ends = /\?[\s*_`)\]"']*$/u.test(text);
        assert.equal(closingQuestion(text) !== undefined, ends, JSON.stringify(text));
        if (ends) asked++;
      }
      assert.ok(asked > 100, `questions generated: ${asked}`);
    },
  );
  await t.step(
    "closingQuestion: the same question with its trailing run stripped by the regex",
    () => {
      // The trailing run is found by a loop: held to the `[\s*_`)\]"']+$` reading on every text.
      for (const text of texts) {
        const stripped = text.replace(/[\s*_`)\]"']+$/u, "");
        assert.equal(closingQuestion(text), closingQuestion(stripped), JSON.stringify(text));
      }
      assert.equal(closingQuestion("Shall I push?\u3000 **)\"'_`\ufeff"), "Shall I push?");
      assert.equal(closingQuestion("Is it? x"), undefined);
      assert.equal(closingQuestion("Done?\u200b"), undefined); // a zero-width space is no `\s`
    },
  );
  await t.step(
    "closingQuestion strips every `\\s` character after the `?`, and nothing else",
    () => {
      for (let c = 0; c <= 0xffff; c++) {
        const ch = String.fromCharCode(c);
        const want = /\s/.test(ch) || "*_`)]\"'".includes(ch)
          ? "Go?"
          : ch === "?"
          ? "Go??"
          : undefined;
        assert.equal(closingQuestion("Go?" + ch), want, c.toString(16));
      }
    },
  );
});

Deno.test("answersQuestion: an answer word, a number, or a shared significant word", () => {
  const cases: [string, string, boolean][] = [
    ["Shall I push?", "yes", true],
    ["Shall I push?", "  OK, go ahead", true],
    ["Shall I push?", "Noël first", false], // an answer word is a whole word
    ["Which of the two?", "2", true],
    ["Which of the two?", "42 please", true],
    ["Which of the two?", "v2 please", false], // "v2" is no number
    ["Should I add the parser flag?", "the PARSER first", true],
    ["Should I add the parser flag?", "Thanks, now write the docs", false],
    ["Add the --shout option?", "-shout- it is", true], // dashes at a word's ends are trimmed
    ["Add the --shout option?", "shout-flag", false], // one word, not "shout"
    ["Should I do that?", "that would be nice", false], // stop words count for nothing
    ["Fix the bug?", "the bug is old", false], // neither is 4 letters long
    ["Rename __init__ too?", "__init__ stays", true],
    ["Soll ich die Übersetzung prüfen?", "Übersetzung zuerst", true], // any script
    ["Löschen wir größere Dateien?", "größere zuerst", true],
    ["日本語の翻訳を確認?", "日本語の翻訳を確認", true],
    ["日本語の翻訳を確認しますか?", "翻訳を確認", false], // runs of 4+: "確認しますか" ≠ "翻訳を確認"
  ];
  for (const [question, reply, want] of cases) {
    assert.equal(answersQuestion(question, reply), want, JSON.stringify([question, reply]));
  }
});
