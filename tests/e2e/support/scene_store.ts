/**
 * The scratch project's side of the continuity e2e, for every client: commits under a neutral
 * subject (Claude Code's prompt lists `git status` and commit subjects, so a name a test looks for
 * must not be left there), the store's documents with their front matter, and waits for the
 * automatic draft a SessionEnd hook writes.
 * @module
 */

import { splitFrontMatter } from "../../../lib/store/front_matter.ts";
import type { World } from "./claude.ts";
import { commitAll as commitDir } from "./process.ts";
import { sleep } from "./tmux.ts";

const STORE = ".claude/state/session";

/** A store document: its slug, front matter fields and text. */
export interface StoreDoc {
  slug: string;
  fields: Record<string, string>;
  text: string;
}

/** Commits everything in the project under a neutral subject (no file name in `git log`). */
export function commitAll(world: World, subject = "wip"): Promise<void> {
  return commitDir(world.project, subject);
}

/** The store's documents (not hidden files) with their front matter fields. */
export async function storeDocs(
  world: World,
): Promise<StoreDoc[]> {
  const dir = `${world.project}/${STORE}`;
  const out = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.isFile || e.name.startsWith(".") || !e.name.endsWith(".md")) continue;
      const text = await Deno.readTextFile(`${dir}/${e.name}`).catch(() => "");
      const fields = splitFrontMatter(text)?.fields ?? {};
      out.push({ slug: e.name.slice(0, -3), fields, text });
    }
  } catch {
    // no store yet
  }
  return out;
}

/**
 * Waits until a `/clear` has reached its new session: the old session's SessionEnd leaves a
 * `.clearing-` mark (lib/store/sessions.ts) and the new session's SessionStart takes it. A fixed
 * sleep is too short on a loaded machine, and a question asked early lands in the old session.
 */
export async function waitForClear(world: World): Promise<void> {
  const dir = `${world.project}/${STORE}`;
  const marked = async () => {
    try {
      for await (const e of Deno.readDir(dir)) if (e.name.startsWith(".clearing-")) return true;
    } catch { /* no store yet */ }
    return undefined;
  };
  const seen = Date.now() + 5_000;
  while (Date.now() < seen && !(await marked())) await sleep(100);
  await waitUntil(world, "the new session's SessionStart", async () => {
    return (await marked()) ? undefined : true;
  });
  await sleep(1_000);
}

/** Polls until `probe` returns a value; fails after `ms` with `what` and the store's listing. */
export async function waitUntil<T>(
  world: World,
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const found = await probe();
    if (found !== undefined) return found;
    await sleep(250);
  }
  const docs = (await storeDocs(world)).map((d) => `${d.slug} ${JSON.stringify(d.fields)}`);
  throw new Error(
    `${what}: not within ${ms} ms; the store holds:\n${docs.join("\n") || "(nothing)"}`,
  );
}

/** The automatic draft the SessionEnd hook wrote (`draft: auto`), once there is one. */
export function waitForDraft(world: World, except: string[] = []) {
  return waitUntil(
    world,
    "an automatic draft in the store",
    async () =>
      (await storeDocs(world)).find((d) => d.fields.draft === "auto" && !except.includes(d.slug)),
  );
}
