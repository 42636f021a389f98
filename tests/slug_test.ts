import assert from "node:assert/strict";
import { chooseSlug, refusal, slugify, unnamedSlug } from "../lib/slug.ts";

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
    assert.match(refusal("x".repeat(121))!, /too long/);
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
