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
