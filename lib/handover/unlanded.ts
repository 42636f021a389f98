/**
 * The file `sweep` leaves behind, `<root>/.temp/session/unlanded.md`: where it is, and the stamp
 * line that says when it was swept — written by sweep.ts, read back by `dump` to say whether the
 * session swept before composing. Apart from sweep.ts so a reader loads no sweep source.
 * @module
 */

/** Where sweep writes its table, relative to the project root. */
export const UNLANDED_REL = ".temp/session/unlanded.md";

/** The stamp line of a sweep at `created` (ISO 8601 UTC) of `root`. */
export function sweptLine(created: string, root: string, git: boolean): string {
  return `Swept ${created} in ${root}${git ? "" : " (not a git repository)"}.`;
}

/** When the sweep whose file is `text` ran (its stamp line's ISO 8601 stamp), if it says. */
export function sweptAt(text: string): string | undefined {
  return /^Swept (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z) in /m.exec(text)?.[1];
}
