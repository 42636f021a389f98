/**
 * Keeping the store out of git: does a `.gitignore` already ignore `.claude/state/`, and the text
 * with the line added. Pure; `git check-ignore` (when git is there) is the edge's business.
 * @module
 */

/** The line `install` adds. */
export const STATE_IGNORE = ".claude/state/";

/** True when a line of `text` ignores the state directory (or all of `.claude/`). */
export function ignoresState(text: string): boolean {
  const patterns = [
    ".claude/state/",
    ".claude/state",
    "/.claude/state/",
    "/.claude/state",
    ".claude/",
    ".claude",
    "/.claude/",
    "/.claude",
  ];
  return text.split(/\r?\n/).some((line) => patterns.includes(line.trim()));
}

/** `text` with the state line appended (its line ending kept), or unchanged when already there. */
export function withStateIgnored(text: string): string {
  if (ignoresState(text)) return text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const sep = text === "" || text.endsWith("\n") ? "" : eol;
  return `${text}${sep}${STATE_IGNORE}${eol}`;
}
