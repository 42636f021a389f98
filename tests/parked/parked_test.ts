import assert from "node:assert/strict";
import {
  emptyParked,
  findParked,
  formatBullet,
  type ParkedItem,
  parseBullet,
  parseCanonical,
  parseParked,
  removeParked,
  renderParked,
  slugFamily,
  slugFromSummary,
  uniqueSlug,
  upsertParked,
} from "../../lib/parked/parked.ts";
import { prng as rng } from "../support/prng.ts";

const WELL_FORMED = [
  "# Parked items",
  "",
  "- **fix-flaky-parser** — Fix the flaky parser test. Raised: 2026-11-20. Why: CI fails 1 in 10. Next: run with seed 42.",
  "- **docs-install** — Document install on Windows. Raised: 2026-11-29.",
  "",
].join("\n");

Deno.test("parked: parse", async (t) => {
  await t.step("well-formed file: fields of every bullet", () => {
    const doc = parseParked(WELL_FORMED);
    assert.equal(doc.items.length, 2);
    const [a, b] = doc.items;
    assert.equal(a.slug, "fix-flaky-parser");
    assert.equal(a.summary, "Fix the flaky parser test");
    assert.equal(a.raised, "2026-11-20");
    assert.equal(a.why, "CI fails 1 in 10");
    assert.equal(a.next, "run with seed 42");
    assert.equal(a.line, 3);
    assert.equal(b.slug, "docs-install");
    assert.equal(b.why, undefined);
    assert.equal(b.next, undefined);
    assert.equal(b.line, 4);
  });
  await t.step("render(parse(x)) is byte-exact for a well-formed file, LF and CRLF", () => {
    assert.equal(renderParked(parseParked(WELL_FORMED)), WELL_FORMED);
    const crlf = WELL_FORMED.replaceAll("\n", "\r\n");
    const doc = parseParked(crlf);
    assert.equal(renderParked(doc), crlf);
    assert.equal(doc.eol, "\r\n");
    assert.equal(doc.items[0].next, "run with seed 42", "no stray \\r in fields");
    assert.equal(doc.items[0].text.includes("\r"), false);
  });
  await t.step("a canonical bullet re-formats to itself", () => {
    for (const item of parseParked(WELL_FORMED).items) assert.equal(formatBullet(item), item.text);
  });
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
  await t.step("multi-line bullets: indented and lazy continuation, ended by blank/heading", () => {
    const text = [
      "# Parked items",
      "- **wrap** — a long summary",
      "  that wraps. Raised: 2026-11-01.",
      "Why: lazy line. Next: finish",
      "  - a nested detail",
      "",
      "Some prose paragraph.",
      "## Later",
      "- **b** — second",
      "# Heading ends it",
    ].join("\n");
    const doc = parseParked(text);
    assert.equal(renderParked(doc), text);
    assert.equal(doc.items.length, 2);
    const [wrap, b] = doc.items;
    // Fields come from the first line; the lines after it are the user's notes, verbatim.
    assert.equal(wrap.summary, "a long summary");
    assert.equal(wrap.raised, undefined);
    assert.equal(wrap.why, undefined);
    assert.equal(wrap.next, undefined);
    assert.equal(
      wrap.notes,
      "  that wraps. Raised: 2026-11-01.\nWhy: lazy line. Next: finish\n  - a nested detail",
    );
    assert.equal(wrap.text.split("\n").length, 4);
    assert.equal(b.slug, "b");
    assert.equal(b.line, 9);
  });
  await t.step("the last marker wins: a summary may say 'why:' itself", () => {
    const item = parseBullet("- **q** — ask why: the build is slow. Why: blocks release.");
    assert.equal(item.summary, "ask why: the build is slow");
    assert.equal(item.why, "blocks release");
  });
  await t.step("bullets inside fenced code are text", () => {
    const doc = parseParked("```\n- **not** — an item\n```\n- **yes** — item\n");
    assert.deepEqual(doc.items.map((i) => i.slug), ["yes"]);
  });
  await t.step("empty and header-only files have no items", () => {
    assert.equal(parseParked("").items.length, 0);
    assert.equal(parseParked("# Parked items\n\n").items.length, 0);
    assert.equal(parseParked("-\n- \n*\n").items.length, 0);
  });
  await t.step("hostile input never throws and always round-trips", () => {
    const rand = rng(42);
    const alphabet = ["-", "*", " ", "\n", "\r", "\r\n", "**", "—", ":", ".", "Why:", "Next:"]
      .concat([
        "Raised:",
        "`",
        "_",
        "#",
        "```",
        "a",
        "é",
        "\0",
        "\uFFFD",
        "\uD800",
        "x".repeat(50),
      ]);
    for (let n = 0; n < 500; n++) {
      let s = "";
      const len = Math.floor(rand() * 80);
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
      const doc = parseParked(s);
      assert.equal(renderParked(doc), s);
      for (const item of doc.items) assert.ok(item.slug.length > 0, JSON.stringify(s));
    }
    const huge = "- **h** — " + "x".repeat(2_000_000) + "\n" + "*".repeat(100_000);
    assert.equal(renderParked(parseParked(huge)), huge);
    const binary = String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => i % 256));
    assert.equal(renderParked(parseParked(binary)), binary);
    // deno-lint-ignore no-explicit-any
    assert.deepEqual(parseParked(undefined as any).items, []);
  });
});

