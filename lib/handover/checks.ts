/**
 * The rules a dump is scored by (pure), written once here and in docs/CLI.md ("What dump
 * checks"): when a next step is **concrete** (it names a file, a command, a test, an identifier
 * or an issue), when a files-table row is **backed** (the evidence shows its file), and when a
 * decision has its reason (a `why:` with text after it). `dump` turns each finding into a point
 * of its `## Confidence` block; `recover` scores its draft's next step by the same rule.
 * @module
 */

import type { EvidenceFile } from "./evidence/model.ts";
import { fileKey, parseFilesSection } from "./files_table.ts";

/** What a concrete next step names. */
export type ConcreteKind = "file" | "command" | "test" | "identifier" | "issue";

/** Words before "test" that say which tests in general, not which one. */
const VAGUE_TESTS =
  "all|any|each|every|failing|broken|flaky|remaining|other|new|old|same|existing|last|next|" +
  "unit|integration|e2e|end-to-end|whole|full|relevant|missing|more|few|some";

/**
 * The rule of "concrete" (docs/CLI.md, "What dump checks"), kind by kind, first match wins: an
 * issue (`#26`, "issue 26", "PR 12", "ticket 9"); a file (a name with an extension, `limiter.ts`,
 * `src/a.ts` — a bare name of two characters or more, so `e.g.` is none —, a path ending in `/` or
 * starting `./`, `../`, `~/`, `/`, or a well-known extensionless file); a test (`foo_test`,
 * `test_foo`, `FooTest`, `it("…"`, or "the <word> test" with a word that names one: "the burst
 * test", not "the failing tests"); a command (a `$ ` line, a tool's name and an argument: `deno
 * test …`, `git rebase …`); an identifier (camelCase, snake_case, a PascalCase word with an inner
 * capital, `name()`, `a.b(`, `A::b`). A code span none of them reads is a command (`make check`).
 */
const RULES: [ConcreteKind, RegExp][] = [
  ["issue", /(?:^|[\s(])(#\d+)\b/],
  ["issue", /\b((?:issue|pr|pull request|ticket|bug)\s+#?\d+)\b/i],
  [
    "file",
    /(?:^|[^\w.\/@-])((?:\.{1,2}\/|~\/|\/)?(?:(?:[\w@.-]+\/)+[\w@-][\w@.-]*|[\w@-][\w@.-]*[\w@-])\.[A-Za-z][A-Za-z0-9]{0,4})(?![\w\/])/,
  ],
  ["file", /(?:^|\s)((?:\.{1,2}\/|~\/|\/)[\w@.-]+\/?\S*|[\w@.-]+\/(?:[\w@.-]+\/)*)(?=\s|$|[,;:)])/],
  ["file", /\b(Makefile|Dockerfile|Justfile|Gemfile|Procfile)\b/],
  ["test", /\b(\w+_(?:test|spec)|test_\w+|\w+(?:Test|Spec)|(?:it|test|describe)\(\s*["'`])/],
  ["test", new RegExp(`\\b(?:the|a|an)\\s+((?!(?:${VAGUE_TESTS})\\b)[\\w-]+\\s+tests?)\\b`, "i")],
  ["command", /(?:^|\n)\s*(\$ \S.*)/],
  ["command", /\b((?:deno|npm|npx|pnpm|yarn|git|cargo|pytest|docker|kubectl|gh)\s+[\w.-]+)/],
  ["identifier", /\b([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)\b/],
  ["identifier", /\b([A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+)\b/],
  ["identifier", /\b([A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)\b/],
  ["identifier", /\b([A-Za-z_$][\w$]*(?:\(\)|\.[A-Za-z_$][\w$]*\(|::[A-Za-z_]\w*))/],
];

/** What a concrete text names first: its kind and the words that name it. */
export interface Named {
  kind: ConcreteKind;
  what: string;
}

/** A code span with something in it. */
const SPAN = /`([^`\n]*\S[^`\n]*)`/;

/**
 * What `text` names that one can act on cold, by the rule of "concrete"; undefined: nothing. A
 * code span that none of the rules reads otherwise is a command.
 */
export function concreteMention(text: string): Named | undefined {
  for (const [kind, rule] of RULES) {
    const m = rule.exec(text);
    if (m) return { kind, what: m[1].trim() };
  }
  const span = SPAN.exec(text);
  return span ? { kind: "command", what: span[1].trim() } : undefined;
}

/** A kind as a point's fact says it: `a file`, `an identifier`. */
export function kindName(kind: ConcreteKind): string {
  return `${kind === "identifier" || kind === "issue" ? "an" : "a"} ${kind}`;
}

/** A decision item has its reason: `why:` (any case) with text after it. */
export function hasWhy(item: string): boolean {
  return /\bwhy\s*:\s*\S/i.test(item);
}

/** How the files table stands against the evidence, by the rule of "backed". */
export interface Backing {
  /** Rows the agent gave. */
  agentRows: number;
  /** The agent's rows whose file no evidence shows (their File cells as given). */
  unbacked: string[];
  /** Evidence files the agent's table left out (only when the agent gave a table). */
  omitted: string[];
  /** Evidence files a transcript shows the session touching (`line` known). */
  inTranscript: number;
  /** Evidence files only git shows (changed in the work tree or committed, no transcript touch). */
  gitOnly: number;
}

/**
 * The rule of "backed": a row the agent gave is backed when the evidence lists its file (paths
 * compared as the table merge compares them, {@link fileKey}: code span or not, `./` and `\`
 * aside). Evidence files are backed by definition; the count says which a transcript confirms.
 */
export function backing(agentContent: string | undefined, evidence: EvidenceFile[]): Backing {
  const rows = agentContent ? parseFilesSection(agentContent).rows : [];
  const known = new Set(evidence.map((f) => f.path));
  const given = new Set(rows.map((r) => fileKey(r.file)));
  return {
    agentRows: rows.length,
    unbacked: rows.filter((r) => !known.has(fileKey(r.file))).map((r) => r.file),
    omitted: rows.length ? evidence.filter((f) => !given.has(f.path)).map((f) => f.path) : [],
    inTranscript: evidence.filter((f) => f.line !== undefined).length,
    gitOnly: evidence.filter((f) => f.line === undefined && f.source === "git").length,
  };
}
