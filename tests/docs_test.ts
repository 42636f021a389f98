/**
 * Every relative link in the repository's Markdown resolves: to an existing file, and a `#anchor`
 * to a heading of the linked document (GitHub's slugs). No network: links with a scheme are not
 * followed. Fenced and inline code is not read as links.
 * @module
 */

import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { REPO, scratchDir } from "./support/scratch.ts";

const SKIP = new Set([".git", ".temp", ".claude", "node_modules", "fixtures"]);

/** The .md files below `dir`, fixtures and tool directories left out. */
function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (SKIP.has(e.name)) continue;
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...markdownFiles(path));
    else if (e.isFile && e.name.endsWith(".md")) out.push(path);
  }
  return out.sort();
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, "");

/** The anchors of a document's headings (a repeated heading gets -1, -2, … as on GitHub). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of withoutCode(Deno.readTextFileSync(file)).matchAll(/^#{1,6} (.*)$/gm)) {
    const s = slug(m[1]);
    const n = seen.get(s) ?? 0;
    out.add(n ? `${s}-${n}` : s);
    seen.set(s, n + 1);
  }
  return out;
}

/** The broken relative links of the .md files below `root`, as `file: href`. */
export function brokenLinks(root: string): string[] {
  const bad: string[] = [];
  for (const file of markdownFiles(root)) {
    const text = withoutCode(Deno.readTextFileSync(file)).replace(/`[^`\n]*`/g, "");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const href = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
      const [path, anchor] = href.split("#");
      const target = path ? join(dirname(file), decodeURIComponent(path)) : file;
      let ok = true;
      try {
        Deno.statSync(target);
      } catch {
        ok = false;
      }
      if (ok && anchor && target.endsWith(".md") && !anchors(target).has(anchor)) ok = false;
      if (!ok) bad.push(`${relative(root, file)}: ${href}`);
    }
  }
  return bad;
}

Deno.test("docs: every relative link in the repository's Markdown resolves", () => {
  assert.deepEqual(brokenLinks(REPO), []);
});

Deno.test("docs: the check catches a missing file and a missing anchor", async () => {
  await using dir = await scratchDir("session-docs-");
  await Deno.mkdir(join(dir.path, "docs"));
  await Deno.writeTextFile(join(dir.path, "docs", "A.md"), "# Title\n\n## Two words\n");
  await Deno.writeTextFile(
    join(dir.path, "README.md"),
    [
      "[ok](docs/A.md) [ok](docs/A.md#two-words) [ok](#readme) [web](https://example.com/x)",
      "`[code](nowhere.md)`",
      "```",
      "[fenced](nowhere.md)",
      "```",
      "[gone](docs/B.md) [bad anchor](docs/A.md#three) [self](#nope)",
      "# Readme",
      "",
    ].join("\n"),
  );
  assert.deepEqual(brokenLinks(dir.path), [
    "README.md: docs/B.md",
    "README.md: docs/A.md#three",
    "README.md: #nope",
  ]);
});

/** Files below `dir` (relative to the repository) whose name ends with one of `ends`. */
function filesBelow(dir: string, ...ends: string[]): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(join(REPO, dir))) {
    if (SKIP.has(e.name)) continue;
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...filesBelow(path, ...ends));
    else if (e.isFile && ends.some((x) => e.name.endsWith(x))) out.push(path);
  }
  return out.sort();
}

/** The repository's own prose and code: what must carry the contract itself. */
const OWN = [
  ...filesBelow("lib", ".ts"),
  ...filesBelow("tests", ".ts"),
  ...filesBelow("bench", ".ts"),
  ...filesBelow("scripts", ".ts"),
  ...filesBelow("hooks", ".ts"),
  "session.ts",
  "session_restore.ts",
  ...filesBelow("docs", ".md"),
  "README.md",
  "CONTRIBUTING.md",
  "SKILL.md",
];

/**
 * Words that point at a document outside the repository (the contract it was built from, or the
 * skill it grew from): the docs carry the contract, so a reader of the repository alone can follow
 * every reference. A PRNG's seed is a word of its own; only the word with the article or the
 * possessive is such a pointer. The phrases are built from their words, so this file does not
 * hold them.
 */
