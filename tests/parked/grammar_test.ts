import assert from "node:assert/strict";
import {
  formatBullet,
  parseBullet,
  parseCanonical,
  slugFromSummary,
} from "../../lib/parked/grammar.ts";
import { upsertParked } from "../../lib/parked/edit.ts";
import { parseParked, renderParked } from "../../lib/parked/scanner.ts";
import { prng as rng } from "../support/prng.ts";

Deno.test("parked: parse a bullet", async (t) => {
  await t.step("hand-edited bullets: other markers, separators, order, no slug", () => {
    const doc = parseParked([
      "* __Login_Bug__ - login fails on Safari. Next: repro. Why: users complain",
      "+ `cache`: cache warmup is slow",
      "- just a plain note without a slug",
      " - **spaced** — one-space indent still counts",
    ].join("\n"));
    assert.deepEqual(doc.items.map((i) => i.slug), [
      "login-bug",
      "cache",
      "just-plain-note-without-slug",
      "spaced",
    ]);
    assert.equal(doc.items[0].summary, "login fails on Safari");
    assert.equal(doc.items[0].why, "users complain");
    assert.equal(doc.items[0].next, "repro");
    assert.equal(doc.items[1].summary, "cache warmup is slow");
  });
  await t.step("the last marker wins: a summary may say 'why:' itself", () => {
    const item = parseBullet("- **q** — ask why: the build is slow. Why: blocks release.");
    assert.equal(item.summary, "ask why: the build is slow");
    assert.equal(item.why, "blocks release");
  });
  await t.step("summary with newlines and markdown stays on one line", () => {
    const line = formatBullet({ slug: "s", summary: "two\nlines  here", raised: "2026-01-01" });
    assert.equal(line, "- **s** — two lines here. Raised: 2026-01-01.");
    assert.equal(formatBullet({ slug: "q", summary: "why?" }), "- **q** — why?");
  });
});

Deno.test("parked: the canonical reader reads every bullet as parseBullet does", () => {
  const rand = rng(11);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const words = [
    "fix",
    "the",
    "parser",
    "why",
    "Next",
    "raised",
    "a.b",
    "x;y",
    "p,q",
    "é",
    "—",
    "⚠",
    "|",
    "..",
    ".",
    "Why:",
    "next :",
    "10:30",
    "\u00a0",
    "\u2028",
    "\t",
    "  ",
    "\r",
  ];
  const phrase = () =>
    Array.from({ length: 1 + Math.floor(rand() * 5) }, () => pick(words)).join(
      pick([" ", "", "  "]),
    );
  const mutate = (line: string) => {
    const at = Math.floor(rand() * (line.length + 1));
    const r = rand();
    if (r < 0.3) {
      return line.slice(0, at) + pick([":", " ", ".", "\t", "*", "-", "A", "\r"]) + line.slice(at);
    }
    if (r < 0.6) return line.slice(0, at) + line.slice(at + 1);
    return line;
  };
  let fast = 0;
  for (let n = 0; n < 10_000; n++) {
    let line = formatBullet({
      slug: pick(["fix-it", "a", "item-00042", "Fix-It", "x--y"]),
      summary: phrase(),
      raised: pick(["2026-11-20", "2026-11-20 ", "", "soon", "2026-1-2"]),
      why: rand() < 0.6 ? phrase() : undefined,
      next: rand() < 0.6 ? phrase() : undefined,
    });
    if (rand() < 0.4) line = mutate(mutate(line));
    if (rand() < 0.1) line += pick([" ", ".", "\r"]);
    // As the file's lines reach it: split at "\n", so a CRLF line still ends in "\r".
    if (rand() < 0.3) line += "\r";
    const ended = rand() < 0.8;
    const quick = parseCanonical(line, ended, 7);
    if (quick === undefined) continue;
    fast++;
    assert.deepEqual(quick, parseBullet(line + (ended ? "\n" : ""), 7), JSON.stringify(line));
  }
  assert.ok(fast > 400, `only ${fast} of 10,000 bullets took the canonical reader`);
});

Deno.test("parked: any field text reads back exactly (generated)", () => {
  const rand = rng(12);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  // Marker words in any case, with and without a space before the colon, at any position.
  const marker = () => {
    const w = pick(["why", "next", "raised"]);
    const cased = [...w].map((c) => rand() < 0.5 ? c.toUpperCase() : c).join("");
    return cased + pick([":", " :", "\t:", ":", ""]);
  };
  const parts = [
    marker,
    marker,
    () => pick(["the", "CI", "is", "red", "fix", "é", "日本"]),
    () => pick(["**", "**bold**", "—", "–", "-", "--", ":", "`x`", "__y__"]),
    () => pick([".", "..", "!", "?", ";", ",", "?.", "!."]),
    () => pick(["\\", "\\:", "\\\\", "C:\\dir", "a\\.b", "\\why:"]),
    () => pick(["2026-01-01", "10:30", "Raised: 2026-11-20.", "Why: x. Next: y."]),
  ];
  const text = () => {
    const n = 1 + Math.floor(rand() * 6);
    return Array.from({ length: n }, () => pick(parts)()).join(pick([" ", "", ". ", " "]))
      .replace(/\s+/g, " ").trim();
  };
  const seen = new Set<string>();
  for (let n = 0; n < 5_000; n++) {
    const summary = text();
    if (summary === "") continue;
    const fields = {
      slug: "s",
      summary,
      raised: rand() < 0.9 ? "2026-11-20" : text(),
      why: rand() < 0.5 ? text() : undefined,
      next: rand() < 0.5 ? text() : undefined,
    };
    const line = formatBullet(fields);
    const label = JSON.stringify({ fields, line });
    const read = parseBullet(line);
    assert.equal(read.summary, summary, label);
    assert.equal(read.raised, fields.raised || undefined, label);
    assert.equal(read.why, fields.why || undefined, label);
    assert.equal(read.next, fields.next || undefined, label);
    const quick = parseCanonical(line, true, 1);
    if (quick) assert.deepEqual(quick, parseBullet(line + "\n", 1), label);
    // In a file, under notes that mimic fields, and after an update of another field.
    const doc = parseParked(`${line}\n  Why: a note. Next: another\n`);
    const updated = upsertParked(doc, { ...fields, why: "w" }).doc;
    const again = parseParked(renderParked(updated)).items[0];
    assert.equal(again.summary, summary, label);
    assert.equal(again.notes, "  Why: a note. Next: another", label);
    seen.add(summary.toLowerCase().replace(/[^a-z:]/g, ""));
  }
  assert.ok(seen.size > 1_000, `only ${seen.size} distinct summaries`);
});

Deno.test("parked: slugs", async (t) => {
  await t.step("slugFromSummary: short, stop words dropped, capped", () => {
    assert.equal(
      slugFromSummary("Fix the flaky parser test in CI today"),
      "fix-flaky-parser-test-ci",
    );
    assert.equal(slugFromSummary("to be"), "to-be");
    assert.ok(slugFromSummary("x".repeat(100)).length <= 40);
    assert.equal(slugFromSummary("?!"), "");
  });
});
