/**
 * The `## Confidence` block every mode ends its output with: its model (a {@link Point}: a name,
 * ✓ or ⚠, the fact behind it, and for a weak point what would fix it — which is also its `--json`
 * form, under the key `confidence`) and its rendering as text. Pure: each mode computes its own points from what it did; this file only
 * says them, the same way everywhere. Shared by every mode (lib/cli/main.ts).
 * @module
 */

/** One scored point of a mode's run. */
export interface Point {
  /** What is scored, one or two words: `files`, `next step`, `target`. */
  name: string;
  /** ✓ when the point holds, ⚠ when it is weak. */
  ok: boolean;
  /** The fact behind the score, e.g. `12 rows, 11 in the transcript, 1 from git only`. */
  fact: string;
  /** For a weak point: what the agent or user can do about it. */
  fix?: string;
}

/** A point: the shape every mode builds. */
export function point(name: string, ok: boolean, fact: string, fix?: string): Point {
  return fix === undefined || ok ? { name, ok, fact } : { name, ok, fact, fix };
}

/** The block's heading. */
export const HEADING = "## Confidence";

/** One point as a line: `✓ files: 12 rows …` or `⚠ next step: … → name a file …`. */
export function pointLine(p: Point): string {
  return `${p.ok ? "✓" : "⚠"} ${p.name}: ${p.fact}${p.fix ? ` → ${p.fix}` : ""}`;
}

/**
 * The block as text, set off from what the mode printed before it by a blank line: the heading,
 * one line per point, and `afterWeak` lines when any point is weak.
 */
export function renderConfidence(points: Point[], afterWeak: string[] = []): string {
  const weak = points.some((p) => !p.ok);
  return ["", HEADING, ...points.map(pointLine), ...(weak ? afterWeak : [])].join("\n");
}

/** Up to three names for a point's fact, as code, then how many more. */
export function names(slugs: string[]): string {
  const shown = slugs.slice(0, 3).map((s) => `\`${s}\``).join(", ");
  return slugs.length > 3 ? `${shown} and ${slugs.length - 3} more` : shown;
}

/** `n` and the noun, plural when `n` is not 1: `1 row`, `3 rows`. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
