import assert from "node:assert/strict";
import { join } from "../../lib/fs/path.ts";
import { runCliInProcess } from "../support/run.ts";
import { scratchProject, writeDoc } from "../support/scratch.ts";

/** A GitHub token of the shape the redaction knows, built so no scanner flags this file. */
const TOKEN = ["ghp", "_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"].join("");

Deno.test("search", async (t) => {
  await t.step(
    "handover sections, parked and dropped items; slug, section, line, age",
    async () => {
      await using p = await scratchProject();
      await writeDoc(p.store, "uploads", {
        created: "2026-11-28T12:00:00Z",
        body:
          "## Goal\n\nMake uploads retry.\n\n## Decisions\n\n- Retry policy: backoff — why: limits.\n",
      });
      await Deno.writeTextFile(
        p.store.parked,
        "# Parked items\n\n- **webhook-retry** — Retry policy for webhooks. Raised: 2026-11-20.\n",
      );
      await Deno.writeTextFile(
        p.store.dropped,
        JSON.stringify({
          ts: "2026-11-29T12:00:00Z",
          item: "old-retry",
          action: "dropped",
          text: "- **old-retry** — The retry policy we dropped. Raised: 2026-11-01.",
        }) + "\nnot json\n",
      );
      const r = await runCliInProcess(["search", "retry", "policy"], { cwd: p.root });
      assert.equal(r.code, 0, r.err);
      const [list, block] = r.out.split("\n\n## Confidence\n");
      assert.equal(
        list,
        [
          'Search "retry policy": 3 matches (3 exact, 0 fuzzy) in 1 handover, 1 parked item and ' +
          "1 dropped item, best first:",
          "",
          "1. dropped item old-retry · 24 h ago",
          "   - **old-retry** — The retry policy we dropped. Raised: 2026-11-01.",
          "2. uploads · Decisions · 2 d ago",
          "   - Retry policy: backoff — why: limits.",
          "3. parked item webhook-retry · 10 d ago",
          "   - **webhook-retry** — Retry policy for webhooks. Raised: 2026-11-20.",
        ].join("\n"),
      );
      assert.match(block, /✓ documents: every one of 1 handover read/);
      assert.match(block, /⚠ items: 1 dropped\.jsonl line not an entry → fix the file named/);
      assert.match(block, /✓ ranking: 3 exact \(every word whole\) before 0 fuzzy/);
    },
  );

  await t.step("--json: the documented shape, every match", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "a", { body: "## Goal\n\nThe retry policy.\n" });
    await writeDoc(p.store, "b", { body: "## Goal\n\nThe retrying policies.\n", latest: false });
    const r = await runCliInProcess(["search", "retry", "policy", "--json"], { cwd: p.root });
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(Object.keys(j), ["query", "words", "searched", "matches", "confidence"]);
    assert.deepEqual(j.searched, { handovers: 2, parked: 0, dropped: 0 });
    assert.deepEqual(j.words, ["retry", "policy"]);
    assert.deepEqual(j.matches[0], {
      kind: "handover",
      slug: "a",
      section: "Goal",
      line: "The retry policy.",
      match: "exact",
      distance: 0,
      date: "2026-11-30T12:00:00Z",
      age: "just now",
      ageMs: 0,
    });
    assert.equal(j.matches[1].slug, "b");
    assert.equal(j.matches[1].match, "fuzzy");
    assert.deepEqual(Object.keys(j.confidence[0]), ["name", "ok", "fact"]);
  });

  await t.step("a secret in a matching line is redacted, text and --json", async () => {
    await using p = await scratchProject();
    // Hand-edited: the store holds the secret itself (dump would have redacted it).
    await writeDoc(p.store, "leaky", {
      body: `## Decisions\n\n- Deploy token ${TOKEN} — why: ci.\n`,
    });
    for (const args of [["search", "deploy", "token"], ["search", "deploy", "--json"]]) {
      const r = await runCliInProcess(args, { cwd: p.root });
      assert.equal(r.code, 0, r.err);
      assert.ok(!r.out.includes(TOKEN), r.out);
      assert.match(r.out, /\[redacted:github-token\]/);
    }
  });

  await t.step("nothing matches: the Confidence block, then exit 1 saying so", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "a");
    const r = await runCliInProcess(["search", "zebra"], { cwd: p.root });
    assert.equal(r.code, 1);
    assert.match(r.out, /^\n## Confidence\n/);
    assert.match(
      r.err,
      /nothing matches "zebra" in 1 handover, 0 parked items and 0 dropped items/,
    );
    const j = await runCliInProcess(["search", "zebra", "--json"], { cwd: p.root });
    assert.equal(j.code, 1);
    assert.deepEqual(JSON.parse(j.out).matches, []);
  });

  await t.step("usage: no words, too many, an unknown flag", async () => {
    await using p = await scratchProject();
    for (
      const [args, message] of [
        [["search"], /give the words to search for/],
        [["search", "--", "the"], /give the words|nothing matches/],
        [["search", ..."a b c d e f g h i j".split(" ").map((w) => `${w}word`)], /at most 8/],
        [["search", "x", "--bogus"], /unknown flag "--bogus"/],
      ] as [string[], RegExp][]
    ) {
      const r = await runCliInProcess(args, { cwd: p.root });
      assert.match(r.err, message, args.join(" "));
      assert.ok(r.code === 2 || r.code === 1, `${args.join(" ")}: ${r.code}`);
    }
  });

  await t.step("an unreadable document is named in the Confidence block", async () => {
    await using p = await scratchProject();
    await writeDoc(p.store, "good", { body: "## Goal\n\nRetry.\n" });
    await Deno.writeFile(join(p.store.dir, "bad.md"), new Uint8Array([0xff, 0xfe, 0x00]));
    const r = await runCliInProcess(["search", "retry"], { cwd: p.root });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /⚠ documents: 1 of 2 handovers read; unreadable: `bad`/);
  });
});
