/**
 * The CLI's dispatch table: each mode lives in its own module, loaded only when it runs (by a
 * computed specifier, see {@link load}), so a quick mode (`list`, `park`, `drop`) pays for
 * nothing it does not use. This is also the one place typed errors (lib/errors.ts) become a
 * message and an exit code.
 *
 * lib/cli/ is the CLI layer, and this doc is its map (it has no mod.ts: nothing imports the
 * folder as a whole). Besides this dispatcher:
 * - `<mode>.ts`: one leaf per entry of {@link MODES}, exporting `SPEC` (its flags and help) and
 *   `run`; a mode imports lib/ and the shared CLI files below, never another mode
 * - args.ts: flag parsing and `--help` from a mode's `SPEC`
 * - run_context.ts: the world a mode runs in (cwd, env, clock, stdin, output), the store for `--dir`,
 *   the docs lock
 * - scope_flags.ts: `--agent`, `--user`, `--local`, shared by install, uninstall and doctor
 * - any other non-mode file (flags.ts, confidence.ts, sync_run.ts) names in its module doc the
 *   modes that share it
 *
 * lib never imports lib/cli.
 * @module
 */

import { setFault } from "../fs/atomic.ts";
import { EXIT, isFsRefusal, isUnwritable, SessionError, UsageError } from "../errors.ts";
import { findStore } from "../store/store.ts";
import { adoptedLine } from "../sync/adopted_line.ts";
import type { Context } from "./run_context.ts";
import { redactedOutput } from "../secrets/lazy.ts";

/** A mode module: what every `lib/cli/<mode>.ts` exports. */
interface ModeModule {
  run: (args: string[], ctx: Context) => Promise<number>;
}

/**
 * Imports a mode's module. The specifier is computed on purpose: Deno builds the module graph of
 * every literal `import("…")` before the script starts, so literal specifiers here would make each run
 * resolve, read and hash every mode's modules and npm packages (docs/PERFORMANCE.md).
 * The CLI runs with read permission, so a runtime import needs nothing more.
 */
function load(path: string): Promise<ModeModule> {
  return import(import.meta.resolve(path));
}

/** One CLI mode: a summary for `--help` and its implementation, loaded lazily. */
export interface Mode {
  summary: string;
  run: () => Promise<(args: string[], ctx: Context) => Promise<number>>;
}

/** Every mode, in the order `--help` lists them. */
export const MODES: Record<string, Mode> = {};

MODES.dump = {
  summary: "write a handover from the agent's sections on stdin; point LATEST at it",
  run: async () => (await load("./dump.ts")).run,
};
MODES.recall = {
  summary: "print a handover (named, or LATEST) and mark it consumed",
  run: async () => (await load("./recall.ts")).run,
};
MODES.list = {
  summary: "remove expired handovers, then list handovers and parked items",
  run: async () => (await load("./list.ts")).run,
};
MODES.evidence = {
  summary: "what dump will use: branch, changed files, commits, artifacts, parked items",
  run: async () => (await load("./evidence.ts")).run,
};

MODES.park = {
  summary: "park an open loop in PARKED.md (the same slug updates it)",
  run: async () => (await load("./park.ts")).run,
};

MODES.drop = {
  summary: "drop the one parked item a query names (fuzzy), logged to dropped.jsonl",
  run: async () => (await load("./drop.ts")).run,
};

MODES.sweep = {
  summary: "numbered table of unlanded work, written to .temp/session/unlanded.md",
  run: async () => (await load("./sweep.ts")).run,
};

MODES.recover = {
  summary: "draft a handover from the transcript of a session that ended without a dump",
  run: async () => (await load("./recover.ts")).run,
};

MODES.push = {
  summary: "merge handovers and parked items into the git remote (refs/session/store)",
  run: async () => (await load("./push.ts")).run,
};
MODES.pull = {
  summary: "merge handovers and parked items from the git remote (refs/session/store)",
  run: async () => (await load("./pull.ts")).run,
};

MODES.search = {
  summary: "find handover sections, parked and dropped items holding every word (fuzzy too)",
  run: async () => (await load("./search.ts")).run,
};

MODES.statusline = {
  summary: "one status line from Claude Code's statusline JSON: pending handover, parked, context",
  run: async () => (await load("./statusline.ts")).run,
};

MODES.mcp = {
  summary: "serve the store over MCP on stdio: prompts, resources, tools (install --mcp)",
  run: async () => (await load("./mcp.ts")).run,
};

