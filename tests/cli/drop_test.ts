import assert from "node:assert/strict";
import { acquireLock } from "../../lib/fs/lock.ts";
import { matchParked } from "../../lib/parked/match.ts";
import { appendParked, upsertParked } from "../../lib/parked/edit.ts";
import { slugFromSummary } from "../../lib/parked/grammar.ts";
import { parseParked } from "../../lib/parked/scanner.ts";
import { editParked } from "../../lib/parked/file.ts";
import { DROP_ATTEMPTS, dropMatching, type Matcher } from "../../lib/parked/drop.ts";
import { join } from "../../lib/fs/path.ts";
import { storeAt } from "../../lib/store/store.ts";
import { FREED_WAIT_MS, put, scratchProject } from "../support/scratch.ts";
import { runCliInProcess, runCliProcess } from "../support/run.ts";
import { type DropFacts, dropPoints } from "../../lib/cli/drop.ts";

const PARKED = ".claude/state/session/PARKED.md";
const DROPPED = ".claude/state/session/dropped.jsonl";

const FILE = [
  "# Parked items",
  "",
  "- **fix-flaky-parser** — Fix the flaky parser test. Raised: 2026-11-20. Why: CI fails. Next: seed.",
  '- **quote-test** — Handle "quotes" and {braces} and \\ backslashes. Raised: 2026-11-21.',
  "- **fix-parser** — Fix parser crash on CRLF. Raised: 2026-11-22.",
  "  A second line of the same bullet.",
  "- **docs-install** — Document install on Windows. Raised: 2026-11-29.",
  "",
  "Hand-written notes stay.",
  "",
].join("\n");

async function read(root: string, rel: string): Promise<string> {
  return await Deno.readTextFile(join(root, rel));
}

Deno.test("drop: process-level", async (t) => {
  await using repo = await scratchProject({ git: "repo", store: false });
  const root = repo.root;
  await put(root, PARKED, FILE);
  await t.step("exact slug from a subdirectory: only that bullet goes, logged", async () => {
    await Deno.mkdir(join(root, "sub"));
    const r = await runCliProcess(["drop", "fix-parser"], { cwd: join(root, "sub") });
    assert.equal(r.code, 0, r.stderr);
    const [said, block] = r.stdout.split("\n\n## Confidence\n");
    assert.equal(said, "Dropped: fix-parser (3 open)");
    assert.equal(
      block,
      "✓ match: `fix-parser`, its exact slug\n" +
        "✓ removed: only `fix-parser`: PARKED.md re-read, 3 open\n" +
        "✓ audit: dropped.jsonl ends with `fix-parser`'s entry, full text kept\n",
    );
    assert.equal(
      await read(root, PARKED),
      FILE.replace(/- \*\*fix-parser\*\*.*\n.*\n/, ""),
    );
    const lines = (await read(root, DROPPED)).split("\n");
    assert.equal(lines.length, 2);
    assert.equal(lines[1], "");
    assert.deepEqual(JSON.parse(lines[0]), {
      ts: "2026-11-30T12:00:00Z",
      item: "fix-parser",
      action: "dropped",
      text:
        "- **fix-parser** — Fix parser crash on CRLF. Raised: 2026-11-22.\n  A second line of the same bullet.",
    });
  });
  await t.step("fuzzy, with a typo; quotes and braces stay valid JSON", async () => {
    const r = await runCliProcess(["drop", "handle", "qoutes"], { cwd: root });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^Dropped: quote-test \(2 open\)\n\n## Confidence\n✓ match: `quote-test`, the one closest item\n/,
    );
    const lines = (await read(root, DROPPED)).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    assert.equal(lines[1].text, FILE.split("\n")[3]);
  });
  await t.step("no match: exit 1 and the parked list, nothing changed", async () => {
    const before = await read(root, PARKED);
    const r = await runCliProcess(["drop", "kubernetes"], { cwd: root });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /No parked item matches "kubernetes"/);
    assert.match(r.stdout, /fix-flaky-parser — Fix the flaky parser test \(raised 2026-11-20\)/);
    assert.match(r.stdout, /docs-install/);
    assert.equal(await read(root, PARKED), before);
  });
  await t.step("words that look like flags are query words", async () => {
    const r = await runCliProcess(["drop", "--no-such-flag"], { cwd: root });
    assert.equal(r.code, 1, "a query, not an unknown flag (exit 2)");
  });
  await t.step("empty query: exit 2", async () => {
    for (const args of [["drop"], ["drop", " "], ["drop", "--"]]) {
      const r = await runCliProcess(args, { cwd: root });
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, /give words/);
    }
  });
  await t.step("--help exits 0", async () => {
    const r = await runCliProcess(["drop", "--help"], { cwd: root });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Usage: session.ts drop/);
  });
});

