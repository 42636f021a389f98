/**
 * Atomic file writes: a temp file in the same directory, then a rename over the target,
 * so a reader (or a process killed mid-write) sees the old file or the new one, never half.
 * @module
 */

/** Prefix of every temp file this project writes; readers of the store skip these names. */
export const TEMP_PREFIX = ".tmp-";

/** The longest file name (one path component) the file systems we run on take, in bytes. */
export const NAME_MAX_BYTES = 255;

/** The length of `text` in UTF-8 bytes (what file-name limits count). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4; // a surrogate pair is one code point of four bytes
      i++;
    } else n += 3;
  }
  return n;
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a code point. */
export function truncateUtf8(text: string, maxBytes: number): string {
  let out = "";
  let n = 0;
  for (const ch of text) {
    n += utf8Length(ch);
    if (n > maxBytes) break;
    out += ch;
  }
  return out;
}

function tempPathFor(path: string): string {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const dir = slash >= 0 ? path.slice(0, slash + 1) : "";
  const base = path.slice(slash + 1);
  const tail = `.${Deno.pid}.${Math.random().toString(36).slice(2, 10)}`;
  // A target name near the limit must still get a temp name the file system takes: its base is
  // cut (readers skip every TEMP_PREFIX name whatever follows).
  const room = NAME_MAX_BYTES - TEMP_PREFIX.length - tail.length;
  return `${dir}${TEMP_PREFIX}${truncateUtf8(base, room)}${tail}`;
}

/** The test fault this process injects (see {@link setFault}); none in production. */
let fault: string | undefined;

/**
 * Sets the test fault point, checked only where a write happens (never on a read-only path):
 * `short-write` writes half of the new file and fails as a full disk does; `pause` writes half,
 * says `session fault: paused mid-write` on stderr and waits to be killed. Tests use it to prove
 * that a write cut short leaves the store as it was. Set from `SESSION_FAULT` by the CLI and from
 * `--test-fault` by the hook (which reads no variable for it: a denied one costs start-up time);
 * lib/hook/fast.ts has its own copy of the point (it imports nothing).
 */
export function setFault(value: string | undefined): void {
  fault = value === "short-write" || value === "pause" ? value : undefined;
}

/** The fault point itself: a no-op unless {@link setFault} armed it. */
function injectFault(path: string, data: string | Uint8Array): void {
  if (fault === undefined) return;
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  Deno.writeFileSync(path, bytes.subarray(0, bytes.length >> 1));
  if (fault === "short-write") throw new Error("No space left on device (os error 28)");
  console.error("session fault: paused mid-write");
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
}

/** Writes `data` to `path` atomically (sync: the hook's hot path avoids the async machinery). */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const tmp = tempPathFor(path);
  try {
    injectFault(tmp, data);
    if (typeof data === "string") Deno.writeTextFileSync(tmp, data, { createNew: true });
    else Deno.writeFileSync(tmp, data, { createNew: true });
    Deno.renameSync(tmp, path);
  } catch (err) {
    try {
      Deno.removeSync(tmp);
    } catch { /* the temp file may never have been created */ }
    throw err;
  }
}

/** Writes `data` to `path` atomically. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempPathFor(path);
  try {
    injectFault(tmp, data);
    if (typeof data === "string") await Deno.writeTextFile(tmp, data, { createNew: true });
    else await Deno.writeFile(tmp, data, { createNew: true });
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/**
 * Writes `data` to a new file at `path`, atomically and only if `path` does not exist: the complete
 * temp file is hard-linked into place (a link never overwrites), so of two writers racing for one
 * name exactly one wins. Returns false when the name was already taken.
 */
export async function createFileAtomic(path: string, data: string | Uint8Array): Promise<boolean> {
  const tmp = tempPathFor(path);
  try {
    injectFault(tmp, data);
    if (typeof data === "string") await Deno.writeTextFile(tmp, data, { createNew: true });
    else await Deno.writeFile(tmp, data, { createNew: true });
    try {
      await Deno.link(tmp, path);
      return true;
    } catch (err) {
      if (err instanceof Deno.errors.AlreadyExists) return false;
      // No hard links here (some network or FUSE filesystems): the best a rename can do.
      if (await Deno.lstat(path).then(() => true, () => false)) return false;
      await Deno.rename(tmp, path);
      return true;
    }
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
}
