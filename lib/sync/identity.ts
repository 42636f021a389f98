/**
 * Who syncs, and how a handover says where it came from: `from: <user>@<host>, <time>` in its
 * front matter, and `<slug>-from-<user-host>` when its slug is taken where it lands.
 * @module
 */

import { slugify } from "../store/slug.ts";
import { isoStamp } from "../store/time.ts";
import { git } from "./git.ts";

const DECODER = new TextDecoder();

/** Who syncs: `user@host`, said in the `from` line of the handovers they push. */
export interface Who {
  user: string;
  host: string;
}

export function fromLine(who: Who, now: Date): string {
  return `${who.user}@${who.host}, ${isoStamp(now)}`;
}

/** The rename suffix for a document from `from` (`user@host, time` → `user-host`). */
export function suffixOf(from: string | undefined, fallback: string): string {
  const who = from?.split(",")[0].trim();
  return slugify(who || fallback) || "elsewhere";
}

/**
 * Who is syncing: the user from git's `user.email` (its local part), else `USER`/`USERNAME`; the
 * host from /etc/hostname, else `HOSTNAME`/`COMPUTERNAME` (read, not asked of the OS: the CLI
 * runs without --allow-sys).
 */
export async function whoAmI(
  root: string,
  env: (name: string) => string | undefined,
): Promise<Who> {
  const email = await git(root, ["config", "--get", "user.email"]);
  const local = email.code === 0 ? DECODER.decode(email.stdout).trim().split("@")[0] : "";
  let host = "";
  try {
    host = Deno.readTextFileSync("/etc/hostname").trim();
  } catch { /* not Linux, or unreadable */ }
  const clean = (s: string) => s.replace(/[\s,]+/g, "-");
  return {
    user: clean(local || env("USER") || env("USERNAME") || "someone"),
    host: clean(host || env("HOSTNAME") || env("COMPUTERNAME") || "somewhere"),
  };
}
