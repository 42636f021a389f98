import assert from "node:assert/strict";
import {
  alnumWords,
  chooseSlug,
  MAX_SLUG_BYTES,
  NAMED_SLUG_MAX_BYTES,
  refusal,
  slugify,
  unnamedSlug,
} from "../../lib/store/slug.ts";
import { createFileAtomic, writeFileAtomic, writeFileAtomicSync } from "../../lib/fs/atomic.ts";
import { utf8Length } from "../../lib/text/bytes.ts";
import { isSafeSlug } from "../../lib/store/store.ts";
import { prng, textOf } from "../support/prng.ts";
import { scratchDir } from "../support/scratch.ts";

const NOW = new Date("2026-11-30T04:02:39Z");

Deno.test("slug", async (t) => {
  await t.step("slugify: lowercase, runs of non-alphanumerics to one -, trimmed", () => {
    assert.equal(slugify("Auth Refactor"), "auth-refactor");
    assert.equal(slugify("  --Fix: the   (flaky) test!!  "), "fix-the-flaky-test");
    assert.equal(slugify("v2.1_release"), "v2-1-release");
    assert.equal(slugify("Café Über"), "café-über");
    assert.equal(slugify("!!!"), "");
  });
  await t.step("unnamed: branch with / → -, then the UTC stamp", () => {
    assert.equal(unnamedSlug("feat/auth/x", NOW), "feat-auth-x-2026-11-30T04-02-39Z");
    assert.equal(unnamedSlug("main", NOW), "main-2026-11-30T04-02-39Z");
  });
  await t.step("unnamed without a branch: detached", () => {
    assert.equal(unnamedSlug("detached", NOW), "detached-2026-11-30T04-02-39Z");
    assert.equal(unnamedSlug("none", NOW), "detached-2026-11-30T04-02-39Z");
    assert.equal(unnamedSlug(undefined, NOW), "detached-2026-11-30T04-02-39Z");
  });
  await t.step("refusals: separators, .., reserved names, empty", () => {
    assert.match(refusal("a/b")!, /path separator/);
    assert.match(refusal("a\\b")!, /path separator/);
    assert.match(refusal("..")!, /"\.\."/);
    assert.match(refusal("x..y")!, /"\.\."/);
    for (const r of ["LATEST", "PARKED", "dropped", "latest", "Parked"]) {
      assert.match(refusal(r)!, /reserved/, r);
    }
    assert.match(refusal("")!, /no letters or digits/);
    assert.match(refusal("  ---  ")!, /no letters or digits/);
    assert.match(refusal("x".repeat(181))!, /too long/);
    assert.equal(refusal("x".repeat(180)), undefined);
    assert.equal(refusal("auth refactor"), undefined);
  });
  await t.step("collisions get -2, -3 unless forced", () => {
    const taken = new Set(["auth", "auth-2"]);
    const exists = (s: string) => taken.has(s);
    assert.deepEqual(chooseSlug({ name: "Auth", now: NOW, exists }), { slug: "auth-3" });
    assert.deepEqual(chooseSlug({ name: "Auth", now: NOW, exists, force: true }), { slug: "auth" });
    assert.deepEqual(chooseSlug({ name: "other", now: NOW, exists }), { slug: "other" });
    const stamp = "main-2026-11-30T04-02-39Z";
    assert.deepEqual(chooseSlug({ branch: "main", now: NOW, exists: (s) => s === stamp }), {
      slug: `${stamp}-2`,
    });
  });
  await t.step("a refused name is an error, not a slug", () => {
    const r = chooseSlug({ name: "../x", now: NOW, exists: () => false });
    assert.ok("error" in r);
  });
});

/** Characters of every width in UTF-8 (1–4 bytes), and one that NFKC expands to 18 characters. */
const ALPHABET = [
  "a",
  "Z",
  "7",
  " ",
  "-",
  ".",
  "_",
  "é",
  "ß",
  "日",
  "語",
  "😀",
  "\ufdfa",
  "/",
  ":",
];

