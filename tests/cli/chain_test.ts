import assert from "node:assert/strict";
import { CLI_FLAGS } from "../../lib/agents/command.ts";
import { join } from "../../lib/fs/path.ts";
import { splitFrontMatter } from "../../lib/store/front_matter.ts";
import { readLatest } from "../../lib/store/latest.ts";
import type { Store } from "../../lib/store/store.ts";
import { isoStamp } from "../../lib/store/time.ts";
import { runCliInProcess, runProcess } from "../support/run.ts";
import { CLI, NOW, scratchProject } from "../support/scratch.ts";

const DAY = 24 * 3_600_000;

/** A handover `days` old naming `parent`, with its own goal and decision. */
async function put(
  store: Store,
  slug: string,
  days: number,
  parent?: string,
  extra = "",
): Promise<void> {
  const text =
    `---\nslug: ${slug}\ncreated: ${
      isoStamp(new Date(NOW.getTime() - days * DAY))
    }\nconsumed: false\nbranch: main\n${parent ? `parent: ${parent}\n` : ""}---\n\n` +
    `## Goal\n\nGoal of ${slug}.\n\n## Decisions\n\n- Decision of ${slug} — why: it mattered.\n` +
    `- Shared decision — why: carried forward.\n${extra}\n## Next step\n\nNext of ${slug}.\n`;
  await Deno.writeTextFile(join(store.dir, `${slug}.md`), text);
}

async function consumed(store: Store, slug: string): Promise<string | undefined> {
  return splitFrontMatter(await Deno.readTextFile(join(store.dir, `${slug}.md`)))!.fields.consumed;
}

Deno.test("list --tree", async (t) => {
  await t.step(
    "chains newest first, children under their parent, missing parents said",
    async () => {
      await using p = await scratchProject();
      await put(p.store, "a", 40); // expired: removed by this list
      await put(p.store, "b", 20, "a");
      await put(p.store, "c", 2, "b");
      await put(p.store, "c2", 1, "b");
      await put(p.store, "lone", 3);
      await put(p.store, "pulled-child", 0.5, "never-pulled");
      await Deno.writeTextFile(p.store.latest, "c2\n");
      const r = await runCliInProcess(["list", "--tree"], { cwd: p.root });
      assert.equal(r.code, 0, r.err);
      const tree = r.out.split("\n\n## Confidence")[0];
      assert.match(tree, /Removed 1 expired handover\(s\) \(over 30 days\): a/);
      assert.match(
        tree,
        new RegExp(
          [
            "Handovers \\(5\\) in 3 chains, newest first:",
            "",
            "never-pulled — not in this store \\(expired, or never pulled\\)",
            "└─ pulled-child — 12 h, main, not consumed",
            "a — expired \\(removed now\\)",
            "└─ ⚠ stale b — 20 d, main, not consumed",
            "   ├─ c2 \\(LATEST\\) — 24 h, main, not consumed",
            "   └─ c — 2 d, main, not consumed",
            "lone — 3 d, main, not consumed",
          ].join("\n"),
        ),
        tree,
      );
    },
  );

  await t.step("--json: each handover's parent, and the chains", async () => {
    await using p = await scratchProject();
    await put(p.store, "b", 2, "gone");
    await put(p.store, "c", 1, "b");
    const r = await runCliInProcess(["list", "--tree", "--json"], { cwd: p.root });
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(
      j.handovers.map((h: { slug: string; parent: string | null }) => [h.slug, h.parent]),
      [["c", "b"], ["b", "gone"]],
    );
    assert.deepEqual(j.chains, [
      {
        slug: "gone",
        missing: "absent",
        children: [{ slug: "b", children: [{ slug: "c", children: [] }] }],
      },
    ]);
    const plain = JSON.parse((await runCliInProcess(["list", "--json"], { cwd: p.root })).out);
    assert.equal(plain.chains, undefined, "chains only with --tree");
    assert.equal(plain.handovers[0].parent, "b");
  });

  await t.step("a cycle in hand-edited front matter: listed once each, no hang", async () => {
    await using p = await scratchProject();
    await put(p.store, "x", 1, "y");
    await put(p.store, "y", 2, "z");
    await put(p.store, "z", 3, "x");
    // As a process with a time limit: a walk in circles would never end.
    const r = await runProcess("timeout", [
      "20",
      Deno.execPath(),
      "run",
      ...CLI_FLAGS,
      CLI,
      "list",
      "--tree",
    ], {
      cwd: p.root,
      env: { PATH: Deno.env.get("PATH") ?? "", SESSION_NOW: isoStamp(NOW), HOME: p.root },
    });
    assert.equal(r.code, 0, r.stderr);
    for (const s of ["x", "y", "z"]) {
      assert.equal(r.stdout.match(new RegExp(`\\b${s} — `, "g"))?.length, 1, r.stdout);
    }
    assert.match(r.stdout, /a cycle in hand-edited front matter/);
  });
});

