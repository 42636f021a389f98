import assert from "node:assert/strict";

/** The one module allowed to write LATEST or flip `consumed`. */
const OWNER = "lib/store/lifecycle.ts";
/** Where `markConsumed` is defined (the flip itself, pure): it may name it, not call it. */
const DEFINES_FLIP = "lib/store/front_matter.ts";

/** What writes LATEST or flips `consumed`, as code outside the owner would spell it. */
const WRITES: [string, RegExp][] = [
  ["writeLatest", /\bwriteLatest\s*\(/],
  ["takeLatest", /\btakeLatest(As)?\s*\(/],
  ["recoverClaims", /\brecover(Legacy)?Claims\s*\(/],
  ["an atomic write of LATEST", /writeFileAtomic\w*\(\s*[\w.]*\.latest\b/],
  ["a removal or rename of LATEST", /(remove\w*|rename\w*|link\w*)\(\s*[\w.]*\.latest\b/],
  ["a write to LATEST by name", /write\w*\([^)]*["'`/]LATEST["'`]/],
  ["markConsumed", /\bmarkConsumed\s*\(/],
];

/** Every offence in `text` (a file under lib/ at `path`), as "path: what". */
export function offences(path: string, text: string): string[] {
  if (path === OWNER) return [];
  const code = text.split("\n").filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l)).join("\n");
  return WRITES.filter(([what, re]) =>
    re.test(code) && !(what === "markConsumed" && path === DEFINES_FLIP)
  ).map(([what]) => `${path}: ${what}`);
}

/** Every `.ts` file under `rel` (a folder of the checkout), with its text. */
function sources(rel: string): [string, string][] {
  const out: [string, string][] = [];
  for (const e of Deno.readDirSync(new URL(`../../${rel}/`, import.meta.url))) {
    const path = `${rel}/${e.name}`;
    if (e.isDirectory) out.push(...sources(path));
    else if (e.name.endsWith(".ts")) {
      out.push([path, Deno.readTextFileSync(new URL(`../../${path}`, import.meta.url))]);
    }
  }
  return out;
}

Deno.test("only lib/store/lifecycle.ts writes LATEST or flips consumed", async (t) => {
  const files = sources("lib");
  await t.step("no file of lib/ but the owner", () => {
    assert.ok(files.some(([p]) => p === OWNER), "the owner exists");
    assert.deepEqual(files.flatMap(([p, text]) => offences(p, text)), []);
  });
  await t.step("each kind of write planted elsewhere is caught", () => {
    const planted = [
      "writeLatest(store, slug);",
      "takeLatest(store, slug);",
      "takeLatestAs(store.latest, marker);",
      "recoverClaims(store);",
      "writeFileAtomicSync(store.latest, slug);",
      "await writeFileAtomic(paths.latest, slug);",
      "Deno.removeSync(store.latest);",
      "removeQuietly(store.latest);",
      "Deno.renameSync(store.latest, claim);",
      'Deno.writeTextFileSync(join(dir, "LATEST"), slug);',
      "const out = markConsumed(text);",
    ];
    for (const line of planted) {
      assert.notDeepEqual(offences("lib/cli/recall.ts", `const x = 1;\n${line}\n`), [], line);
      assert.deepEqual(offences(OWNER, line), [], `the owner may: ${line}`);
    }
    assert.deepEqual(offences("lib/store/latest.ts", "readLatest(store);\n"), [], "reads pass");
  });
});
