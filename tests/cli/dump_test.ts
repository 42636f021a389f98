import assert from "node:assert/strict";
import { splitFrontMatter } from "../../lib/store/front_matter.ts";
import { join } from "../../lib/fs/path.ts";
import { readLatest } from "../../lib/store/latest.ts";
import { storeAt } from "../../lib/store/store.ts";
import { DOCS_LOCK, git, NOW, put, scratchProject } from "../support/scratch.ts";
import { clearPayload, runCliInProcess, runCliProcess } from "../support/run.ts";
import { DEFAULT_OPTIONS } from "../../lib/hook/input.ts";
import { answer } from "../../lib/hook/answer.ts";
import { MAX_SLUG_BYTES } from "../../lib/store/slug.ts";
import { prng } from "../support/prng.ts";

const BODY = [
  "## Goal",
  "",
  "Ship the login page.",
  "",
  "## Next step",
  "",
  "Run the e2e suite, then open the PR.",
  "",
  "## Decisions",
  "",
  "- Sessions in cookies — why: the API is same-origin.",
  "- No CSRF tokens yet — why: no forms post cross-site.",
  "",
  "## Standing instructions",
  "",
  "",
  "## Notes from the agent",
  "",
  "Keep this.",
  "",
].join("\n");

async function listStore(root: string): Promise<string[]> {
  const out: string[] = [];
  try {
    // The docs lock (lib/fs/lock.ts) is the store's own, not a handover.
    for await (const e of Deno.readDir(storeAt(root).dir)) {
      if (e.name !== DOCS_LOCK) out.push(e.name);
    }
  } catch { /* no store */ }
  return out.sort();
}

