/**
 * What `park`, `drop` and `sweep` share at the CLI edge: turning a failed store edit into a
 * clear message and exit 1, and showing parked items one per line.
 * @module
 */

import { type Context, EXIT, NotFoundError, UsageError } from "./context.ts";
import { LockTimeoutError } from "../fs/lock.ts";
import type { ParkedItem } from "../parked/parked.ts";

/**
 * Reports an IO failure of an edit (lock timeout, read-only store, full disk)
 * as one line and exit 1; usage errors and anything unexpected are rethrown.
 */
export function ioFailure(ctx: Context, err: unknown, note = "PARKED.md is unchanged"): number {
  if (err instanceof UsageError || err instanceof NotFoundError) throw err;
  if (
    err instanceof LockTimeoutError ||
    err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotFound ||
    err instanceof Deno.errors.NotADirectory || err instanceof Deno.errors.IsADirectory ||
    (err instanceof Error && /os error|no space|read-only/i.test(err.message))
  ) {
    ctx.err(`${err.message} (${note})`);
    return EXIT.notFound;
  }
  throw err;
}

/** One parked item as a line: `slug — summary (raised YYYY-MM-DD)`. */
export function itemLine(item: ParkedItem): string {
  const raised = item.raised ? ` (raised ${item.raised})` : "";
  return `${item.slug} — ${item.summary}${raised}`;
}
