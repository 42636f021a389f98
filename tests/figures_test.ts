/**
 * Every message that states a threshold states the constant's value: the figure is built from the
 * constant (lib/store/time.ts `spanWords`, document.ts `capTokens`, …), never typed beside it.
 * Two checks: the messages as the user reads them carry each constant's words, and no string in
 * lib/ types one of those figures in by hand (a typed figure would not follow its constant).
 * @module
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  CODEX_SESSION_END_TIMEOUT,
  SESSION_END_DEFAULT_BUDGET_MS,
  SESSION_END_TIMEOUT,
} from "../lib/agents/targets.ts";
import { helpText } from "../lib/cli/args.ts";
import { SPEC as INSTALL } from "../lib/cli/install.ts";
import { SPEC as LIST } from "../lib/cli/list.ts";
import { SPEC as DOCTOR } from "../lib/cli/doctor.ts";
import { CAP, capTokens, overage } from "../lib/handover/document.ts";
import { EXPIRY_MS, spanWords, STALE_MS, WINDOW_MS } from "../lib/store/time.ts";

const LIB = join(dirname(fileURLToPath(import.meta.url)), "..", "lib");

/** The figures of the thresholds as messages state them, each from its constant. */
const FIGURES = [
  spanWords(WINDOW_MS),
  spanWords(STALE_MS),
  spanWords(EXPIRY_MS),
  `${CAP.lines} lines`,
  `~${capTokens()}`,
  `${SESSION_END_DEFAULT_BUDGET_MS / 1000} s`,
  `${SESSION_END_TIMEOUT} s`,
  `${CODEX_SESSION_END_TIMEOUT} s`,
];

/** The code of `text` without its comments (a comment may give a figure as a reason). */
export function codeOf(text: string): string {
  return text.split("\n")
    .filter((line) => !/^\s*(\/\/|\/\*\*?|\*)/.test(line))
    .map((line) => line.replace(/\s\/\/\s.*$/, ""))
    .join("\n");
}

function files(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((e) =>
    e.isDirectory ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  );
}

Deno.test("figures: a threshold a message states is its constant's", async (t) => {
  await t.step("the words of the thresholds", () => {
    assert.equal(spanWords(WINDOW_MS), "30 minutes");
    assert.equal(spanWords(STALE_MS), "14 days");
    assert.equal(spanWords(EXPIRY_MS), "30 days");
    assert.equal(spanWords(60 * 60_000), "1 hour");
    assert.equal(spanWords(60_000), "1 minute");
    assert.equal(spanWords(90 * 60_000), "90 minutes");
  });

  await t.step("the help and the messages carry them", () => {
    const list = helpText(LIST);
    assert.ok(list.includes(`over ${spanWords(EXPIRY_MS)}`), list);
    assert.ok(list.includes(`Stale (over ${spanWords(STALE_MS)})`), list);
    const install = helpText(INSTALL);
    assert.ok(install.includes(`under ${spanWords(WINDOW_MS)} ago`), install);
    assert.ok(install.includes(`timeout ${SESSION_END_TIMEOUT} s`), install);
    assert.ok(install.includes(`${SESSION_END_DEFAULT_BUDGET_MS / 1000} s SessionEnd`), install);
    assert.ok(install.includes(`Codex's ${CODEX_SESSION_END_TIMEOUT} s cap`), install);
    const doctor = helpText(DOCTOR);
    assert.ok(doctor.includes(`${SESSION_END_DEFAULT_BUDGET_MS / 1000} s SessionEnd`), doctor);
    const over = overage({ lines: CAP.lines + 1, chars: 0, tokens: CAP.tokens + 10 });
    assert.equal(over, `1 line over ${CAP.lines}, ~10 tokens over ${capTokens()}`);
  });

  await t.step("the scan finds a typed-in figure, not one in a comment", () => {
    assert.ok(codeOf('  summary: "expired (over 30 days)",').includes("30 days"));
    assert.ok(!codeOf(" * older than 30 days").includes("30 days"));
    assert.ok(!codeOf("x(); // 30 days").includes("30 days"));
  });

  await t.step("no string in lib/ types a threshold's figure in", () => {
    const typed: string[] = [];
    for (const file of files(LIB)) {
      const code = codeOf(Deno.readTextFileSync(file));
      for (const figure of FIGURES) {
        if (code.includes(figure)) typed.push(`${file.slice(LIB.length + 1)}: "${figure}"`);
      }
    }
    assert.deepEqual(typed, []);
  });
});