Deno.test("slugs are bounded in bytes, from any name or branch", async (t) => {
  const next = prng(8);
  const int = (n: number) => Math.floor(next() * n);
  const text = (max: number) =>
    Array.from({ length: int(max) + 1 }, () => ALPHABET[int(ALPHABET.length)]).join("");
  await t.step("a name's slug fits, or the name is refused saying how to fix it", () => {
    for (let i = 0; i < 3_000; i++) {
      const name = text(i % 2 ? 40 : 200).replaceAll("/", "");
      const why = refusal(name);
      const slug = slugify(name);
      if (why !== undefined) {
        if (utf8Length(slug) > NAMED_SLUG_MAX_BYTES && !name.includes("..")) {
          assert.match(why, /give a shorter name/, name);
        }
        continue;
      }
      assert.ok(utf8Length(slug) <= NAMED_SLUG_MAX_BYTES, name);
      const taken = (s: string) => s === slug || s === `${slug}-2`;
      for (const force of [true, false]) {
        const c = chooseSlug({ name, now: NOW, force, exists: taken });
        assert.ok("slug" in c && isSafeSlug(c.slug), name);
        assert.ok(utf8Length(c.slug) <= MAX_SLUG_BYTES, c.slug);
      }
    }
  });
  await t.step("an unnamed slug is cut, never its stamp, and fits with any suffix", () => {
    for (let i = 0; i < 3_000; i++) {
      const branch = text(i % 2 ? 30 : 300);
      const s = unnamedSlug(branch, NOW);
      assert.ok(s.endsWith("-2026-11-30T04-02-39Z"), s);
      assert.ok(utf8Length(s) <= NAMED_SLUG_MAX_BYTES, `${utf8Length(s)} bytes: ${s}`);
      assert.ok(isSafeSlug(s), s);
      const c = chooseSlug({
        branch,
        now: NOW,
        exists: (x) => !x.endsWith(i % 500 ? "-12" : "-12345"),
      });
      assert.ok("slug" in c && utf8Length(c.slug) <= MAX_SLUG_BYTES && isSafeSlug(c.slug));
    }
  });
  await t.step("an 84 × 日 name (252 bytes) is refused; 60 fit", () => {
    assert.match(refusal("日".repeat(84))!, /252 bytes in UTF-8, at most 180/);
    assert.equal(refusal("日".repeat(60)), undefined);
  });
});

Deno.test("atomic writes to a name at the file-system limit: the temp name fits too", async () => {
  await using dirScratch = await scratchDir("session-name-max-");
  const dir = dirScratch.path;
  for (const slug of ["x".repeat(252), "日".repeat(84), "😀".repeat(63)]) {
    const path = `${dir}/${slug}.md`;
    writeFileAtomicSync(path, "a");
    await writeFileAtomic(path, "b");
    assert.equal(await Deno.readTextFile(path), "b");
    await Deno.remove(path);
    assert.equal(await createFileAtomic(path, "c"), true);
    assert.equal(await Deno.readTextFile(path), "c");
  }
  const left = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith("."));
  assert.deepEqual(left, [], "no temp file left behind");
});

Deno.test("slugify and alnumWords: the ASCII split gives the Unicode regexes' words", () => {
  // The readings before the ASCII path, verbatim: the oracles.
  const slugByRegexes = (name: string) =>
    name.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
  const wordsByRegexes = (text: string) =>
    text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim().split(" ").filter(Boolean);
  const pieces = (
    "Fix|the|PARSER|flaky-CI|v2|42|x_y|it's|--|-| |  |\t|\n|.|,|/|@|#|(|)|[|]|é|É|ß|日本|ｆｕｌｌ|" +
    "①|ﬁ|İ|Ⅻ|👍|\u00a0|\u200b|ǅ"
  ).split("|");
  const next = prng(120126);
  const seen = new Set<boolean>();
  for (let i = 0; i < 20_000; i++) {
    const text = textOf(next, pieces, 10);
    assert.equal(slugify(text), slugByRegexes(text), JSON.stringify(text));
    assert.deepEqual(alnumWords(text), wordsByRegexes(text), JSON.stringify(text));
    seen.add([...text].every((c) => c.charCodeAt(0) < 128));
  }
  assert.equal(seen.size, 2, "ASCII and not generated");
});
