/**
 * The one way the MCP server reaches the store's modes: a run of the CLI's dispatcher with a
 * captured output, given by lib/cli/mcp.ts (lib/ never imports lib/cli/). Every tool and the
 * `restore` prompt go through it, so they write, check, redact and word their errors exactly as
 * the CLI does.
 * @module
 */

/** What a run of the CLI printed, and its exit code (lib/errors.ts `EXIT`). */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Where and how one CLI run happens. */
export interface CliWhere {
  /** The working directory the run starts from (the project's, lib/mcp/project.ts). */
  cwd: string;
  /** The environment the run sees. */
  env: (name: string) => string | undefined;
  /** Its stdin (`dump`'s sections). */
  stdin?: string;
}

/** Runs `session.ts <argv>`; resolves with what it printed. */
export type Cli = (argv: string[], where: CliWhere) => Promise<CliRun>;

/**
 * `cli` with its runs one at a time: two tool calls at once would otherwise interleave in one
 * process (the CLI's fault point and its locks are per process); the order is the calls'.
 */
export function oneAtATime(cli: Cli): Cli {
  let last: Promise<unknown> = Promise.resolve();
  return (argv, where) => {
    const next = last.then(() => cli(argv, where));
    last = next.catch(() => {});
    return next;
  };
}
