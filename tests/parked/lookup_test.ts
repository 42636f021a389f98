import assert from "node:assert/strict";
import { emptyParked, parseParked } from "../../lib/parked/scanner.ts";
import { findParked, holdsBullet, slugFamily, uniqueSlug } from "../../lib/parked/lookup.ts";
import { upsertParked } from "../../lib/parked/edit.ts";
import { prng as rng } from "../support/prng.ts";

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

Deno.test("parked: slugs", async (t) => {
  await t.step("uniqueSlug appends -2, -3", () => {
    let doc = emptyParked();
    assert.equal(uniqueSlug(doc, "a"), "a");
    doc = upsertParked(doc, { slug: "a", summary: "x" }).doc;
    assert.equal(uniqueSlug(doc, "a"), "a-2");
    doc = upsertParked(doc, { slug: "a-2", summary: "x" }).doc;
    assert.equal(uniqueSlug(doc, "a"), "a-3");
  });
});

Deno.test("holdsBullet: the bullet as written, found by its slug", async (t) => {
  const text = [
    "# Parked items",
    "",
    "- **alpha** — First. Raised: 2026-11-01.",
    "- **beta** — Second. Raised: 2026-11-02. Why: flaky.",
    "",
  ].join("\n");
  const doc = parseParked(text);
  const [alpha, beta] = doc.items;
  await t.step("each bullet of the file is there", () => {
    assert.ok(holdsBullet(doc, alpha));
    assert.ok(holdsBullet(doc, beta));
  });
  await t.step("a bullet edited since (same slug, other text) is not", () => {
    const edited = parseParked(text.replace("Why: flaky.", "Why: slow."));
    assert.equal(holdsBullet(edited, beta), false);
    assert.ok(holdsBullet(edited, alpha));
  });
  await t.step("a removed bullet is not", () => {
    const gone = parseParked(text.replace("- **alpha** — First. Raised: 2026-11-01.\n", ""));
    assert.equal(holdsBullet(gone, alpha), false);
  });
});
