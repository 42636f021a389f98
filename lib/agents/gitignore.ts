/**
 * Keeping the store out of git: does a `.gitignore` already ignore `.claude/state/`, and the text
 * with the line added. Pure; `git check-ignore` (when git is there) is the edge's business.
 * @module
 */

/** The line `install` adds. */
export const STATE_IGNORE = ".claude/state/";

/**
 * True when `text` ignores the state directory the way git reads it: the last line naming it (or
 * all of `.claude/`) decides, a `!` line re-includes it, and leading spaces are part of a pattern
 * (` .claude/state/` names another path), while trailing ones are not.
 */
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
  let ignored = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/[ \t]+$/, "");
    if (patterns.includes(line)) ignored = true;
    else if (line.startsWith("!") && patterns.includes(line.slice(1))) ignored = false;
  }
  return ignored;
}

/**
 * `text` with the state line appended (its line ending kept, every other byte as it was), or
 * unchanged when it already ignores the state; `force` appends even then (git, which knows more
 * than this reading, said it is not ignored).
 */
export function withStateIgnored(text: string, force = false): string {
  if (!force && ignoresState(text)) return text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const sep = text === "" || text.endsWith("\n") ? "" : eol;
  return `${text}${sep}${STATE_IGNORE}${eol}`;
}
