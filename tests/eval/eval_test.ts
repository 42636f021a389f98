/**
 * The hand-labelled evaluation set (tests/eval/labels/, README.md beside it): every label's points
 * met by the draft and the card of its session. Corpus labels are skipped, and said to be, where
 * the corpus is not beside the project.
 */
import assert from "node:assert/strict";
import { CORPUS, labelNames, runLabel, scoreLine } from "./run.ts";
import type { Result } from "./run.ts";
import { isDir } from "../../lib/fs/path.ts";

const present = isDir(CORPUS);

Deno.test(
  "the evaluation set: every label met by the draft and the card" +
    (present ? "" : " (corpus labels skipped: no ../shared/corpus beside the project)"),
  async (t) => {
    const names = labelNames();
    assert.ok(names.length >= 30, `only ${names.length} labels`);
    const results: Result[] = [];
    for (const name of names) {
      await t.step(name, async () => {
        const r = await runLabel(name);
        results.push(r);
        assert.deepEqual(r.missed, [], `${name} (${r.label.state}): ${r.label.why}`);
      });
    }
    console.log(scoreLine(results));
    if (present) {
      const corpus = results.filter((r) => r.label.transcript.startsWith("corpus:"));
      const sessions = new Set(corpus.map((r) => r.label.transcript));
      assert.ok(sessions.size >= 25, `labels cover only ${sessions.size} real sessions`);
    }
  },
);
