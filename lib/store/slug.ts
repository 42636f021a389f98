/**
 * Handover slugs: from a name (kebab-case), or unnamed (`<branch>-<UTC stamp>`); refusals of
 * names that could escape the store or shadow its own files; `-2`, `-3`, … on collision.
 * Pure: the caller says which slugs already exist.
 * @module
 */

import { truncateUtf8, utf8Length } from "../text/bytes.ts";
import { reservedName } from "./store.ts";
import { slugStamp } from "./time.ts";
import { head } from "../text/cut.ts";

/**
 * Lowercase; every run of characters that are not letters or digits becomes one `-`; leading and
 * trailing `-` trimmed. Letters and digits of any script are kept (a Japanese name stays one).
 * Handover names and parked items share this one rule (lib/parked/grammar.ts imports it from here).
 */
export function slugify(name: string): string {
  return alnumWords(name.normalize("NFKC")).join("-");
}

/** The lower-cased words of `text`: its runs of letters and digits of any script, in order. */
export function alnumWords(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
}

/**
 * Folds every run of whitespace (newlines included) into one space: text for one line. The names
 * slugs come from, a parked bullet's fields, and the commit subjects and prompts evidence and
 * sweep quote share this one rule.
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
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
  const reserved = reservedName(slug);
  if (reserved) {
    return `"${name}" is reserved (the store's ${reserved} file); choose another name`;
  }
  const bytes = utf8Length(slug);
  if (bytes > NAMED_SLUG_MAX_BYTES) {
    return `the name is too long: its slug "${head(slug, 24)}…" is ${bytes} bytes in UTF-8, ` +
      `at most ${NAMED_SLUG_MAX_BYTES} (${NAMED_SLUG_MAX_BYTES} ASCII letters, ~${
        Math.floor(NAMED_SLUG_MAX_BYTES / 3)
      } CJK characters); give a shorter name`;
  }
  return undefined;
}

/**
 * Bounds of a slug in UTF-8 bytes. A file name takes at most 255 bytes (ext4, APFS, NTFS in
 * UTF-16 units, which a UTF-8 byte count bounds): `<slug>.md` and the atomic write's temp name
 * must fit, and a slug is also printed in banners and commands. So every slug dump writes is at
 * most {@link MAX_SLUG_BYTES}; a name may take {@link NAMED_SLUG_MAX_BYTES} of that, the rest is room
 * for a `-2`, `-3`, … suffix.
 */
export const MAX_SLUG_BYTES = 200;
/** The longest slug a name may give, leaving room for a collision suffix. */
export const NAMED_SLUG_MAX_BYTES = 180;

/**
 * The slug of an unnamed dump: `<branch with / → ->-<YYYY-MM-DDTHH-MM-SSZ>`; a long branch is
 * cut (never the stamp) so the slug stays within {@link NAMED_SLUG_MAX_BYTES}.
 */
export function unnamedSlug(branch: string | undefined, now: Date): string {
  const stamp = `-${slugStamp(now)}`;
  const base = branch && branch !== "none" && branch !== "detached"
    ? branch.replaceAll("/", "-").replaceAll("\\", "-").replace(/\.{2,}/g, ".").replace(/^\.+/, "")
    : "detached";
  // The cut may leave a trailing `.` or `-` (or a `.` before the stamp's `-`): harmless in a
  // file name, but trimmed for a tidy slug.
  const cut = truncateUtf8(base, NAMED_SLUG_MAX_BYTES - stamp.length).replace(/[.-]+$/, "");
  return `${cut || "detached"}${stamp}`;
}

/** The outcome of choosing a slug. */
export type SlugChoice = { slug: string } | { error: string };

/**
 * The slug a dump writes to: from `name` (refused names give `error`), a ready `base` (a
 * draft's), or unnamed from the branch and `now`; an existing slug gets `-2`, `-3`, … within
 * {@link MAX_SLUG_BYTES} unless `force` (which overwrites).
 */
export function chooseSlug(opts: {
  name?: string;
  base?: string;
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
  } else if (opts.base !== undefined) {
    base = opts.base;
  } else {
    base = unnamedSlug(opts.branch, opts.now);
  }
  if (opts.force || !opts.exists(base)) return { slug: base };
  for (let n = 2;; n++) {
    const suffix = `-${n}`;
    const candidate = truncateUtf8(base, MAX_SLUG_BYTES - suffix.length) + suffix;
    if (!opts.exists(candidate)) return { slug: candidate };
  }
}
