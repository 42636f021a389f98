/**
 * The exact commands this project tells people and agents to run: the CLI with its
 * least-privilege Deno flags, and the hook as `install` registers it.
 * @module
 */

/** Deno permission flags the CLI needs: its store and the project (read/write), git, env. */
export const CLI_FLAGS = ["--allow-read", "--allow-write", "--allow-env", "--allow-run=git"];

/** Absolute filesystem path of a file next to this project's entry scripts. */
export function projectFile(name: string): string {
  // The hook builds its recall command with this on every restore: a plain string operation on
  // `import.meta.dirname` skips URL parsing (~0.25 ms cold, ~1 % of the hook's budget).
  const dir = import.meta.dirname?.replaceAll("\\", "/");
  if (dir) return dir.slice(0, dir.lastIndexOf("/") + 1) + name;
  const url = new URL(`../${name}`, import.meta.url);
  const path = decodeURIComponent(url.pathname);
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
}

/** Quotes a shell word only when it needs it. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The shell command that runs `session.ts` with `args`. */
export function cliCommand(...args: string[]): string {
  return ["deno", "run", ...CLI_FLAGS, projectFile("session.ts"), ...args].map(shellQuote)
    .join(" ");
}
