/**
 * A reference for the `hook: inject` row, not a product: the work the inject path cannot avoid —
 * read stdin, list the store's directories, take the store's docs lock (every writer of a document
 * holds it: docs/HOOK.md), read LATEST and the document, write the consumed document to a temp
 * file and rename it over, rename LATEST to the session's restored marker, print one JSON object
 * — written as one module with no imports, no gates, no options and no digest. Its ratio to the
 * empty script is about the least any hook could measure on this machine; the gap between it and
 * `hook: inject` is what the hook's module layout and its checks cost (docs/PERFORMANCE.md).
 *
 *   deno run <the hook's flags> bench/hook_work.ts < payload   (cwd: the project root)
 * @module
 */

const buf = new Uint8Array(1 << 16);
const n = Deno.stdin.readSync(buf) ?? 0;
const payload = JSON.parse(String.fromCharCode.apply(null, [...buf.subarray(0, n)]));
let dir: string = payload.cwd;
let names = new Set<string>();
for (const part of ["", ".claude", "state", "session"]) {
  if (part !== "") dir = `${dir}/${part}`;
  names = new Set([...Deno.readDirSync(dir)].map((e) => e.name));
}
if (!names.has("LATEST")) throw new Error("no LATEST");
const lock = Deno.openSync(`${dir}/.docs.lock`, { write: true, create: true });
lock.lockSync(true);
const slug = Deno.readTextFileSync(`${dir}/LATEST`).split("\n", 1)[0].trim();
const doc = `${dir}/${slug}.md`;
const text = Deno.readTextFileSync(doc);
const tmp = `${dir}/.tmp-${slug}.md.${Math.random().toString(36).slice(2)}`;
Deno.writeTextFileSync(tmp, text.replace("consumed: false", "consumed: true"), { createNew: true });
Deno.renameSync(tmp, doc);
Deno.renameSync(`${dir}/LATEST`, `${dir}/.restored-${payload.session_id}`);
lock.close();
const body = text.slice(text.indexOf("\n---\n") + 5);
const out = JSON.stringify({
  hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: `[session] ${body}` },
});
const bytes = new TextEncoder().encode(out + "\n");
for (let at = 0; at < bytes.length;) at += Deno.stdout.writeSync(bytes.subarray(at));
