/**
 * The chains `parent:` makes. A session that started from a handover (its `.restored-<id>`
 * record, lib/store/latest.ts) dumps a handover whose front matter names that one as its parent,
 * so a long task's handovers link up across every `/clear`. This file owns walking them: a
 * handover's ancestors ({@link walkChain}, for `recall --chain`) and the forest of every stored
 * handover ({@link chainForest}, for `list --tree`). Each walk visits a slug once: a cycle in
 * hand-edited front matter ends it at the first slug seen again, and a parent that is not in the
 * store (expired, or never pulled) ends it too, said as such.
 * @module
 */

import { splitFrontMatter } from "./front_matter.ts";
import { isSafeSlug } from "./store.ts";

/** One handover of a chain, as stored. */
export interface Link {
  slug: string;
  /** Its front matter fields (empty when it has none). */
  fields: Record<string, string>;
  /** Its body, without front matter. */
  body: string;
}

/** Why a walk up the chain stopped. */
export type ChainEnd =
  /** The oldest handover names no parent: the chain starts there. */
  | { kind: "root" }
  /** The oldest names a parent the store does not hold (expired, never pulled, unreadable). */
  | { kind: "missing"; parent: string }
  /** The oldest names a parent already walked: a cycle in hand-edited front matter. */
  | { kind: "cycle"; parent: string };

/** A handover and its ancestors, newest (the one asked for) first. */
export interface Chain {
  links: Link[];
  end: ChainEnd;
}

/** The `parent:` a front matter names, when it is a slug a document could have. */
export function parentOf(fields: Record<string, string> | undefined): string | undefined {
  const parent = fields?.parent?.trim();
  return parent && isSafeSlug(parent) ? parent : undefined;
}

/**
 * Walks from `slug` (whose text is `text`) up its parents, reading each with `read` (undefined:
 * not in the store). Each slug once: the walk costs one read per ancestor and always ends.
 */
export function walkChain(
  slug: string,
  text: string,
  read: (slug: string) => string | undefined,
): Chain {
  const links: Link[] = [];
  const seen = new Set<string>();
  let at: { slug: string; text: string } | undefined = { slug, text };
  for (;;) {
    const split = splitFrontMatter(at.text);
    links.push({ slug: at.slug, fields: split?.fields ?? {}, body: split?.body ?? at.text });
    seen.add(at.slug);
    const parent = parentOf(split?.fields);
    if (parent === undefined) return { links, end: { kind: "root" } };
    if (seen.has(parent)) return { links, end: { kind: "cycle", parent } };
    const next = read(parent);
    if (next === undefined) return { links, end: { kind: "missing", parent } };
    at = { slug: parent, text: next };
  }
}

/** One node of the forest: a stored handover, or a parent the store does not hold. */
export interface TreeNode<E> {
  slug: string;
  /** The stored handover; absent for a parent the store does not hold. */
  entry?: E;
  /** Set on a node whose own parent is one of its descendants (hand-edited front matter). */
  cycle?: string;
  /** Its children, newest first. */
  children: TreeNode<E>[];
}

/**
 * Every handover in chains (pure): `entries` newest first; a child under its parent, children
 * newest first; the chains in the order of their newest handover. A parent the store does not
 * hold becomes a node without an entry, its children under it. Linear in the entries: each is
 * placed once, by iterative walks (no recursion, so a long chain cannot overflow the stack).
 */
export function chainForest<E extends { slug: string; parent?: string | null }>(
  entries: E[],
): TreeNode<E>[] {
  const bySlug = new Map(entries.map((e) => [e.slug, e]));
  const children = new Map<string, E[]>();
  for (const e of entries) {
    const parent = parentSlug(e);
    if (parent === undefined) continue;
    const siblings = children.get(parent);
    if (siblings) siblings.push(e);
    else children.set(parent, [e]);
  }
  const placed = new Set<string>();
  const forest: TreeNode<E>[] = [];
  for (const e of entries) {
    if (placed.has(e.slug)) continue;
    forest.push(grow(topOf(e, bySlug), bySlug, children, placed));
  }
  return forest;
}

/** The parent an entry names, when it is a slug a document could have and not its own. */
function parentSlug(e: { slug: string; parent?: string | null }): string | undefined {
  const parent = parentOf(e.parent == null ? undefined : { parent: e.parent });
  return parent === e.slug ? undefined : parent;
}

/** Where the chain of `e` starts: its oldest stored ancestor, or the parent the store lacks. */
function topOf<E extends { slug: string; parent?: string | null }>(
  e: E,
  bySlug: Map<string, E>,
): { slug: string; cycle?: string } {
  const path = new Set<string>([e.slug]);
  let at = e;
  for (;;) {
    const parent = parentSlug(at);
    if (parent === undefined) return { slug: at.slug };
    if (path.has(parent)) return { slug: at.slug, cycle: parent };
    const next = bySlug.get(parent);
    if (next === undefined) return { slug: parent };
    path.add(parent);
    at = next;
  }
}

/** The tree under `top`, each handover placed once. */
function grow<E extends { slug: string }>(
  top: { slug: string; cycle?: string },
  bySlug: Map<string, E>,
  children: Map<string, E[]>,
  placed: Set<string>,
): TreeNode<E> {
  const node = (slug: string): TreeNode<E> => {
    placed.add(slug);
    const entry = bySlug.get(slug);
    return entry === undefined ? { slug, children: [] } : { slug, entry, children: [] };
  };
  const root = node(top.slug);
  if (top.cycle !== undefined) root.cycle = top.cycle;
  const stack = [root];
  while (stack.length) {
    const parent = stack.pop()!;
    for (const child of children.get(parent.slug) ?? []) {
      if (placed.has(child.slug)) continue;
      const n = node(child.slug);
      parent.children.push(n);
      stack.push(n);
    }
  }
  return root;
}