Deno.test("parked: edits agree with a fresh parse of their output", () => {
  const rand = rng(7);
  const pieces = [
    "# Parked items\n",
    "\n",
    "- **a** — A. Raised: 2026-01-01.\n",
    "- **b** — B\n",
    "  more b\n",
    "lazy line\n",
    "* hand bullet\n",
    "## Heading\n",
    "```\n",
    "- **fenced** — x\n",
    "<!-- note -->\n",
    "prose\n",
    "- **c** — C.\r\n",
    "- **tail** — no newline",
  ];
  const ops = ["x", "a", "b", "c", "new-one", "hand-bullet"];
  for (let n = 0; n < 400; n++) {
    let text = "";
    const len = Math.floor(rand() * 10);
    for (let i = 0; i < len; i++) text += pieces[Math.floor(rand() * (pieces.length - 1))];
    if (rand() < 0.3) text += pieces[pieces.length - 1];
    let doc = parseParked(text);
    for (let k = 0; k < 3; k++) {
      const slug = ops[Math.floor(rand() * ops.length)];
      doc = rand() < 0.5
        ? upsertParked(doc, { slug, summary: `s ${k}`, raised: "2026-11-30" }).doc
        : removeParked(doc, slug).doc;
      const fresh = parseParked(renderParked(doc));
      const view = (d: typeof doc) => d.items.map((i) => [i.slug, i.line, i.text, i.summary]);
      assert.deepEqual(view(doc), view(fresh), JSON.stringify(renderParked(doc)));
    }
  }
});

/** The reading rules as plain regexes on decoded lines: the byte scanner must agree. */
function referenceBullets(text: string): number[] {
  const kind = (c: string) =>
    /^ {0,3}(```|~~~)/.test(c)
      ? "fence"
      : /^ ?[-*+][ \t]+(?=\S)/.test(c)
      ? "bullet"
      : !/\S/.test(c)
      ? "blank"
      : /^ {0,3}#/.test(c)
      ? "heading"
      : /^\s*<!--/.test(c)
      ? "comment"
      : "other";
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const out: number[] = [];
  let open = false;
  let fenced = false;
  lines.forEach((line, i) => {
    const k = kind(line);
    if (!fenced && k === "bullet") {
      out.push(i + 1);
      open = true;
    } else if (!(open && !fenced && k === "other")) {
      if (k === "fence") fenced = !fenced;
      open = false;
    }
  });
  return out;
}

Deno.test("parked: the byte scanner agrees with the regex rules", () => {
  const rand = rng(99);
  const bits = ["-", "*", "+", " ", "\t", "\r", "#", "`", "~", "<!--", "x", "é", "\u00a0", "\u3000"]
    .concat(["\u2028", "**", "a-b", "\n", "\n", "\n", "```", "~~~", "- ", " - ", "-\u00a0x"]);
  for (let n = 0; n < 2000; n++) {
    let s = "";
    const len = Math.floor(rand() * 30);
    for (let i = 0; i < len; i++) s += bits[Math.floor(rand() * bits.length)];
    assert.deepEqual(
      parseParked(s).items.map((i) => i.line),
      referenceBullets(s),
      JSON.stringify(s),
    );
  }
});

