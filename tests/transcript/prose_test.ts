import assert from "node:assert/strict";
import {
  ANSWER_OPENERS,
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

Deno.test("answersQuestion: the ASCII reading gives the Unicode regexes' answer", () => {
  const STOP = new Set(
    ("should would could shall will want like also then that this these those with from into " +
      "what which when where there their them they your yours have does make just more some " +
      "other about want need here").split(" "),
  );
  // The reading before the ASCII path, verbatim but for its word lists: the oracle.
  const byRegexes = (question: string, reply: string) => {
    const first = reply.trim().toLowerCase().match(/^[\p{L}\p{N}']+/u)?.[0] ?? "";
    if (ANSWER_OPENERS.has(first) || /^\d+$/.test(first)) return true;
    const words = (s: string) =>
      new Set(
        (s.toLowerCase().match(/[\p{L}\p{N}_-]{4,}/gu) ?? [])
          .map((w) => w.replace(/^-+|-+$/g, ""))
          .filter((w) => w.length >= 4 && !STOP.has(w)),
      );
    const asked = words(question);
    for (const w of words(reply)) if (asked.has(w)) return true;
    return false;
  };
  const pieces = (
    "Should|I|add|the|parser|flag|--shout|shout-flag|__init__|x_y|Yes|no|OK|ok|2|42|v2|it's|'|" +
    "docs|Docs|DOCS|-|_|,|.|?|!| |  |\n|\t|---|parser-|-parser|abc|abcd|abcde|Thanks|sure|" +
    "write|that|this|with|here"
  ).split("|");
  const next = prng(2026);
  const text = () => textOf(next, pieces, 12);
  const seen = new Set<boolean>();
  for (let i = 0; i < 20_000; i++) {
    const q = text();
    const r = text();
    const answer = answersQuestion(q, r);
    assert.equal(answer, byRegexes(q, r), JSON.stringify([q, r]));
    seen.add(answer);
  }
  assert.equal(seen.size, 2, "both answers generated");
  // Not ASCII: the regexes decide, and a word of another script counts.
  assert.ok(answersQuestion("Soll ich die Übersetzung prüfen?", "Übersetzung zuerst"));
});
