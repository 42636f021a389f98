/**
 * Test support for push / pull: a bare remote in a temp directory and clones of it, each with its
 * own identity, the store git-ignored; and reading a clone's parked slugs and handovers.
 * @module
 */
import { git } from "../support/scratch.ts";
import { parseParked } from "../../lib/parked/scanner.ts";
import { git as gitRun } from "../../lib/sync/git.ts";

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

/**
 * `work`, or a failure naming `what` once `ms` pass: a sync that deadlocks fails its test instead
 * of hanging the run.
 */
export async function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still running after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A file of a hand-made ref: its path in the ref's tree, its bytes, its mode (100644). */
export interface RefFile {
  path: string;
  bytes: Uint8Array | string;
  mode?: string;
}

/**
 * Points `repo`'s `refs/session/store` at a commit holding exactly `files`, whatever their names
 * (trees written raw, so a name git's porcelain would refuse — `..`, one with a `/` — gets in
 * too): a ref rewritten by hand or by a hostile peer. Returns the commit.
 */
export async function plantRef(repo: string, files: RefFile[]): Promise<string> {
  const run = async (args: string[], stdin?: Uint8Array | string) => {
    const who = { GIT_AUTHOR_NAME: "hand", GIT_AUTHOR_EMAIL: "hand@example.com" };
    const env = { ...who, GIT_COMMITTER_NAME: "hand", GIT_COMMITTER_EMAIL: "hand@example.com" };
    const r = await gitRun(repo, args, stdin === undefined ? { env } : { stdin, env });
    if (r.code !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
    return new TextDecoder().decode(r.stdout).trim();
  };
  type Node = Map<string, { mode: string; id: string } | Node>;
  const root: Node = new Map();
  for (const f of files) {
    const id = await run(["hash-object", "-w", "--stdin"], f.bytes);
    const parts = f.path.split("\t"); // a tab marks a `/` inside one name
    let dir = root;
    const names = parts.length > 1 ? [...parts[0].split("/"), parts[1]] : f.path.split("/");
    for (const d of names.slice(0, -1)) {
      if (!dir.has(d)) dir.set(d, new Map());
      dir = dir.get(d) as Node;
    }
    dir.set(names.at(-1)!, { mode: f.mode ?? "100644", id });
  }
  const enc = new TextEncoder();
  const write = async (node: Node): Promise<string> => {
    const chunks: number[] = [];
    for (const [name, v] of [...node].sort(([a], [b]) => a < b ? -1 : 1)) {
      const { mode, id } = v instanceof Map ? { mode: "40000", id: await write(v) } : v;
      chunks.push(
        ...enc.encode(`${mode} ${name}\0`),
        ...id.match(/../g)!.map((h) => parseInt(h, 16)),
      );
    }
    return await run(
      ["hash-object", "-t", "tree", "--literally", "-w", "--stdin"],
      new Uint8Array(chunks),
    );
  };
  const tree = await write(root);
  const commit = await run(["commit-tree", tree, "-m", "by hand"]);
  await run(["update-ref", "refs/session/store", commit]);
  return commit;
}
