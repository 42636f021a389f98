/**
 * One line of `doctor`'s report: what lib/agents/doctor.ts and lib/agents/trust.ts find and
 * lib/cli/doctor.ts prints. A file of its own so both finders share the type without importing
 * each other.
 * @module
 */

/** One finding: ok, a problem with its fix, or plain information. */
export interface Finding {
  status: "ok" | "fix" | "info";
  text: string;
}
