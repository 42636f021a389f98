import assert from "node:assert/strict";
import { removeParked, upsertParked } from "../../lib/parked/edit.ts";
import {
  emptyParked,
  parseParked,
  parseParkedBytes,
  renderParked,
  renderParkedChunks,
} from "../../lib/parked/scanner.ts";
import { prng as rng } from "../support/prng.ts";
import { WELL_FORMED } from "./_fixture.ts";

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
      // The pieces a write puts out are the document's bytes (asked first: text joins them).
      const written = new TextDecoder().decode(joined(renderParkedChunks(doc)));
      assert.equal(written, renderParked(doc));
      const fresh = parseParked(renderParked(doc));
      const view = (d: typeof doc) => d.items.map((i) => [i.slug, i.line, i.text, i.summary]);
      assert.deepEqual(view(doc), view(fresh), JSON.stringify(renderParked(doc)));
    }
  }
});

/** The pieces joined (independently of the code under test). */
function joined(chunks: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(chunks.flatMap((c) => [...c]));
}

Deno.test("parked: an edit keeps the file's bytes where they are (pieces, not a copy)", async (t) => {
  const lines = Array.from({ length: 2000 }, (_, i) => `- **item-${i}** — Item ${i}.\n`);
  const text = `# Parked items\n\n${lines.join("")}\nfooter \u00e9\n`;
  const source = new TextEncoder().encode(text);
  const cases = [
    {
      name: "append",
      doc: upsertParked(parseParkedBytes(source), { slug: "new", summary: "New" }).doc,
      want: text.replace("\n\nfooter", "\n- **new** — New.\n\nfooter"),
    },
    {
      name: "update",
      doc: upsertParked(parseParkedBytes(source), { slug: "item-7", summary: "Seven" }).doc,
      want: text.replace("- **item-7** — Item 7.", "- **item-7** — Seven."),
    },
    {
      name: "remove",
      doc: removeParked(parseParkedBytes(source), "item-7").doc,
      want: text.replace("- **item-7** — Item 7.\n", ""),
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const chunks = renderParkedChunks(c.doc);
      const kept = chunks.filter((p) => p.buffer === source.buffer);
      assert.equal(kept.length, 2, "the bytes before and after the edit are views of the source");
      assert.ok(kept.reduce((n, p) => n + p.length, 0) > source.length - 100);
      assert.equal(new TextDecoder().decode(joined(chunks)), c.want);
      assert.equal(renderParked(c.doc), c.want);
    });
  }
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
});