MODES.install = {
  summary: "register the restore hook for /clear (--user, --local)",
  run: async () => (await load("./install.ts")).run,
};
MODES.uninstall = {
  summary: "remove exactly the hook install added",
  run: async () => (await load("./uninstall.ts")).run,
};
MODES.doctor = {
  summary: "check Deno, the hook, the store and the gitignore",
  run: async () => (await load("./doctor.ts")).run,
};

/**
 * Other words for modes, from a user's vocabulary (what a user says: "save the session",
 * "restore it", "archive that item"). Each runs its mode exactly, flags and help included.
 */
export const ALIASES: Record<string, string> = {
  save: "dump",
  restore: "recall",
  load: "recall",
  archive: "drop",
};

/** The usage text listing every mode. */
export function usage(): string {
  const width = Math.max(...Object.keys(MODES).map((m) => m.length));
  const lines = Object.entries(MODES).map(([name, m]) => `  ${name.padEnd(width)}  ${m.summary}`);
  const aliases = Object.entries(ALIASES).map(([alias, mode]) => `${alias} = ${mode}`).join(", ");
  return [
    "Usage: session.ts <mode> [options]",
    "",
    "Modes:",
    ...lines,
    "",
    `Aliases: ${aliases}.`,
    "",
    "Every mode takes --help and --dir DIR (the project root holding .claude/state/session).",
  ].join("\n");
}

/** Runs the CLI with `args`; returns the exit code. Usage errors never show a stack trace. */
export async function main(args: string[], ctx: Context): Promise<number> {
  // Everything any mode prints is redacted on its way out (lib/secrets/lazy.ts).
  const output = redactedOutput(ctx.out, ctx.err);
  try {
    return await dispatch(args, { ...ctx, out: output.out, err: output.err });
  } finally {
    await output.flush();
  }
}

/**
 * A store left inside the linked worktree the CLI runs in moves into the repository's first
 * (lib/sync/adopt.ts), in one line. Where the repository's store cannot be written (a sandbox)
 * it stays, quietly: `dump` and `park` say where they write, and the next hook moves it.
 */
async function adoptHere(ctx: Context): Promise<void> {
  const store = findStore({ projectDir: ctx.env("CLAUDE_PROJECT_DIR"), cwd: ctx.cwd });
  if (store.stranded === undefined) return;
  try {
    const adopted = await (await import("../sync/adopt.ts")).adopt(store);
    if (adopted !== undefined) ctx.err(adoptedLine(adopted, store.dir));
  } catch (err) {
    if (!isUnwritable(err)) throw err;
  }
}

/** {@link main} with its output funnelled. */
async function dispatch(args: string[], ctx: Context): Promise<number> {
  const [mode, ...rest] = args;
  if (mode === undefined || mode === "--help" || mode === "-h" || mode === "help") {
    (mode === undefined ? ctx.err : ctx.out)(usage());
    return mode === undefined ? EXIT.usage : EXIT.ok;
  }
  const name = Object.hasOwn(ALIASES, mode) ? ALIASES[mode] : mode;
  const entry = Object.hasOwn(MODES, name) ? MODES[name] : undefined;
  if (!entry) {
    ctx.err(
      `session: unknown mode "${mode}". Supported modes: ${Object.keys(MODES).join(", ")} ` +
        `(aliases: ${Object.keys(ALIASES).join(", ")}).`,
    );
    ctx.err(`Run "session.ts --help" for usage.`);
    return EXIT.usage;
  }
  setFault(ctx.env("SESSION_FAULT"));
  try {
    await adoptHere(ctx);
    const run = await entry.run();
    return await run(rest, ctx);
  } catch (err) {
    // The one place errors become exit codes (lib/errors.ts): never a stack trace for them.
    if (err instanceof SessionError) {
      ctx.err(`session ${mode}: ${err.message}`);
      // A usage error's message lists the supported modes, whatever the mistake.
      if (err instanceof UsageError) ctx.err(`Supported modes: ${Object.keys(MODES).join(", ")}.`);
      return err.exitCode;
    }
    if (isFsRefusal(err)) {
      // Every write is atomic, so a refused write left the store's old files in place: say so
      // in one line rather than with a stack trace (a refused read changed nothing either).
      const unchanged = err instanceof Deno.errors.PermissionDenied ||
          err instanceof Deno.errors.NotFound
        ? ""
        : ". The store's files are unchanged (writes are atomic)";
      ctx.err(`session ${mode}: ${err.message}${unchanged}`);
      return EXIT.failure;
    }
    throw err;
  }
}