const OUTSIDE = [
  /SPEC\.md/i,
  /\bspecification\b/i,
  ...["spec", "seed"].flatMap((w) => [
    new RegExp(`\\bthe\\s+${w}\\b`, "i"),
    new RegExp(`\\b${w}'s\\b`, "i"),
  ]),
];

/** Where `files` point outside the repository, as `file:line: text`. */
export function outsidePointers(files: string[]): string[] {
  const bad: string[] = [];
  for (const file of files) {
    if (file === "tests/docs_test.ts") continue; // the patterns themselves
    const lines = Deno.readTextFileSync(join(REPO, file)).split("\n");
    lines.forEach((line, i) => {
      if (OUTSIDE.some((re) => re.test(line))) bad.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return bad;
}

Deno.test("docs: nothing points at a spec or seed outside the repository", () => {
  assert.deepEqual(outsidePointers(OWN), []);
});

Deno.test("docs: every mod.ts in lib/ is a module doc, not a barrel (no export *)", () => {
  const barrels = filesBelow("lib", ".ts").filter((f) =>
    /^\s*export\s*\*/m.test(Deno.readTextFileSync(join(REPO, f)))
  );
  assert.deepEqual(barrels, []);
});

/** The folders of lib/, so `store/slug.ts` in a comment is read as lib/store/slug.ts. */
const LIB_DIRS = [...Deno.readDirSync(join(REPO, "lib"))].filter((e) => e.isDirectory).map((e) =>
  e.name
);

/** The repository paths a text names: `lib/…`, `tests/…`, `docs/…`, or a lib/ folder's file. */
function namedPaths(text: string): string[] {
  const out: string[] = [];
  const top = /(?<![\w./-])((?:lib|tests|bench|scripts|hooks|docs)\/[\w./-]*\w\.(?:ts|md))\b/g;
  for (const m of text.matchAll(top)) out.push(m[1]);
  const inLib = new RegExp(`(?<![\\w./-])((?:${LIB_DIRS.join("|")})/[\\w./-]*\\w\\.ts)\\b`, "g");
  for (const m of text.matchAll(inLib)) out.push(`lib/${m[1]}`);
  return out;
}

Deno.test("docs: every repository path the docs and lib/ name exists", () => {
  const prose = [...filesBelow("lib", ".ts"), ...filesBelow("docs", ".md")];
  const missing: string[] = [];
  for (const file of [...prose, "README.md", "CONTRIBUTING.md", "SKILL.md"]) {
    const text = Deno.readTextFileSync(join(REPO, file));
    // Example output in a Markdown fence names a user's files, not ours.
    for (const path of namedPaths(file.endsWith(".md") ? withoutCode(text) : text)) {
      try {
        Deno.statSync(join(REPO, path));
      } catch {
        missing.push(`${file}: ${path}`);
      }
    }
  }
  assert.deepEqual([...new Set(missing)], []);
});

/** File names lib/ names that are not ours: an example of a user's file, a file install writes. */
const EXAMPLE_NAMES = new Set(["limiter.ts", "session-restore.ts"]);

// A name of two characters or more: `l.ts` is a property read, not a file.
Deno.test("docs: every file name lib/ names bare is a file of the repository", () => {
  const names = new Set(
    [...filesBelow(".", ".ts")].map((f) => f.slice(f.lastIndexOf("/") + 1)),
  );
  const missing: string[] = [];
  for (const file of filesBelow("lib", ".ts")) {
    const text = Deno.readTextFileSync(join(REPO, file));
    for (const m of text.matchAll(/(?<![\w./-])([a-z][\w-]+\.ts)\b/g)) {
      if (!names.has(m[1]) && !EXAMPLE_NAMES.has(m[1])) missing.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(missing, []);
});

/** The front door's length: reference detail belongs in docs/. */
const README_MAX_LINES = 220;

Deno.test(`docs: README.md is at most ${README_MAX_LINES} lines`, () => {
  const lines = Deno.readTextFileSync(join(REPO, "README.md")).split("\n");
  if (lines.at(-1) === "") lines.pop();
  assert.ok(lines.length <= README_MAX_LINES, `README.md is ${lines.length} lines`);
});
