/**
 * Handover slugs: from a name (kebab-case), or unnamed (`<branch>-<UTC stamp>`); refusals of
 * names that could escape the store or shadow its own files; `-2`, `-3`, … on collision.
 * Pure: the caller says which slugs already exist.
 * @module
 */

import { RESERVED } from "./store.ts";
import { slugStamp } from "./time.ts";

/**
 * Lowercase; every run of characters that are not letters or digits becomes one `-`; leading and
 * trailing `-` trimmed. Letters and digits of any script are kept (a Japanese name stays one).
 * Handover names and parked items share this one rule (lib/parked.ts imports it from here).
 */
export function slugify(name: string): string {
  return name.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(
    /^-+|-+$/g,
    "",
  );
}

/** Why `name` cannot name a handover, or undefined when it can. */
export function refusal(name: string): string | undefined {
  if (name.includes("/") || name.includes("\\")) {
    return `the name "${name}" contains a path separator; give a plain name such as "auth-refactor"`;
  }
  if (name.includes("..")) return `the name "${name}" contains ".."; give a plain name`;
  const slug = slugify(name);
  if (slug === "") {
    return `the name "${name}" has no letters or digits; give a name such as "auth-refactor"`;
  }
  const reserved = RESERVED.find((r) => r.toLowerCase() === slug);
  if (reserved) {
    return `"${name}" is reserved (the store's ${reserved} file); choose another name`;
  }
  if (slug.length > 120) return `the name is too long (${slug.length} characters; at most 120)`;
  return undefined;
}

/** The slug of an unnamed dump: `<branch with / → ->-<YYYY-MM-DDTHH-MM-SSZ>`. */
export function unnamedSlug(branch: string | undefined, now: Date): string {
  const base = branch && branch !== "none" && branch !== "detached"
    ? branch.replaceAll("/", "-").replaceAll("\\", "-").replace(/\.{2,}/g, ".").replace(/^\.+/, "")
    : "detached";
  return `${base || "detached"}-${slugStamp(now)}`;
}

/** The outcome of choosing a slug. */
export type SlugChoice = { slug: string } | { error: string };

/**
 * The slug a dump writes to: from `name` (refused names give `error`) or unnamed from the branch
 * and `now`; an existing slug gets `-2`, `-3`, … unless `force` (which overwrites).
 */
export function chooseSlug(opts: {
  name?: string;
  branch?: string;
  now: Date;
  force?: boolean;
  exists: (slug: string) => boolean;
}): SlugChoice {
  let base: string;
  if (opts.name !== undefined) {
    const why = refusal(opts.name);
    if (why) return { error: why };
    base = slugify(opts.name);
  } else {
    base = unnamedSlug(opts.branch, opts.now);
  }
  if (opts.force || !opts.exists(base)) return { slug: base };
  for (let n = 2;; n++) {
    const candidate = `${base}-${n}`;
    if (!opts.exists(candidate)) return { slug: candidate };
  }
}