Deno.test("drop: ties exit 3 with the closest four; nothing dropped", async () => {
  await using repo = await scratchProject({ git: false, store: false });
  const bullets = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"].map((w, i) =>
    `- **${w}** — cache ${w} warmup. Raised: 2026-11-0${i + 1}.`
  );
  const text = `# Parked items\n\n${bullets.join("\n")}\n- **other** — unrelated\n`;
  await put(repo.root, PARKED, text);
  const r = await runCliProcess(["drop", "cache", "warmup"], { cwd: repo.root });
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /6 parked items match "cache warmup" equally closely/);
  const [candidates, block] = r.stdout.split("\n\n## Confidence\n");
  const listed = candidates.split("\n");
  assert.equal(listed.length, 4);
  assert.match(block, /^⚠ match: 6 items equally close: nothing dropped → give the exact slug/);
  assert.match(
    listed[0],
    /^ {2}1\. alpha — cache alpha warmup \(raised 2026-11-01\) \[0 edits\]$/,
  );
  assert.equal(await read(repo.root, PARKED), text);
  await assert.rejects(Deno.stat(join(repo.root, DROPPED)));
});

Deno.test("drop: no PARKED.md at all: exit 1", async () => {
  await using repo = await scratchProject({ git: false, store: false });
  const r = await runCliProcess(["drop", "anything"], { cwd: repo.root });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /No parked items/);
  await assert.rejects(Deno.stat(join(repo.root, ".claude")), "no store created");
});

Deno.test("drop: racing park loses neither", async () => {
  await using repo = await scratchProject({ git: false, store: false });
  const old = Array.from({ length: 10 }, (_, i) => `- **old-${i}** — old item ${i}.`);
  await put(repo.root, PARKED, `# Parked items\n\n${old.join("\n")}\n`);
  const runs = await Promise.all(
    Array.from({ length: 10 }, (_, i) => [
      runCliProcess(["drop", `old-${i}`], { cwd: repo.root }),
      runCliProcess(["park", `new parked thing ${i}`], { cwd: repo.root }),
    ]).flat(),
  );
  for (const r of runs) assert.equal(r.code, 0, r.stderr);
  const items = parseParked(await read(repo.root, PARKED)).items;
  assert.deepEqual(
    items.map((i) => i.slug).sort(),
    Array.from({ length: 10 }, (_, i) => `new-parked-thing-${i}`).sort(),
  );
  const log = (await read(repo.root, DROPPED)).trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(
    log.map((e) => e.item).sort(),
    Array.from({ length: 10 }, (_, i) => `old-${i}`).sort(),
  );
});

Deno.test("drop: in-process", async (t) => {
  await using repo = await scratchProject({ git: false, store: false });
  await t.step(
    "CRLF file keeps CRLF; a log without final newline is extended cleanly",
    async () => {
      const text = "# Parked items\r\n\r\n- **a** — A.\r\n- **b** — B.\r\n";
      await put(repo.root, PARKED, text);
      await put(repo.root, DROPPED, '{"ts":"x","item":"z","action":"dropped","text":"z"}');
      const r = await runCliInProcess(["drop", "a"], { cwd: repo.root });
      assert.equal(r.code, 0, r.err);
      assert.equal(await read(repo.root, PARKED), "# Parked items\r\n\r\n- **b** — B.\r\n");
      const lines = (await read(repo.root, DROPPED)).split("\n");
      assert.equal(lines.length, 3);
      assert.equal(JSON.parse(lines[1]).item, "a");
    },
  );
  await t.step("duplicate slugs (hand-edited): the summary picks the right bullet", async () => {
    await put(repo.root, PARKED, "- **d** — apples\n- **d** — oranges\n");
    const r = await runCliInProcess(["drop", "oranges"], { cwd: repo.root });
    assert.equal(r.code, 0, r.err);
    assert.equal(await read(repo.root, PARKED), "- **d** — apples\n");
    const tie = await runCliInProcess(["drop", "d"], { cwd: repo.root });
    assert.equal(tie.code, 0, "one exact slug left");
  });
});

