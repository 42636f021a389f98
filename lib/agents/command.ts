/**
 * The exact commands this project tells people and agents to run: the CLI with its
 * least-privilege Deno flags, and the hook as `install` registers it. Both start Deno through
 * the launcher `bin/with-deno` (POSIX sh), which finds Deno 2 where the agent's PATH may not
 * (`$DENO_INSTALL/bin`, `~/.deno/bin`) and turns a missing one into a message, not an error.
 * @module
 */

/**
 * Deno flags the CLI runs with: the permissions it needs (its store and the project read/write,
 * git, env), and nothing else: no V8 or Deno tuning flag, which a Deno whose engine lacks it
 * refuses to start on (docs/DECISIONS.md, "No engine flags").
 */
export const CLI_FLAGS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run=git",
];

/** Absolute filesystem path of a file next to this project's entry scripts. */
export function projectFile(name: string): string {
  // This module sits two folders below the entry scripts (lib/agents/).
  const dir = import.meta.dirname?.replaceAll("\\", "/");
  if (dir) return dir.slice(0, dir.lastIndexOf("/", dir.lastIndexOf("/") - 1) + 1) + name;
  const url = new URL(`../../${name}`, import.meta.url);
  const path = decodeURIComponent(url.pathname);
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
}

/** Quotes a shell word only when it needs it. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The launcher, relative to the checkout: every command below starts Deno through it. */
export const LAUNCHER = "bin/with-deno";

/**
 * The agents that read a hook's `additionalContext` only at the top level of its answer, not
 * under `hookSpecificOutput` (GitHub Copilot CLI 1.0.102, which shows no `systemMessage` either):
 * the hook answers them so (lib/hook/output.ts), and so does the launcher (`--flat`).
 */
export const FLAT_ANSWER: readonly string[] = ["copilot"];

/**
 * The words that start Deno through the launcher at `launcher` (already shell words), for a hook
 * of `event` (it answers for that event when no Deno is found; `flat`: in the shape of
 * {@link FLAT_ANSWER}) or for the CLI (no event). `sh` runs it, so a checkout without file modes
 * (a zip, Windows) serves too.
 */
export function launch(launcher: string, event?: string, flat = false): string[] {
  return [
    "sh",
    launcher,
    ...(event === undefined ? [] : ["--event", shellQuote(event)]),
    ...(flat ? ["--flat"] : []),
  ];
}

/** The shell command that runs `session.ts` with `args`. */
export function cliCommand(...args: string[]): string {
  return [
    ...launch(shellQuote(projectFile(LAUNCHER))),
    ...["run", ...CLI_FLAGS, projectFile("session.ts"), ...args].map(shellQuote),
  ].join(" ");
}

/**
 * {@link cliCommand} as a client runs it on its own, like a hook (Claude Code's status line): told
 * `event`, the launcher stays silent and exits 0 where there is no Deno.
 */
export function clientCommand(event: string, ...args: string[]): string {
  return [
    ...launch(shellQuote(projectFile(LAUNCHER)), event),
    ...["run", ...CLI_FLAGS, projectFile("session.ts"), ...args].map(shellQuote),
  ].join(" ");
}

/** Environment variables the hook reads, and so the only ones it may see. */
export const HOOK_ENV = ["CLAUDE_PROJECT_DIR", "SESSION_NOW", "SESSION_DEBUG"];

/** The variable Claude Code substitutes in a plugin's hooks/hooks.json: the plugin's checkout. */
export const PLUGIN_ROOT_VAR = "${CLAUDE_PLUGIN_ROOT}";

/**
 * The path Deno is granted for `path`. Deno splits every `--allow-*` list at commas and has no
 * escape for one (2.9.6: `,,` is refused as an empty path), so a path holding a comma is granted
 * as its nearest ancestor without one: the narrowest grant Deno can express (`doctor` says so).
 */
