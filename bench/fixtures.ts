/**
 * Benchmark fixtures: a project with a store of N handovers and M parked items, written straight
 * in the store's formats (docs/STORE.md; fast, and independent of the modes being measured).
 * @module
 */

import { isoStamp } from "../lib/store/time.ts";

/** The pinned "now" every benchmark process runs at (via `SESSION_NOW`). */
export const BENCH_NOW = new Date("2026-11-30T04:00:00Z");

/** A handover document in the store's format (docs/STORE.md). */
export function handoverDoc(slug: string, created: Date, consumed: boolean): string {
  return [
    "---",
    `slug: ${slug}`,
    `created: ${isoStamp(created)}`,
    `consumed: ${consumed}`,
    "branch: main",
    "---",
    "",
    "## Goal",
    "",
    `Finish the ${slug} work without losing the thread.`,
    "",
    "## Decisions",
    "",
    "- Use a lock file for PARKED.md — why: 50 concurrent parks must keep 50 items.",
    "- Keep the hook synchronous — why: it runs on every /clear.",
    "",
    "## Files touched",
    "",
    "| File | Change | State | Ref |",
    "| --- | --- | --- | --- |",
    "| lib/store/store.ts | LATEST claim | done | |",
    "| lib/hook/restore.ts | digest | wip | |",
    "",
    "## Next step",
    "",
    "Run the benchmarks and record the table.",
    "",
  ].join("\n");
}

/** One PARKED.md bullet in the store's format. */
export function parkedBullet(i: number, raised: Date): string {
  const slug = `item-${String(i).padStart(5, "0")}`;
  return `- **${slug}** — Look into flaky case number ${i} in the ${
    ["parser", "store", "hook", "cli"][i % 4]
  }. Raised: ${isoStamp(raised).slice(0, 10)}. Why: seen once in CI run ${
    i * 7
  }. Next: reproduce it with seed ${i}.`;
}

/** PARKED.md with `n` items. */
export function parkedFile(n: number, raised: Date): string {
  const lines = ["# Parked items", ""];
  for (let i = 0; i < n; i++) lines.push(parkedBullet(i, raised));
  return lines.join("\n") + "\n";
}

/** A scratch project (a `.git` directory marks its root) with a populated store. */
export interface Project {
  root: string;
  store: string;
}

/**
 * Creates a project under `base` with `docs` consumed handovers (spread over 20 days, so some are
 * stale and none expires at {@link BENCH_NOW}) and `items` parked items.
 */
export function makeProject(base: string, docs: number, items: number): Project {
  const root = `${base}/p-${docs}-${items}`;
  const store = `${root}/.claude/state/session`;
  Deno.mkdirSync(`${root}/.git`, { recursive: true });
  Deno.mkdirSync(store, { recursive: true });
  for (let i = 0; i < docs; i++) {
    // None expires, so `list` does the same work every run.
    const created = new Date(BENCH_NOW.getTime() - (i % (20 * 24)) * 3_600_000);
    const slug = `handover-${String(i).padStart(5, "0")}`;
    Deno.writeTextFileSync(`${store}/${slug}.md`, handoverDoc(slug, created, true));
  }
  const raised = new Date(BENCH_NOW.getTime() - 3 * 86_400_000);
  Deno.writeTextFileSync(`${store}/PARKED.md`, parkedFile(items, raised));
  return { root, store };
}
