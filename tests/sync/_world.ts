/**
 * Test support for push / pull: a bare remote in a temp directory and clones of it, each with its
 * own identity, the store git-ignored; and reading a clone's parked slugs and handovers.
 * @module
 */
import { git } from "../support/scratch.ts";
import { parseParked } from "../../lib/parked/scanner.ts";

/** The store's place in a clone. */
export const STORE = ".claude/state/session";

/** A bare remote and `n` clones (`<prefix><i>@example.com`); `remote: false` leaves it unset. */
export async function world(n: number, o: { remote?: boolean; prefix?: string } = {}) {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "session-sync-" }));
  const remote = `${tmp}/remote.git`;
  await git(tmp, ["init", "-q", "--bare", "-b", "main", remote]);
  const clones: string[] = [];
  for (let i = 0; i < n; i++) {
    const dir = `${tmp}/c${i}`;
    if (i === 0) {
      await git(tmp, ["init", "-q", "-b", "main", dir]);
      await Deno.writeTextFile(`${dir}/.gitignore`, ".claude/state/\n");
      await Deno.writeTextFile(`${dir}/code.ts`, "export const x = 1;\n");
      await git(dir, ["add", "-A"]);
      await git(dir, ["commit", "-q", "-m", "init"]);
      if (o.remote !== false) {
        await git(dir, ["remote", "add", "origin", remote]);
        await git(dir, ["push", "-q", "-u", "origin", "main"]);
      }
    } else await git(tmp, ["clone", "-q", remote, dir]);
    await git(dir, ["config", "user.email", `${o.prefix ?? "u"}${i}@example.com`]);
    clones.push(dir);
  }
  return {
    tmp,
    remote,
    clones,
    cleanup: () => Deno.remove(tmp, { recursive: true }).catch(() => {}),
  };
}

/** The parked slugs of a clone's store, sorted. */
export function slugs(cwd: string): string[] {
  try {
    return parseParked(Deno.readTextFileSync(`${cwd}/${STORE}/PARKED.md`)).items.map((i) => i.slug)
      .sort();
  } catch {
    return [];
  }
}
