import assert from "node:assert/strict";
import { parseParked } from "../../lib/parked/scanner.ts";
import { keyBullets, mergeParked } from "../../lib/sync/merge.ts";
import { spliceParked } from "../../lib/sync/snapshot.ts";

const DEC = new TextDecoder();

function merged(localText: string, remoteText: string, baseText?: string): string {
  const doc = parseParked(localText);
  const mine = keyBullets(doc.items);
  const m = mergeParked(
    baseText === undefined ? undefined : keyBullets(parseParked(baseText).items),
    { items: mine, dropped: new Set() },
    { items: keyBullets(parseParked(remoteText).items), dropped: new Set() },
    true,
  );
  return DEC.decode(spliceParked(doc, mine, m));
}

Deno.test("splice: notes, headings and CRLF stay; only touched bullets change", () => {
  const base =
    "# Parked items\r\n\r\nA note.\r\n\r\n- **a** — A.\r\n  detail of a\r\n- **b** — B.\r\n\r\n## Later\r\n";
  const remote = "# Parked items\n\n- **a** — A changed.\n- **c** — C.\n";
  const out = merged(base, remote, base);
  // b dropped remotely (the base had it), a edited remotely, c added after the last item.
  assert.equal(
    out,
    "# Parked items\r\n\r\nA note.\r\n\r\n- **a** — A changed.\r\n- **c** — C.\r\n\r\n## Later\r\n",
  );
});

Deno.test("splice: into an empty or item-less file, and after a last bullet without a newline", () => {
  assert.equal(merged("", "- **x** — X.\n"), "# Parked items\n\n- **x** — X.\n");
  assert.equal(
    merged("# Mine\nsome text", "- **x** — X.\n"),
    "# Mine\nsome text\n\n- **x** — X.\n",
  );
  assert.equal(merged("- **a** — A.", "- **b** — B.\n"), "- **a** — A.\n- **b** — B.\n");
});

Deno.test("splice: a layout the merge would misread is refused, not written", () => {
  // Additions after a file that leaves a fence open would vanish into the code block.
  assert.throws(() => merged("# P\n\n```\ncode\n", "- **x** — X.\n"), /could not be merged safely/);
});