Deno.test("parked: in-place slug lookups agree with the parsed items", () => {
  const rand = rng(5);
  const bullets = [
    "- **fix-login** — a",
    "- **Fix-Login** — b",
    "- **fix Login** — c",
    "- **fix-login-2** — d",
    "- **fix-login-x** — e",
    "- **fix-login-** — f",
    "- **fix-loginn** — g",
    "* **fix-login** — h",
    "- __fix-login-3__ — i",
    "- fix login — j",
    "- **fïx-login** — k",
    "  - **fix-login** — nested",
    "- **** — fix login",
    "```",
  ];
  const queries = ["fix-login", "fix-login-2", "fix-login-3", "fïx-login", "fix-loginn", "item-1"];
  for (let n = 0; n < 300; n++) {
    const len = Math.floor(rand() * 8);
    const lines = Array.from({ length: len }, () => bullets[Math.floor(rand() * bullets.length)]);
    const doc = parseParked(lines.join(rand() < 0.5 ? "\n" : "\r\n"));
    const slugs = doc.items.map((i) => i.slug);
    for (const q of queries) {
      assert.equal(findParked(doc, q), slugs.indexOf(q), `${q} in ${JSON.stringify(lines)}`);
      const family = new RegExp(`^${q}(?:-\\d+)?$`);
      assert.deepEqual(
        slugFamily(doc, q).map((i) => i.line),
        doc.items.filter((i) => family.test(i.slug)).map((i) => i.line),
        `family ${q} in ${JSON.stringify(lines)}`,
      );
    }
  }
});

Deno.test("parked: all items of a large file read the same as one by one", () => {
  const pieces = [
    "- **a-1** — one. Raised: 2026-01-01.\n",
    "- **b** — two\r\n  more of two\r\n",
    "* hand — é ünïcode. Why: x\n",
    "lazy continuation\n",
    "\n",
    "## heading\n",
    "- **c** — \u2028 odd\n",
    "- **d-2** — canonical. Raised: 2026-11-20. Why: because. Next: go.\n",
    "- **e** — canonical, CRLF. Raised: 2026-11-20. Next: go.\r\n",
  ];
  let text = "# Parked items\n\n";
  for (let i = 0; i < 300; i++) text += pieces[i % pieces.length];
  text += "- **last** — no newline";
  const all = parseParked(text).items;
  const oneByOne = parseParked(text) as unknown as { count: number; item(i: number): ParkedItem };
  assert.ok(all.length > 64);
  const view = (i: ParkedItem) => [i.slug, i.line, i.text, i.summary, i.raised, i.why, i.next];
  for (let i = 0; i < all.length; i++) assert.deepEqual(view(all[i]), view(oneByOne.item(i)));
  assert.ok(all.some((i) => i.slug === "d-2" && i.next === "go"));
});

Deno.test("parked: the canonical fast path reads every bullet as parseBullet does", () => {
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
  assert.ok(fast > 400, `only ${fast} of 10,000 bullets took the fast path`);
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
  await t.step("uniqueSlug appends -2, -3", () => {
    let doc = emptyParked();
    assert.equal(uniqueSlug(doc, "a"), "a");
    doc = upsertParked(doc, { slug: "a", summary: "x" }).doc;
    assert.equal(uniqueSlug(doc, "a"), "a-2");
    doc = upsertParked(doc, { slug: "a-2", summary: "x" }).doc;
    assert.equal(uniqueSlug(doc, "a"), "a-3");
  });
});

