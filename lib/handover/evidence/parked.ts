/**
 * The parked-items collector: a store's open PARKED.md bullets as `## Outstanding` items.
 * @module
 */

import type { ParkedItem } from "../../parked/grammar.ts";
import { readParked } from "../../parked/file.ts";
import type { Store } from "../../store/store.ts";
import type { OpenItem } from "./model.ts";

/** The open parked items of a store as `## Outstanding` bullets (a missing PARKED.md: none). */
export async function openParked(store: Store): Promise<OpenItem[]> {
  try {
    return openItems((await readParked(store)).items);
  } catch {
    return []; // an unreadable PARKED.md must not stop a dump
  }
}

/** The items of a PARKED.md text as open items, each bullet on one line without its marker. */
export function openItems(items: ParkedItem[]): OpenItem[] {
  return items.map((item) => ({
    slug: item.slug,
    text: item.text.split("\n").map((l) => l.trim()).join(" ").replace(/^[-*+][ \t]+/, ""),
    source: "parked" as const,
  }));
}