Deno.test("drop: a fuzzy match runs outside the PARKED.md lock", async (t) => {
  await using repo = await scratchProject({ git: false, store: false });
  const store = storeAt(repo.root);
  const TS = "2026-11-30T12:00:00Z";
  const BASE = "# Parked items\n\n- **a** — apples. Raised: 2026-11-01.\n" +
    "- **o** — oranges. Raised: 2026-11-01.\n  a note\n";
  const park = (summary: string) =>
    editParked(store, (doc) => {
      const r = appendParked(doc, { slug: slugFromSummary(summary), summary });
      return { doc: r.doc, result: r.item.slug };
    });
  await t.step(
    "while matching, the lock is free and a park goes through and is kept",
    async () => {
      await put(repo.root, PARKED, BASE);
      const during: Matcher = async (items, query) => {
        // Held by the drop, this would time out.
        (await acquireLock(store.parked, { waitMs: FREED_WAIT_MS })).release();
        assert.equal(await park("pears while dropping"), "pears-while-dropping");
        return await matchParked(items, query);
      };
      const out = await dropMatching(store, "orangs", TS, during);
      assert.equal(out.kind, "dropped");
      assert.equal(
        await read(repo.root, PARKED),
        "# Parked items\n\n- **a** — apples. Raised: 2026-11-01.\n" +
          "- **pears-while-dropping** — pears while dropping.\n",
      );
      const log = JSON.parse((await read(repo.root, DROPPED)).trimEnd().split("\n").at(-1)!);
      assert.equal(log.text, "- **o** — oranges. Raised: 2026-11-01.\n  a note");
    },
  );
  await t.step(
    "a chosen bullet changed meanwhile is matched again, never removed blind",
    async () => {
      await put(repo.root, PARKED, BASE);
      let calls = 0;
      const editing: Matcher = async (items, query) => {
        // The first time, another session rewrites the bullet this match is about to choose.
        if (calls++ === 0) {
          await editParked(store, (doc) => ({
            doc: upsertParked(doc, { slug: "o", summary: "oranges, ripe" }).doc,
            result: 0,
          }));
        }
        return await matchParked(items, query);
      };
      const out = await dropMatching(store, "orangs", TS, editing);
      assert.equal(calls, 2);
      assert.equal(out.kind, "dropped");
      const log = JSON.parse((await read(repo.root, DROPPED)).trimEnd().split("\n").at(-1)!);
      assert.equal(log.text, "- **o** — oranges, ripe. Raised: 2026-11-01.\n  a note");
      assert.equal(
        await read(repo.root, PARKED),
        "# Parked items\n\n- **a** — apples. Raised: 2026-11-01.\n",
      );
    },
  );
  await t.step("a bullet that changes under every attempt is left in place", async () => {
    await put(repo.root, PARKED, BASE);
    let n = 0;
    const churning: Matcher = async (items, query) => {
      const r = await matchParked(items, query);
      await editParked(store, (doc) => ({
        doc: upsertParked(doc, { slug: "o", summary: `oranges ${n++}` }).doc,
        result: 0,
      }));
      return r;
    };
    const out = await dropMatching(store, "orangs", TS, churning);
    assert.equal(out.kind, "changed");
    assert.equal(n, DROP_ATTEMPTS);
    assert.match(await read(repo.root, PARKED), /- \*\*o\*\* — oranges 2\. .*\n {2}a note\n$/);
  });
});

