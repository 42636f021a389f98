/**
 * Redaction measured both ways (tests/secrets/_corpus.ts): the generated true positives of every
 * kind through every entry channel, and how many of them leaked; and the share of lines changed
 * in text no rule should touch — the code of the npm packages this project depends on (goal
 * ≤ 0.01 %), their prose, and the noise of sessions. Prints two lines; `deno task bench` runs it
 * after its table, or alone: `deno run -A bench/secrets.ts`.
 * @module
 */

import { changedLines, leaks, sessionNoise, thirdParty } from "../tests/secrets/_corpus.ts";

const { positives, leaked } = leaks();
const { code, prose } = await thirdParty();
const c = changedLines(code);
const other = changedLines([...prose, ...sessionNoise()]);
const percent = (n: number, of: number) => `${(100 * n / of).toFixed(4)} %`;
console.log(
  `secrets: ${positives} true positives (every kind × every entry channel), ${leaked.length} leaked (goal 0)`,
);
console.log(
  `secrets: false positives ${c.changed.length} of ${c.lines} lines of third-party code ` +
    `(${percent(c.changed.length, c.lines)}, goal ≤ 0.01 %); ${other.changed.length} of ` +
    `${other.lines} lines of prose and session noise`,
);
