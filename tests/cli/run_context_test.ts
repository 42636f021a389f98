import assert from "node:assert/strict";
import { type ByteSource, readAll } from "../../lib/cli/run_context.ts";
import { prng } from "../support/prng.ts";

/** A source handing out `bytes` in chunks of at most `chunk`; `blocking: false` fails sync reads. */
function source(
  bytes: Uint8Array,
  chunk: number,
  blocking = true,
): ByteSource & { calls: string[] } {
  let at = 0;
  const calls: string[] = [];
  const take = (p: Uint8Array) => {
    if (at >= bytes.length) return null;
    const n = Math.min(chunk, p.length, bytes.length - at);
    p.set(bytes.subarray(at, at + n));
    at += n;
    return n;
  };
  return {
    calls,
    readSync(p) {
      calls.push("sync");
      if (!blocking) throw new Deno.errors.WouldBlock("Resource temporarily unavailable");
      return take(p);
    },
    read(p) {
      calls.push("async");
      return Promise.resolve(take(p));
    },
  };
}

Deno.test("readAll: stdin whole, however it arrives", async (t) => {
  const next = prng(0x57d1);
  const bytes = Uint8Array.from({ length: 300_000 }, () => Math.floor(next() * 256));
  await t.step("in chunks smaller and larger than its buffer", async () => {
    for (const chunk of [1_000, 65_536, 1 << 20]) {
      assert.deepEqual(await readAll(source(bytes, chunk)), bytes);
    }
  });
  await t.step("nothing: an empty array", async () => {
    assert.deepEqual(await readAll(source(new Uint8Array(0), 10)), new Uint8Array(0));
  });
  await t.step(
    "a non-blocking descriptor: read asynchronously after the first WouldBlock",
    async () => {
      const s = source(bytes, 7_000, false);
      assert.deepEqual(await readAll(s), bytes);
      assert.equal(s.calls[0], "sync");
      assert.ok(s.calls.slice(1).every((c) => c === "async"));
    },
  );
  await t.step("any other error is the caller's", async () => {
    const broken: ByteSource = {
      readSync: () => {
        throw new Deno.errors.PermissionDenied("no");
      },
      read: () => Promise.resolve(null),
    };
    await assert.rejects(readAll(broken), Deno.errors.PermissionDenied);
  });
});