Deno.test("drop: a 6,000-character query over 10,000 items never costs a concurrent park", async () => {
  await using repo = await scratchProject({ git: false, store: false });
  const items = Array.from(
    { length: 10_000 },
    (_, i) => `- **item-${i}** — fix the flaky parser case ${i}. Raised: 2026-11-01.`,
  );
  await put(repo.root, PARKED, `# Parked items\n\n${items.join("\n")}\n`);
  // Distinct words, as a pasted log would have: each one is a search over every item.
  const query = Array.from({ length: 1_000 }, (_, i) => `parser${i}`).join(" ").slice(0, 6_000);
  const started = performance.now();
  const drop = runCliProcess(["drop", query], { cwd: repo.root });
  await new Promise((r) => setTimeout(r, 300));
  const park = await runCliProcess(["park", "parked while dropping"], { cwd: repo.root });
  assert.equal(park.code, 0, park.stderr);
  const dropped = await drop;
  assert.equal(dropped.code, 2, "refused as too long");
  assert.match(dropped.stderr, /the query has \d{4} characters; at most 200/);
  assert.ok(performance.now() - started < 20_000);
  const after = parseParked(await read(repo.root, PARKED));
  assert.equal(after.count, 10_001);
  assert.equal(after.items.at(-1)?.slug, "parked-while-dropping");
});

Deno.test("drop's points flip between ✓ and ⚠ with the facts", async (t) => {
  const item = parseParked("- **flaky** — Flaky CI. Raised: 2026-11-29.").items[0];
  const ts = "2026-11-30T12:00:00Z";
  const good: DropFacts = {
    outcome: { kind: "dropped", item, open: 2, redacted: {} },
    query: "flaky",
    after: { open: 2, gone: true },
    logged: { ts, item: "flaky", action: "dropped" },
    ts,
  };
  const scores = (f: DropFacts) => dropPoints(f).map((p) => `${p.ok ? "✓" : "⚠"} ${p.name}`);
  await t.step("exact slug, only it gone, its entry last: ✓ each", () => {
    assert.deepEqual(scores(good), ["✓ match", "✓ removed", "✓ audit"]);
    assert.equal(
      dropPoints({ ...good, query: "flaky ci" })[0].fact,
      "`flaky`, the one closest item",
    );
  });
  await t.step("match: a tie, no match, nothing parked: ⚠, nothing removed", () => {
    for (
      const outcome of [{ kind: "none", items: [] }, { kind: "empty" }] as DropFacts["outcome"][]
    ) {
      assert.deepEqual(scores({ ...good, outcome }), ["⚠ match", "✓ removed", "✓ audit"]);
    }
  });
  await t.step("removed: the bullet still there, or another count on re-read: ⚠", () => {
    assert.equal(dropPoints({ ...good, after: { open: 2, gone: false } })[1].ok, false);
    const other = dropPoints({ ...good, after: { open: 3, gone: true } })[1];
    assert.deepEqual([other.ok, other.fact], [
      false,
      "PARKED.md re-read: 3 open, not the 2 the drop left (another edit since)",
    ]);
    assert.equal(dropPoints({ ...good, after: undefined })[1].ok, false);
  });
  await t.step("audit: another drop's line last, or no line: ⚠", () => {
    assert.equal(dropPoints({ ...good, logged: { ...good.logged, item: "x" } })[2].ok, false);
    assert.equal(dropPoints({ ...good, logged: { ...good.logged, ts: "then" } })[2].ok, false);
    assert.equal(dropPoints({ ...good, logged: undefined })[2].ok, false);
  });
  await t.step("through the CLI: a dropped.jsonl that does not end in JSON is ⚠", async () => {
    await using repo = await scratchProject({ git: false, store: false });
    await put(repo.root, PARKED, "# Parked items\n\n- **a** — A.\n- **b** — B.\n");
    const r = await runCliInProcess(["drop", "a"], { cwd: repo.root });
    assert.match(r.out, /\n✓ audit: dropped\.jsonl ends with `a`'s entry/);
    // A log whose last line a hand edit broke: the next drop appends after it, so it is fine;
    // what the audit point reads is the line this drop wrote.
    await Deno.writeTextFile(join(repo.root, DROPPED), "{broken\n", { append: true });
    const again = await runCliInProcess(["drop", "b"], { cwd: repo.root });
    assert.match(again.out, /\n✓ audit: dropped\.jsonl ends with `b`'s entry/);
  });
});