Deno.test("recall --chain", async (t) => {
  await t.step(
    "both goals, newest first, shared items once; only the named one consumed",
    async () => {
      await using p = await scratchProject();
      await put(p.store, "first", 2);
      await put(p.store, "second", 1, "first");
      await Deno.writeTextFile(p.store.latest, "second\n");
      const r = await runCliInProcess(["recall", "--chain"], { cwd: p.root });
      assert.equal(r.code, 0, r.err);
      const [story, block] = r.out.split("\n\n## Confidence\n");
      assert.ok(story.indexOf("Goal of second.") < story.indexOf("Goal of first."), story);
      assert.ok(story.includes("Decision of first"));
      assert.equal(story.match(/Shared decision/g)!.length, 1);
      assert.doesNotMatch(story, /Next of/);
      assert.match(
        block,
        /✓ chain: 2 handovers read, back to its first, 1 repeated item once, all whole/,
      );
      assert.match(block, /✓ consumed: marked consumed, and re-read so/);
      assert.equal(await consumed(p.store, "second"), "true");
      assert.equal(await consumed(p.store, "first"), "false", "an ancestor is not consumed");
      assert.equal(readLatest(p.store), undefined, "LATEST named it: cleared, as recall does");
    },
  );

  await t.step("a parent that expired or was never pulled is named as such", async () => {
    await using p = await scratchProject();
    await put(p.store, "orphan", 1, "long-gone");
    const r = await runCliInProcess(["recall", "orphan", "--chain"], { cwd: p.root });
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /Its parent "long-gone" is not in this store \(expired, or never pulled\)\./,
    );
    assert.match(r.out, /✓ chain: 1 handover read, up to `long-gone`, not in this store/);
  });

  await t.step("a cycle: each once, weak point, no hang", async () => {
    await using p = await scratchProject();
    await put(p.store, "x", 1, "y");
    await put(p.store, "y", 2, "x");
    const r = await runCliInProcess(["recall", "x", "--chain"], { cwd: p.root });
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.match(/Goal of y\./g)!.length, 1);
    assert.match(r.out, /⚠ chain: 2 handovers read, stopped at a cycle \(`x` again\)/);
  });

  await t.step("long ancestors: within the restore's budget, the oldest digested", async () => {
    await using p = await scratchProject();
    const long = (h: number) =>
      Array.from({ length: 30 }, (_, i) => `- Point ${i} of h${h} — why: ${"so ".repeat(30)}`)
        .join("\n");
    for (let i = 0; i < 12; i++) {
      const parent = i ? `h${i - 1}` : undefined;
      await put(p.store, `h${i}`, 12 - i, parent, `\n## Lessons\n\n${long(i)}\n`);
    }
    const r = await runCliInProcess(["recall", "h11", "--chain"], { cwd: p.root });
    assert.equal(r.code, 0, r.err);
    const story = r.out.split("\n\n## Confidence\n")[0];
    assert.ok(story.length <= 9_500, `${story.length}`);
    assert.match(story, /## Older handovers, one line each/);
    assert.match(story, /- h0 \(12 d ago\): Goal of h0\./);
    assert.match(r.out, /✓ chain: 12 handovers read, back to its first.*over 9,500 characters/);
  });
});
