/**
 * Typed errors that carry their exit code. Anything in lib/ may throw them; the CLI's dispatcher
 * (lib/cli/main.ts) is the one place that turns them into a message and an exit code, so no mode
 * returns a failure code of its own and no user mistake ever shows a stack trace.
 *
 * | class            | exit | meaning                                                        |
 * | ---------------- | ---- | -------------------------------------------------------------- |
 * | `UsageError`     | 2    | the call's words are wrong; the message names the fix           |
 * | `NotFoundError`  | 1    | what was asked for is not there (a slug, a transcript, a match) |
 * | `FailureError`   | 1    | it could not be done (refused, busy, invalid file); unchanged  |
 * | `AmbiguousError` | 3    | more than one thing fits; the message lists the closest         |
 *
 * A file-system refusal (read-only, full disk, permission) is recognised by
 * {@link isFsRefusal}, the one predicate for it, and exits 1 like a `FailureError`.
 * @module
 */

/** The exit codes of the CLI (docs/CLI.md, "Exit codes"). */
export const EXIT = { ok: 0, notFound: 1, failure: 1, usage: 2, ambiguous: 3 } as const;

/** An error the CLI reports as one line and exits with {@link SessionError.exitCode}. */
export class SessionError extends Error {
  /** The process's exit code for this error. */
  readonly exitCode: number;
  constructor(message: string, exitCode: number, options?: ErrorOptions) {
    super(message, options);
    this.exitCode = exitCode;
    this.name = new.target.name;
  }
}

/** The base of one kind of error: every instance exits with `exitCode`. */
function withExitCode(exitCode: number) {
  return class extends SessionError {
    constructor(message: string, options?: ErrorOptions) {
      super(message, exitCode, options);
    }
  };
}

/** A usage mistake: exit 2, with a message that names the fix. */
export class UsageError extends withExitCode(EXIT.usage) {}
/** Something asked for is not there: exit 1. */
export class NotFoundError extends withExitCode(EXIT.notFound) {}
/** Something could not be done (refused, busy, a file that cannot be edited safely): exit 1. */
export class FailureError extends withExitCode(EXIT.failure) {}
/** More than one thing fits the request equally: exit 3. */
export class AmbiguousError extends withExitCode(EXIT.ambiguous) {}

/**
 * True when the file system refused an operation: permission, a missing or wrong kind of path,
 * a read-only or full disk, or any OS error Deno reports with its `(os error N)` suffix.
 */
export function isFsRefusal(err: unknown): err is Error {
  return err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotFound ||
    err instanceof Deno.errors.NotADirectory || err instanceof Deno.errors.IsADirectory ||
    err instanceof Deno.errors.AlreadyExists ||
    (err instanceof Error && /\(os error \d+\)|no space|read-only/i.test(err.message));
}

/**
 * True when a write was refused for good — no permission (a sandbox's, Deno's grant) or a
 * read-only file system — rather than by a passing condition.
 */
export function isUnwritable(err: unknown): boolean {
  // NotCapable: Deno 2's refusal by its own permissions (PermissionDenied in older versions).
  const notCapable = (Deno.errors as Record<string, unknown>).NotCapable as
    | (new () => Error)
    | undefined;
  return err instanceof Deno.errors.PermissionDenied ||
    (notCapable !== undefined && err instanceof notCapable) ||
    (err instanceof Error && /read-only file system|\(os error (13|30)\)/i.test(err.message));
}

/**
 * Rethrows a refused file-system operation or a busy lock as a {@link FailureError} whose message
 * also says what stayed as it was (`note`, e.g. "PARKED.md is unchanged"); anything else as it is.
 */
export function failedLeaving(err: unknown, note: string): never {
  if (err instanceof UsageError || err instanceof NotFoundError || err instanceof AmbiguousError) {
    throw err;
  }
  if (err instanceof FailureError || isFsRefusal(err)) {
    throw new FailureError(`${(err as Error).message} (${note})`, { cause: err });
  }
  throw err;
}