Deno.test("parked: edits", async (t) => {
  await t.step("upsert into an empty file writes the header and one bullet", () => {
    const { doc, item, updated } = upsertParked(emptyParked(), {
      slug: "x",
      summary: "Do x",
      raised: "2026-11-30",
      why: "because",
      next: "start",
    });
    assert.equal(updated, false);
    assert.equal(item.slug, "x");
    assert.equal(
      renderParked(doc),
      "# Parked items\n\n- **x** — Do x. Raised: 2026-11-30. Why: because. Next: start.\n",
    );
  });
  await t.step("append goes after the last item; other text is untouched", () => {
    const text = "# Parked items\n\n- **a** — A.\n\nNotes: keep me\n";
    const out = renderParked(upsertParked(parseParked(text), { slug: "b", summary: "B" }).doc);
    assert.equal(out, "# Parked items\n\n- **a** — A.\n- **b** — B.\n\nNotes: keep me\n");
  });
  await t.step("append keeps CRLF and fixes a missing final newline", () => {
    const out = renderParked(
      upsertParked(parseParked("# Parked items\r\n\r\n- **a** — A."), { slug: "b", summary: "B" })
        .doc,
    );
    assert.equal(out, "# Parked items\r\n\r\n- **a** — A.\r\n- **b** — B.\r\n");
  });
  await t.step("append to a file with no items separates from prose with a blank line", () => {
    const out = renderParked(upsertParked(parseParked("hello"), { slug: "b", summary: "B" }).doc);
    assert.equal(out, "hello\n\n- **b** — B.\n");
  });
  await t.step("a file ending inside an open fence: the fence is closed, the item counts", () => {
    const r = upsertParked(parseParked("```\ncode\n"), { slug: "b", summary: "B" });
    assert.equal(r.doc.items.length, 1);
    assert.equal(renderParked(r.doc), "```\ncode\n\n```\n\n- **b** — B.\n");
  });
  await t.step(
    "same slug updates that bullet only; Raised kept; why/next kept unless given",
    () => {
      const doc = parseParked(WELL_FORMED);
      const r = upsertParked(doc, {
        slug: "fix-flaky-parser",
        summary: "Fix the parser test",
        raised: "2026-11-30",
        next: "bisect",
      });
      assert.equal(r.updated, true);
      assert.equal(r.doc.items.length, 2);
      assert.equal(r.item.raised, "2026-11-20");
      assert.equal(r.item.why, "CI fails 1 in 10");
      assert.equal(r.item.next, "bisect");
      assert.equal(
        renderParked(r.doc),
        WELL_FORMED.replace(
          /- \*\*fix-flaky-parser.*\n/,
          () =>
            "- **fix-flaky-parser** — Fix the parser test. Raised: 2026-11-20. Why: CI fails 1 in 10. Next: bisect.\n",
        ),
      );
    },
  );
  await t.step("update of a multi-line bullet rewrites its first line only, keeps CRLF", () => {
    const text = "- **m** — a\r\n  b\r\n- **n** — c\r\n";
    const out = renderParked(upsertParked(parseParked(text), { slug: "m", summary: "new" }).doc);
    assert.equal(out, "- **m** — new.\r\n  b\r\n- **n** — c\r\n");
  });
  await t.step("updates never lose, move or rewrite the notes under a bullet", () => {
    const notes = [
      "  Notes from Bob: keep this. Why: not a field",
      "lazy note: Next: also not one",
      "  - a nested detail\twith a tab",
    ];
    for (const eol of ["\n", "\r\n"]) {
      for (const last of [true, false]) {
        const bullet = ["- **alpha** — first. Raised: 2026-01-01. Why: old.", ...notes].join(eol);
        const text = `# Parked items${eol}${eol}${bullet}${last ? "" : `${eol}- **b** — B${eol}`}`;
        let doc = parseParked(text);
        assert.equal(doc.items[0].notes, notes.join("\n"));
        doc = upsertParked(doc, { slug: "alpha", summary: "second", raised: "2026-02-02" }).doc;
        doc = upsertParked(doc, { slug: "alpha", summary: "third", why: "new why" }).doc;
        doc = upsertParked(parseParked(renderParked(doc)), {
          slug: "alpha",
          summary: "fourth",
          next: "ship",
        }).doc;
        const want = [
          "- **alpha** — fourth. Raised: 2026-01-01. Why: new why. Next: ship.",
          ...notes,
        ].join(eol);
        assert.equal(renderParked(doc), text.replace(bullet, want), JSON.stringify({ eol, last }));
        const item = parseParked(renderParked(doc)).items[0];
        assert.deepEqual(
          [item.summary, item.raised, item.why, item.next, item.notes],
          ["fourth", "2026-01-01", "new why", "ship", notes.join("\n")],
        );
      }
    }
  });
  await t.step("remove takes only that bullet (all its lines)", () => {
    const text = "# Parked items\n\n- **a** — A\n  more of a\n- **b** — B\n\nfooter\n";
    const r = removeParked(parseParked(text), "a");
    assert.equal(r.removed?.slug, "a");
    assert.equal(r.removed?.text, "- **a** — A\n  more of a");
    assert.equal(renderParked(r.doc), "# Parked items\n\n- **b** — B\n\nfooter\n");
    assert.equal(removeParked(r.doc, "zzz").removed, undefined);
  });
  await t.step("remove of a last bullet without a newline leaves no dangling line ending", () => {
    const r = removeParked(parseParked("- **a** — A\n- **b** — B"), "b");
    assert.equal(renderParked(r.doc), "- **a** — A");
  });
  await t.step("summary with newlines and markdown stays on one line", () => {
    const line = formatBullet({ slug: "s", summary: "two\nlines  here", raised: "2026-01-01" });
    assert.equal(line, "- **s** — two lines here. Raised: 2026-01-01.");
    assert.equal(formatBullet({ slug: "q", summary: "why?" }), "- **q** — why?");
  });
});