Deno.test("dump", async (t) => {
  await t.step(
    "writes the document (front matter, SPEC order) then LATEST; /clear last",
    async () => {
      await using p = await scratchProject({ git: "repo", branch: "feat/login", store: false });
      await put(p.root, "a.ts", "a\n");
      await git(p.root, ["add", "."]);
      await git(p.root, ["commit", "-qm", "a"]);
      await put(p.root, "a.ts", "a\nb\n");
      await put(p.root, "src/new.ts", "n\n");
      const r = await runCliInProcess(["dump", "Login Page"], { cwd: p.root, stdin: BODY });
      assert.equal(r.code, 0, r.err);
      const path = join(storeAt(p.root).dir, "login-page.md");
      const text = await Deno.readTextFile(path);
      const split = splitFrontMatter(text)!;
      assert.deepEqual(split.fields, {
        slug: "login-page",
        created: "2026-11-30T12:00:00Z",
        consumed: "false",
        branch: "feat/login",
      });
      const titles = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
      assert.deepEqual(titles, [
        "Goal",
        "Decisions",
        "Files touched",
        "Next step",
        "Notes from the agent",
        "Dropped deliberately",
      ]);
      assert.match(
        text,
        /## Dropped deliberately\n\nImplementation detail, tool output and the exploration transcript[^\n]*\n$/,
      );
      assert.ok(text.includes("| `a.ts` | +1/-0 | wip |"));
      assert.ok(text.includes("| `src/new.ts` | uncommitted-new | wip | uncommitted |"));
      assert.equal(readLatest(storeAt(p.root)), "login-page");
      const lines = r.out.split("\n");
      assert.equal(lines.at(-1), "/clear");
      assert.ok(lines.includes(`Wrote ${path}`));
      assert.ok(lines.includes("Counts: 2 files, 2 decisions, 0 outstanding"));
      assert.ok(lines.includes("Next step: Run the e2e suite, then open the PR."));
      assert.match(r.out, /Size: \d+ lines, ~\d+ tokens/);
      assert.ok(!r.out.includes("Over the cap"));
    },
  );
  await t.step("unnamed: <branch>-<stamp>; a collision gets -2, --force overwrites", async () => {
    await using p = await scratchProject({ git: "repo", branch: "fix/a/b", store: false });
    assert.equal((await runCliInProcess(["dump"], { cwd: p.root, stdin: BODY })).code, 0);
    assert.equal((await runCliInProcess(["dump"], { cwd: p.root, stdin: BODY })).code, 0);
    assert.equal((await runCliInProcess(["dump", "x"], { cwd: p.root, stdin: BODY })).code, 0);
    assert.equal((await runCliInProcess(["dump", "X"], { cwd: p.root, stdin: BODY })).code, 0);
    assert.equal((await runCliInProcess(["dump", "x"], { cwd: p.root, stdin: BODY })).code, 0);
    const forced = await runCliInProcess(["dump", "x", "--force"], {
      cwd: p.root,
      stdin: "## Goal\n\nNew.\n",
    });
    assert.equal(forced.code, 0);
    assert.deepEqual(await listStore(p.root), [
      "LATEST",
      "fix-a-b-2026-11-30T12-00-00Z-2.md",
      "fix-a-b-2026-11-30T12-00-00Z.md",
      "x-2.md",
      "x-3.md",
      "x.md",
    ]);
    assert.match(await Deno.readTextFile(join(storeAt(p.root).dir, "x.md")), /New\./);
    assert.equal(readLatest(storeAt(p.root)), "x");
  });
  await t.step("outside git: branch none, slug detached-<stamp>, no files table", async () => {
    await using p = await scratchProject({ git: false, store: false });
    const r = await runCliInProcess(["dump"], { cwd: p.root, stdin: BODY });
    assert.equal(r.code, 0, r.err);
    const text = await Deno.readTextFile(
      join(storeAt(p.root).dir, "detached-2026-11-30T12-00-00Z.md"),
    );
    assert.match(text, /^branch: none$/m);
    assert.ok(!text.includes("## Files touched"));
    assert.ok(r.out.includes("Counts: 0 files, 2 decisions, 0 outstanding"));
  });
  await t.step("refusals exit 2 and write nothing", async () => {
    await using p = await scratchProject({ git: false, store: false });
    for (
      const [args, stdin, pattern] of [
        [["dump"], "", /nothing on stdin/],
        [["dump"], " \n\t\n", /nothing on stdin/],
        [["dump"], "---\nslug: x\n---\n\n", /nothing on stdin/],
        [["dump"], "## Goal\n\0\0", /binary/],
        [["dump", "a/b"], BODY, /path separator/],
        [["dump", "../up"], BODY, /path separator/],
        [["dump", "x..y"], BODY, /"\.\."/],
        [["dump", "LATEST"], BODY, /reserved/],
        [["dump", "PARKED"], BODY, /reserved/],
        [["dump", "dropped"], BODY, /reserved/],
        [["dump", "!!!"], BODY, /no letters or digits/],
        [["dump", "a", "b"], BODY, /at most 1 word/],
        [["dump", "--json"], BODY, /unknown flag "--json"/],
      ] as [string[], string, RegExp][]
    ) {
      const r = await runCliInProcess(args, { cwd: p.root, stdin });
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assert.match(r.err, pattern, args.join(" "));
    }
    assert.deepEqual(await listStore(p.root), []);
  });
  await t.step(
    "the agent's table is merged: its Change/State kept, missing Ref filled",
    async () => {
      await using p = await scratchProject({ git: "repo", store: false });
      await put(p.root, "lib/a.ts", "a\n");
      await put(p.root, "lib/b.ts", "b\n");
      const body = BODY +
        "\n## Files touched\n\n| File | Change | State | Ref |\n|---|---|---|---|\n" +
        "| `lib/a.ts` | parser rewrite | needs-test | |\n";
      assert.equal((await runCliInProcess(["dump", "m"], { cwd: p.root, stdin: body })).code, 0);
      const text = await Deno.readTextFile(join(storeAt(p.root).dir, "m.md"));
      assert.ok(text.includes("| `lib/a.ts` | parser rewrite | needs-test | uncommitted |"));
      assert.ok(text.includes("| `lib/b.ts` | uncommitted-new | wip | uncommitted |"));
      assert.equal(text.match(/lib\/a\.ts/g)!.length, 1);
    },
  );
  await t.step("open parked items are copied into Outstanding; PARKED.md untouched", async () => {
    await using p = await scratchProject({ git: false, store: false });
    const parked = "# Parked items\n\n- **flaky-ci** — CI flakes on macOS. Raised: 2026-11-29. " +
      "Why: timing. Next: add retries.\n- **docs** — Write docs. Raised: 2026-11-30.\n";
    await put(p.root, ".claude/state/session/PARKED.md", parked);
    const body = BODY + "\n## Outstanding\n\n- **docs** — Write the README first. Why: users.\n";
    const r = await runCliInProcess(["dump", "o"], { cwd: p.root, stdin: body });
    assert.equal(r.code, 0, r.err);
    const text = await Deno.readTextFile(join(storeAt(p.root).dir, "o.md"));
    const outstanding = text.split("## Outstanding\n\n")[1].split("\n\n")[0];
    assert.equal(
      outstanding,
      "- **docs** — Write the README first. Why: users.\n" +
        "- **flaky-ci** — CI flakes on macOS. Raised: 2026-11-29. Why: timing. Next: add retries.",
    );
    assert.ok(r.out.includes("Counts: 0 files, 2 decisions, 2 outstanding"));
    assert.equal(await Deno.readTextFile(storeAt(p.root).parked), parked);
  });
  await t.step("over the cap: still written; the overage and largest sections named", async () => {
    await using p = await scratchProject({ git: false, store: false });
    const big = BODY + "\n## Lessons / corrections\n\n" +
      Array.from({ length: 90 }, (_, i) => `- lesson ${i}: ${"x".repeat(60)}`).join("\n") + "\n";
    const r = await runCliInProcess(["dump", "big"], { cwd: p.root, stdin: big });
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /Over the cap: \d+ lines over 75, ~[\d,]+ tokens over 1,500\. Written anyway; largest sections: Lessons \/ corrections \(90 lines/,
    );
    assert.equal(r.out.split("\n").at(-1), "/clear");
    assert.ok((await listStore(p.root)).includes("big.md"));
  });
  await t.step(
    "a pasted front matter is dropped; CRLF input parses; missing sections named",
    async () => {
      await using p = await scratchProject({ git: false, store: false });
      const stdin = "---\nslug: evil\nconsumed: true\n---\r\n## Goal\r\n\r\nG.\r\n";
      const r = await runCliInProcess(["dump", "f"], { cwd: p.root, stdin });
      assert.equal(r.code, 0, r.err);
      const text = await Deno.readTextFile(join(storeAt(p.root).dir, "f.md"));
      assert.match(text, /^---\nslug: f\n/);
      assert.equal(text.match(/^---$/gm)!.length, 2);
      assert.match(text, /consumed: false/);
      assert.match(r.out, /Missing: ## Next step/);
    },
  );
  await t.step(
    "a body that opens with a rule and a `key: value` line keeps every line",
    async () => {
      await using p = await scratchProject({ git: false, store: false });
      for (
        const [i, stdin] of [
          "---\nNote: the CI is red\n---\n## Goal\n\nKeep this.\n",
          "---\r\nWarning: x\r\nMore: y\r\n---\r\n## Goal\r\n\r\nKeep this.\r\n",
          "---\nslug: mine\nNote: ours and not\n---\n## Goal\n\nKeep this.\n",
        ].entries()
      ) {
        const r = await runCliInProcess(["dump", `r${i}`], { cwd: p.root, stdin });
        assert.equal(r.code, 0, r.err);
        const text = await Deno.readTextFile(join(storeAt(p.root).dir, `r${i}.md`));
        const body = splitFrontMatter(text)!.body;
        for (const line of stdin.split(/\r?\n/).filter((l) => l !== "")) {
          assert.ok(
            body.includes(line),
            `${JSON.stringify(line)} lost from ${JSON.stringify(text)}`,
          );
        }
        const recalled = await runCliInProcess(["recall", `r${i}`], { cwd: p.root });
        assert.match(recalled.out, /Note: |Warning: x/);
      }
    },
  );
  await t.step(
    "as a process from a subdirectory: the store at the git top, /clear last",
    async () => {
      await using p = await scratchProject({ git: "repo", store: false });
      await Deno.mkdir(join(p.root, "deep/er"), { recursive: true });
      const r = await runCliProcess(["dump", "proc"], {
        cwd: join(p.root, "deep/er"),
        stdin: BODY,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trimEnd().split("\n").at(-1), "/clear");
      await Deno.stat(join(storeAt(p.root).dir, "proc.md"));
      await assert.rejects(Deno.stat(join(p.root, "deep/er/.claude")));
      const empty = await runCliProcess(["dump"], { cwd: p.root, stdin: "" });
      assert.equal(empty.code, 2);
      assert.match(empty.stderr, /nothing on stdin/);
      assert.ok(!empty.stderr.includes("    at "), "no stack trace");
    },
  );
  await t.step("the pinned clock is used for created", async () => {
    await using p = await scratchProject({ git: false, store: false });
    const now = new Date("2027-01-02T03:04:05Z");
    await runCliInProcess(["dump", "c"], { cwd: p.root, stdin: BODY, now });
    assert.match(
      await Deno.readTextFile(join(storeAt(p.root).dir, "c.md")),
      /created: 2027-01-02T03:04:05Z/,
    );
    assert.notEqual(NOW.getTime(), now.getTime());
  });
});

Deno.test("dump: copied open items", async (t) => {
  const { copiedItems, MAX_COPIED } = await import("../../lib/handover/write.ts");
  const item = (slug: string, source: "parked" | "task") => ({
    slug,
    text: `**${slug}** — x.`,
    source,
  });
  await t.step("tasks first, then parked; all when few", () => {
    assert.equal(
      copiedItems([item("p", "parked"), item("t", "task")]),
      "- **t** — x.\n- **p** — x.",
    );
  });
  await t.step("over the limit: the rest are counted, never silently cut", () => {
    const many = Array.from({ length: MAX_COPIED + 3 }, (_, i) => item(`p${i}`, "parked"));
    const lines = copiedItems(many).split("\n");
    assert.equal(lines.length, MAX_COPIED + 1);
    assert.equal(
      lines.at(-1),
      "(… and 3 more open items: `session.ts list` shows every parked one.)",
    );
  });
  await t.step("through dump: 40 parked items, 25 copied, PARKED.md keeps all", async () => {
    await using p = await scratchProject({ git: false, store: false });
    const bullets = Array.from(
      { length: 40 },
      (_, i) => `- **item-${i}** — Thing ${i}. Raised: 2026-11-29.`,
    );
    const parked = `# Parked items\n\n${bullets.join("\n")}\n`;
    await put(p.root, ".claude/state/session/PARKED.md", parked);
    const r = await runCliInProcess(["dump", "many"], { cwd: p.root, stdin: BODY });
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.includes("Counts: 0 files, 2 decisions, 25 outstanding"), r.out);
    const text = await Deno.readTextFile(join(storeAt(p.root).dir, "many.md"));
    assert.ok(text.includes("(… and 15 more open items"));
    assert.equal(await Deno.readTextFile(storeAt(p.root).parked), parked);
  });
});

/** Name and branch pieces of every UTF-8 width, an NFKC expansion, and git's separators. */
const PIECES = [
  "a",
  "Q",
  "9",
  "_",
  "-",
  "é",
  "日",
  "😀",
  "\ufdfa",
  "x".repeat(40),
  "日".repeat(20),
];

Deno.test("every document dump writes, from any name or branch, is listed, restored, recalled", async () => {
  const next = prng(88);
  const int = (n: number) => Math.floor(next() * n);
  const word = (n: number) => Array.from({ length: n }, () => PIECES[int(PIECES.length)]).join("");
  let written = 0;
  for (let i = 0; i < 24; i++) {
    const named = i % 2 === 0;
    // Branches: components git takes, up to ~300 bytes in all; names: up to ~120 pieces.
    const branch = Array.from({ length: 1 + int(4) }, () => `b${word(1 + int(6))}`).join("/");
    const checked = await new Deno.Command("git", {
      args: ["check-ref-format", "--branch", branch],
      stdout: "null",
      stderr: "null",
    }).output();
    await using p = await scratchProject({
      git: "repo",
      branch: checked.success ? branch : "main",
      store: false,
    });
    const name = named ? word(1 + int(i < 12 ? 8 : 30)) : undefined;
    const r = await runCliInProcess(["dump", ...(name === undefined ? [] : [name])], {
      cwd: p.root,
      stdin: BODY,
    });
    if (r.code === 2) {
      assert.match(r.err, /too long.*give a shorter name/, r.err);
      assert.deepEqual(await listStore(p.root), [], "a refused name writes nothing");
      continue;
    }
    assert.equal(r.code, 0, `${name ?? branch}: ${r.err}`);
    written++;
    const store = storeAt(p.root);
    const slug = readLatest(store)!;
    assert.ok(new TextEncoder().encode(slug).length <= MAX_SLUG_BYTES, slug);
    const listed = await runCliInProcess(["list", "--json"], { cwd: p.root });
    assert.deepEqual(JSON.parse(listed.out).handovers.map((h: { slug: string }) => h.slug), [
      slug,
    ]);
    const payload = JSON.parse(clearPayload(p.root));
    const general = await answer(payload, DEFAULT_OPTIONS, { projectDir: p.root }, NOW);
    assert.ok(general.stdout?.includes(JSON.stringify(slug).slice(1, -1)), general.reason);
    const recalled = await runCliInProcess(["recall", slug], { cwd: p.root });
    assert.equal(recalled.code, 0, recalled.err);
    assert.match(recalled.out, /Ship the login page/);
  }
  assert.ok(written >= 12, `only ${written} of 24 generated dumps were written`);
});

Deno.test("LATEST a directory: dump refuses before writing, and says so truly", async () => {
  await using p = await scratchProject({ git: false, store: false });
  const store = storeAt(p.root);
  await Deno.mkdir(join(store.dir, "LATEST"), { recursive: true });
  const r = await runCliInProcess(["dump", "x"], { cwd: p.root, stdin: BODY });
  assert.equal(r.code, 1, r.err);
  assert.match(r.err, /LATEST is a directory.*remove it.*Nothing was written/);
  assert.doesNotMatch(r.err, /unchanged/);
  assert.deepEqual(await listStore(p.root), ["LATEST"]);
});

Deno.test("stdin that is not UTF-8 is refused (exit 2, naming the fix), never turned into U+FFFD", async () => {
  await using p = await scratchProject({ git: false, store: false });
  const latin1 = new Uint8Array([...new TextEncoder().encode("## Goal\n\nCaf"), 0xe9, 0x0a]);
  const r = await runCliProcess(["dump", "x"], { cwd: p.root, stdin: latin1 });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /stdin is not UTF-8 text; convert it first, e\.g\. `iconv/);
  assert.deepEqual(await listStore(p.root), []);
  const ok = await runCliProcess(["dump", "y"], {
    cwd: p.root,
    stdin: new TextEncoder().encode("\ufeff## Goal\n\nCafé 日本\n"),
  });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(await Deno.readTextFile(join(storeAt(p.root).dir, "y.md")), /Café 日本/);
});

Deno.test("dump reads all of a large stdin: a byte that is not UTF-8 past 256 KB is refused", async () => {
  await using p = await scratchProject({ git: false, store: false });
  const text = new TextEncoder().encode("## Goal\n\n" + "ok ".repeat(100_000));
  const r = await runCliProcess(["dump", "x"], {
    cwd: p.root,
    stdin: new Uint8Array([...text, 0xe9, 0x0a]),
  });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /stdin is not UTF-8 text/);
  assert.deepEqual(await listStore(p.root), []);
});

Deno.test("dump records the agent session it ran in (session:), only as a plain id", async () => {
  await using p = await scratchProject();
  const session = async (env: Record<string, string>) => {
    const r = await runCliInProcess(["dump"], { cwd: p.root, stdin: BODY, env });
    assert.equal(r.code, 0, r.err);
    const slug = (await Deno.readTextFile(p.store.latest)).trim();
    return splitFrontMatter(await Deno.readTextFile(`${p.store.dir}/${slug}.md`))!.fields.session;
  };
  assert.equal(await session({ CLAUDE_CODE_SESSION_ID: "5f0c2d1e-aaaa" }), "5f0c2d1e-aaaa");
  assert.equal(await session({ CODEX_THREAD_ID: "019a-codex" }), "019a-codex");
  assert.equal(await session({}), undefined);
  assert.equal(await session({ CLAUDE_CODE_SESSION_ID: "bad id\nsession: x" }), undefined);
});
