/**
 * What a sync carries is text: handovers, PARKED.md and dropped.jsonl, in UTF-8 without a NUL
 * byte. A remote file that is not text is refused before anything is written, naming it (merged,
 * a binary PARKED.md would become garbage items, and the next push would carry them on); a local
 * one is refused before a push sends it, so no store puts on the ref what every pull refuses.
 * @module
 */

import { FailureError } from "../errors.ts";
import { REMOTE_REF } from "./git.ts";
import { notText } from "../text/utf8.ts";

/** `bytes` of `path` in the remote's ref, refused unless they are text. */
export function remoteText(remote: string, path: string, bytes: Uint8Array): Uint8Array {
  const why = notText(bytes);
  if (why === undefined) return bytes;
  throw new FailureError(
    `the remote "${remote}"'s ${REMOTE_REF} holds ${path}, which is not text (${why}); ` +
      `nothing was changed. Remove it there, or clear the shared store ` +
      `("git push ${remote} :${REMOTE_REF}") and push again from a good copy`,
  );
}

/** `bytes` of the store's file `name`, refused unless they are text (a push sends none else). */
export function localText(name: string, bytes: Uint8Array): Uint8Array {
  const why = notText(bytes);
  if (why === undefined) return bytes;
  throw new FailureError(
    `this store's ${name} is not text (${why}); a push carries only text, so nothing was ` +
      `pushed or changed. Fix or remove the file, then push again`,
  );
}
