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

/** Environment variables the hook reads, and so the only ones it may see. */
export const HOOK_ENV = ["CLAUDE_PROJECT_DIR", "SESSION_NOW", "SESSION_DEBUG"];

/** The project root as the agent's shell sees it when the hook runs (user installs, plugin). */
export const PROJECT_DIR_VAR = "$CLAUDE_PROJECT_DIR";

/** Quotes a word for the shell keeping `$NAME` / `${NAME}` references live. */
export function shellQuoteExpanding(word: string): string {
  return /\$/.test(word) ? `"${word.replace(/["\\`]/g, "\\$&")}"` : shellQuote(word);
}

/**
 * The hook's Deno flags for `root`, as argv words: read on the project root (and on `code`, the
 * hook's own lib/ folder, when given), write on its store, the hook's three variables, nothing
 * else, never a prompt; `--no-config`, because the hook needs no import map and without it Deno
 * reads this project's deno.json, lock file and .npmrc on every start (~5 % of the hook's time);
 * and V8's `--no-lazy`, so the hook's functions are compiled with their module and kept in Deno's
 * code cache instead of compiled again on first call in every run (~5 % on an inject; an empty
 * script measures the same with or without it). docs/PERFORMANCE.md has the measurements.
 */
export function hookFlags(root: string, code?: string): string[] {
  return [
    "--no-config",
    "--no-prompt",
    "--v8-flags=--no-lazy",
    `--allow-read=${root}${code === undefined ? "" : `,${code}`}`,
    `--allow-write=${root}/.claude/state/session`,
    `--allow-env=${HOOK_ENV.join(",")}`,
  ];
}

/**
 * The hook command: `deno run` with {@link hookFlags}, reading the lib/ folder beside `script`:
 * the hook loads its general path by a computed specifier, which Deno checks against
 * `--allow-read` (a literal one would make Deno read that whole module graph on every start;
 * docs/PERFORMANCE.md). `root` may be `PROJECT_DIR_VAR` (resolved by the agent's shell at run
 * time) and `script` may hold a variable such as `${CLAUDE_PLUGIN_ROOT}`.
 */
export function hookCommand(script: string, root: string): string {
  const q = shellQuoteExpanding;
  return ["deno", "run", ...hookFlags(root, hookCodeDir(script)).map(q), q(script)].join(" ");
}

/** The lib/ folder beside the hook script `script`: what the hook reads of its own code. */
export function hookCodeDir(script: string): string {
  const slash = Math.max(script.lastIndexOf("/"), script.lastIndexOf("\\"));
  return `${slash < 0 ? "." : script.slice(0, slash)}/lib`;
}
