import assert from "node:assert/strict";
import {
  type Bullet,
  docKeyText,
  keyBullets,
  logLinesToAdd,
  mergeParked,
  placeDocs,
  tombstoneKey,
  tombstones,
  travelling,
} from "../../lib/sync/merge.ts";
import { splitFrontMatter } from "../../lib/store/front_matter.ts";

const b = (slug: string, text = `- **${slug}** — ${slug}.`): Bullet => ({ key: slug, slug, text });
const side = (items: Bullet[], dropped: string[] = []) => ({ items, dropped: new Set(dropped) });

Deno.test("parked: a union of additions on both sides, local order then the remote's", () => {
  const m = mergeParked([b("a")], side([b("a"), b("l")]), side([b("a"), b("r")]), true);
  assert.deepEqual(m.result.map((i) => i.slug), ["a", "l", "r"]);
  assert.deepEqual(m.add.map((i) => i.slug), ["r"]);
  assert.equal(m.remove.size, 0);
});

Deno.test("parked: a drop on either side wins, even over an edit on the other", () => {
  const base = [b("a"), b("c")];
  // Remote dropped a; local edited it. Local dropped c; remote edited it.
  const m = mergeParked(
    base,
    side([b("a", "- **a** — edited here.")]),
    side([b("c", "- **c** — edited there.")]),
    true,
  );
  assert.deepEqual(m.result, []);
  assert.deepEqual([...m.remove], ["a"]);
  assert.deepEqual(m.add, []);
});

Deno.test("parked: an edit on one side is taken; the same edit on both is one item", () => {
  const base = [b("a"), b("s")];
  const m = mergeParked(
    base,
    side([b("a"), b("s", "- **s** — same.")]),
    side([b("a", "- **a** — new."), b("s", "- **s** — same.")]),
    true,
  );
  assert.equal(m.replace.get("a"), "- **a** — new.");
  assert.equal(m.superseded.length, 0);
  assert.deepEqual(m.result.map((i) => i.text), ["- **a** — new.", "- **s** — same."]);
});

Deno.test("parked: edited differently on both sides keeps the newer edit and logs the other", () => {
  const base = [b("a")];
  const mine = b("a", "- **a** — mine.");
  const theirs = b("a", "- **a** — theirs.");
  const localNewer = mergeParked(base, side([mine]), side([theirs]), true);
  assert.deepEqual(localNewer.result, [mine]);
  assert.deepEqual(localNewer.superseded, [theirs]);
  const remoteNewer = mergeParked(base, side([mine]), side([theirs]), false);
  assert.equal(remoteNewer.replace.get("a"), theirs.text);
  assert.deepEqual(remoteNewer.superseded, [mine]);
});

Deno.test("parked: without a base nothing is removed but what the other log records", () => {
  const gone = b("gone");
  const m = mergeParked(
    undefined,
    side([b("a"), gone]),
    side([b("b")], [tombstoneKey(gone.slug, gone.text)]),
    true,
  );
  assert.deepEqual(m.result.map((i) => i.slug), ["a", "b"]);
  assert.deepEqual([...m.remove], ["gone"]);
  // A tombstone for other text (re-parked since) removes nothing.
  const again = mergeParked(
    undefined,
    side([b("x", "- **x** — new")]),
    side([], [tombstoneKey("x", "- **x** — old")]),
    true,
  );
  assert.deepEqual(again.result.map((i) => i.slug), ["x"]);
  // Remote items the local log dropped are not brought back.
  const back = mergeParked(
    undefined,
    side([], [tombstoneKey("y", "- **y** — y.")]),
    side([b("y")]),
    true,
  );
  assert.deepEqual(back.add, []);
});

Deno.test("parked: repeated slugs are keyed apart", () => {
  const keyed = keyBullets([{ slug: "x", text: "1" }, { slug: "y", text: "2" }, {
    slug: "x",
    text: "3",
  }]);
  assert.deepEqual(keyed.map((k) => k.key), ["x", "y", "x#2"]);
});

Deno.test("dropped.jsonl: tombstones and the union of lines", () => {
  const log = [
    JSON.stringify({ ts: "t", item: "a", action: "dropped", text: "- **a** — a." }),
    JSON.stringify({ ts: "t", item: "b", action: "superseded", text: "- **b** — b." }),
    "{torn",
  ].join("\n");
  assert.deepEqual([...tombstones(log)], [tombstoneKey("a", "- **a** — a.")]);
  assert.deepEqual(logLinesToAdd("one\ntwo\n", "two\r\nthree\n\nthree\n"), ["three"]);
});

Deno.test("handovers: a union by content, the same slug with other content renamed", () => {
  const target = [{ name: "a", key: "1" }, { name: "b", key: "2" }, {
    name: "b-from-bob-h",
    key: "9",
  }];
  const placed = placeDocs(
    target,
    [{ name: "a", key: "1" }, { name: "b", key: "3" }, { name: "c", key: "4" }, {
      name: "x",
      key: "2",
    }],
    () => "bob-h",
  );
  assert.deepEqual(placed, [{ from: "b", to: "b-from-bob-h-2" }, { from: "c", to: "c" }]);
});

Deno.test("handovers: consumed and from are personal, not content", () => {
  const doc = "---\nslug: a\ncreated: 2026-11-30T00:00:00Z\nconsumed: false\n---\n\n## Goal\nx\n";
  const read = doc.replace("consumed: false", "consumed: true");
  const sent = travelling(read, "alice@box, 2026-12-01T00:00:00Z");
  assert.equal(docKeyText(read), docKeyText(doc));
  assert.equal(docKeyText(sent), docKeyText(doc));
  const fields = splitFrontMatter(sent)!.fields;
  assert.equal(fields.from, "alice@box, 2026-12-01T00:00:00Z");
  assert.equal(fields.consumed, "false");
  // Already from somewhere: kept. No front matter: one holding only from.
  assert.equal(travelling(sent, "other@x, t"), sent);
  assert.equal(splitFrontMatter(travelling("## Goal\nx\n", "a@b, t"))!.fields.from, "a@b, t");
  assert.equal(docKeyText("no head"), "no head");
});
