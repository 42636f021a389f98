import assert from "node:assert/strict";
import { git as scratchGit, scratchDir } from "../support/scratch.ts";
import { git, readBlobs, writeBlobs } from "../../lib/sync/git.ts";
import { sha1Hex } from "../../lib/sync/snapshot.ts";
import { within } from "./_world.ts";

const ENC = new TextEncoder();
const DEC = new TextDecoder();

Deno.test("git plumbing with more input and output than two pipes hold: no deadlock", async (t) => {
  await using dir = await scratchDir();
  await scratchGit(dir.path, ["init", "-q", "-b", "main"]);
  // 5,000 paths for hash-object (~150 kB in, ~205 kB out) and 5,000 ids for cat-file (~205 kB
  // in, ~4 MB out): each side fills a 64 kB pipe many times over, so writing all of stdin before
  // reading stdout would block both processes for good.
  const N = 5_000;
  const blobs = Array.from({ length: N }, (_, i) => ENC.encode(`blob ${i}\n${"x".repeat(800)}\n`));
  await t.step("hash-object --stdin-paths writes every blob", async () => {
    const ids = await within(60_000, writeBlobs(dir.path, blobs), "hash-object --stdin-paths");
    assert.equal(ids.length, N);
    assert.ok(ids.every((id) => /^[0-9a-f]{40}$/.test(id)));
    assert.equal(new Set(ids).size, N);
  });
  await t.step("cat-file --batch reads every blob back", async () => {
    // Blobs stored by git itself (`add`), so this step stands on its own.
    await Deno.mkdir(`${dir.path}/b`);
    await Promise.all(blobs.map((b, i) => Deno.writeFile(`${dir.path}/b/${i}`, b)));
    await scratchGit(dir.path, ["add", "b"]);
    const staged = await scratchGit(dir.path, ["ls-files", "-s", "b"]);
    const idOf = new Map(
      staged.trim().split("\n").map((l) => {
        const [, , id, , path] = /^(\d+) ([0-9a-f]+) (\d)\t(.*)$/.exec(l)!;
        return [Number(path.slice(2)), id];
      }),
    );
    const ids = blobs.map((_, i) => idOf.get(i)!);
    const read = await within(60_000, readBlobs(dir.path, ids), "cat-file --batch");
    assert.equal(read.size, N);
    for (const i of [0, 1_999, N - 1]) {
      assert.equal(DEC.decode(read.get(ids[i])), DEC.decode(blobs[i]));
    }
  });
  await t.step("a large stdin reaches a command that reads it all first", async () => {
    const text = ENC.encode("line\n".repeat(200_000));
    const r = await within(
      30_000,
      git(dir.path, ["hash-object", "--stdin"], { stdin: text }),
      "stdin",
    );
    assert.equal(r.code, 0, r.stderr);
    // Git's blob id: SHA-1 of "blob <size>\0" and the bytes.
    const header = ENC.encode(`blob ${text.length}\0`);
    assert.equal(DEC.decode(r.stdout).trim(), await sha1Hex(new Uint8Array([...header, ...text])));
  });
});