export function grantPath(path: string): string {
  const comma = path.indexOf(",");
  if (comma < 0) return path;
  const slash = Math.max(path.lastIndexOf("/", comma), path.lastIndexOf("\\", comma));
  if (slash <= 0) return "/";
  // A drive's root keeps its separator: a bare `C:` means that drive's current directory.
  return /^[A-Za-z]:$/.test(path.slice(0, slash)) ? path.slice(0, slash + 1) : path.slice(0, slash);
}

/** What the hook may read and write; `undefined` for a hook that serves every project. */
export interface HookGrant {
  /** The project root: the hook writes only its store. */
  root: string;
  /** The store it writes, when not `<root>/.claude/state/session` (a linked worktree's repository). */
  store?: string;
  /** More it writes: the stores older versions left inside linked worktrees, to move them. */
  writes?: string[];
  /** The highest directory the root rule may look in (the git top-level; default `root`). */
  top?: string;
  /**
   * More folders it reads, after its own code: the agent's transcripts, for the events that draft
   * or save from them (SessionEnd, PreCompact). Read only, like the rest.
   */
  also?: string[];
}

/**
 * The hook's Deno flags, as argv words. For one project: read on the directories the root rule
 * walks (up to the git top-level), on `code` (the hook's own lib/ folder) and on `grant.also` (the
 * agent's transcripts, for SessionEnd and PreCompact), write on the store.
 * With no project (`--user`, the plugin) the store is wherever the walk-up from the launch
 * directory leads, which no grant fixed ahead can name, so read and write are not limited by
 * path (the hook itself refuses a store that leads outside its project). Always: the hook's three
 * variables, nothing else, never a prompt; `--no-config`, because the hook needs no import map and
 * without it Deno reads this project's deno.json, lock file and .npmrc on every start (~5 % of the
 * hook's time). No V8 or Deno tuning flag, as for the CLI.
 */
export function hookFlags(grant: HookGrant | undefined, code?: string): string[] {
  const read = grant === undefined ? [] : [
    ...new Set(
      [grant.top ?? grant.root, ...(code === undefined ? [] : [code]), ...(grant.also ?? [])]
        .map(grantPath),
    ),
  ];
  return [
    "--no-config",
    "--no-prompt",
    grant === undefined ? "--allow-read" : `--allow-read=${read.join(",")}`,
    grant === undefined ? "--allow-write" : `--allow-write=${
      [
        ...new Set(
          [grant.store ?? `${grant.root}/.claude/state/session`, ...(grant.writes ?? [])].map(
            grantPath,
          ),
        ),
      ].join(",")
    }`,
    `--allow-env=${HOOK_ENV.join(",")}`,
  ];
}

/**
 * The hook command for `event`: the launcher beside `script` ({@link launch}), then `run` with
 * {@link hookFlags}, reading the lib/ folder beside `script`:
 * the hook loads each event's modules by a computed specifier, which Deno checks against
 * `--allow-read` (a literal one would make Deno read that whole module graph on every start;
 * docs/PERFORMANCE.md). Every word is single-quoted where it needs quoting, so no shell ever
 * expands a path; the one exception is a `script` under {@link PLUGIN_ROOT_VAR}, which Claude
 * Code substitutes itself.
 */
export function hookCommand(
  script: string,
  grant: HookGrant | undefined,
  event = "SessionStart",
  flat = false,
): string {
  const flags = hookFlags(grant, grant === undefined ? undefined : hookCodeDir(script));
  const word = (path: string) =>
    path.startsWith(`${PLUGIN_ROOT_VAR}/`)
      ? `"${PLUGIN_ROOT_VAR}"/${shellQuote(path.slice(PLUGIN_ROOT_VAR.length + 1))}`
      : shellQuote(path);
  const launcher = `${hookCodeDir(script).slice(0, -"lib".length)}${LAUNCHER}`;
  return [...launch(word(launcher), event, flat), "run", ...flags.map(shellQuote), word(script)]
    .join(" ");
}

/** The lib/ folder beside the hook script `script`: what the hook reads of its own code. */
export function hookCodeDir(script: string): string {
  const slash = Math.max(script.lastIndexOf("/"), script.lastIndexOf("\\"));
  return `${slash < 0 ? "." : script.slice(0, slash)}/lib`;
}
