/**
 * Argument handling shared by every CLI mode: `node:util` parseArgs, the flags every mode takes
 * (`--help`, `--dir DIR`), per-mode help text, and usage errors that name the supported flags.
 * A mode's spec ({@link modeSpec}) types what it parses: a `string` flag reads as
 * `string | undefined`, a `boolean` one as `boolean | undefined`, so no mode casts; a flag is one
 * line of its spec.
 * Strict modes parse in strict mode. Modes whose words are payload (`park`, `drop`) read
 * parseArgs' tokens: their own flags are taken, and every other word, `--no-verify` included, is
 * kept as payload.
 * @module
 */

import { parseArgs } from "node:util";
import { UsageError } from "../errors.ts";
import type { Context } from "./run_context.ts";

/** One flag of a mode. */
export interface FlagDef {
  /** `boolean` flags take no value; `string` flags take exactly one. */
  type: "boolean" | "string";
  /** A one-letter alias, e.g. `h`. */
  short?: string;
  /** The placeholder shown in help for a string flag's value, e.g. `DIR`. */
  value?: string;
  /** One line for `--help`. */
  help: string;
}

/** A mode's own flags, by name (without the dashes). */
export type FlagSpecs = Readonly<Record<string, FlagDef>>;

/** What parsing `F` gives: each flag's value by its type, undefined when absent. */
export type FlagValues<F extends FlagSpecs> = {
  [K in keyof F]?: F[K]["type"] extends "string" ? string : boolean;
};

/** What a mode accepts, and how its help reads. */
export interface ModeSpec<F extends FlagSpecs = FlagSpecs> {
  /** The mode's name, e.g. `evidence`. */
  mode: string;
  /** The synopsis after `session.ts`, e.g. `evidence [--json] [--since 8h]`. */
  usage: string;
  /** One line saying what the mode does. */
  summary: string;
  /** The mode's own flags (`--help` and `--dir` are added to every mode). */
  flags: F;
  /** How many positional words the mode accepts (default 0); ignored for payload modes. */
  maxPositionals?: number;
  /** Words are payload: only exact known flags are parsed, everything else is kept in order. */
  payload?: boolean;
  /** Extra help lines (examples, notes). */
  notes?: string[];
}

/**
 * A mode's spec, its flags' types kept: `export const SPEC = modeSpec({ …, flags: { … } })`, and
 * `parseOrHelp(SPEC, …).flags.since` is a `string | undefined`.
 */
export function modeSpec<const F extends FlagSpecs>(spec: ModeSpec<F>): ModeSpec<F> {
  return spec;
}

/** The parsed arguments of one mode. */
export interface ParsedArgs<F extends FlagSpecs = FlagSpecs> {
  /** Values of the mode's flags; absent flags are undefined. */
  flags: FlagValues<F>;
  /** Positional words (payload words for payload modes). */
  positionals: string[];
  /** `--dir DIR`, when given. */
  dir?: string;
}

/** The flags every mode takes. */
export const COMMON_FLAGS: FlagSpecs = {
  dir: {
    type: "string",
    value: "DIR",
    help: "the project root holding .claude/state/session (default: found from the cwd)",
  },
  help: { type: "boolean", short: "h", help: "show this help and exit" },
};

function allFlags(spec: ModeSpec): FlagSpecs {
  return { ...spec.flags, ...COMMON_FLAGS };
}

function flagLabel(name: string, def: FlagDef): string {
  const short = def.short ? `-${def.short}, ` : "";
  return `${short}--${name}${def.type === "string" ? ` ${def.value ?? "VALUE"}` : ""}`;
}

/** The supported flags of a mode, for error messages: `--json, --since SPEC, --dir DIR, --help`. */
export function supportedFlags(spec: ModeSpec): string {
  return Object.entries(allFlags(spec))
    .map(([name, def]) => `--${name}${def.type === "string" ? ` ${def.value ?? "VALUE"}` : ""}`)
    .join(", ");
}

/** The `--help` text of a mode. */
export function helpText(spec: ModeSpec): string {
  const flags = Object.entries(allFlags(spec));
  const labels = flags.map(([name, def]) => flagLabel(name, def));
  const width = Math.max(...labels.map((l) => l.length));
  return [
    `Usage: session.ts ${spec.usage}`,
    "",
    spec.summary,
    "",
    "Options:",
    ...flags.map(([, def], i) => `  ${labels[i].padEnd(width)}  ${def.help}`),
    ...(spec.notes?.length ? ["", ...spec.notes] : []),
  ].join("\n");
}

function usageError(spec: ModeSpec, message: string): UsageError {
  return new UsageError(
    `${message}. Supported flags of ${spec.mode}: ${supportedFlags(spec)}. ` +
      `Run "session.ts ${spec.mode} --help" for details.`,
  );
}

/** parseArgs' option table for a mode's flags. */
function options(flags: FlagSpecs) {
  return Object.fromEntries(
    Object.entries(flags).map(([name, def]) => [
      name,
      def.short ? { type: def.type, short: def.short } : { type: def.type },
    ]),
  );
}

/**
 * Parses `args` for a mode; "help" when `--help` was asked for. Throws {@link UsageError} for an
 * unknown flag, a missing or unexpected flag value, or too many positional words.
 */
export function parseMode<F extends FlagSpecs>(
  spec: ModeSpec<F>,
  args: string[],
): ParsedArgs<F> | "help" {
  if (spec.payload) return parsePayload(spec, args);
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: options(allFlags(spec)),
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw usageError(spec, describeParseError(err));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return "help";
  const max = spec.maxPositionals ?? 0;
  if (parsed.positionals.length > max) {
    const extra = parsed.positionals.slice(max).map((w) => `"${w}"`).join(" ");
    throw usageError(
      spec,
      max === 0 ? `takes no words, got ${extra}` : `takes at most ${max} word(s); extra: ${extra}`,
    );
  }
  return finish(spec, values, parsed.positionals);
}

function describeParseError(err: unknown): string {
  const code = (err as { code?: string })?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const m = /Unknown option '([^']+)'/.exec(message);
    return `unknown flag "${m ? m[1] : "?"}"`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const m = /Option '(--?[A-Za-z0-9-]+)/.exec(message);
    return message.includes("argument missing")
      ? `flag ${m ? m[1] : ""} needs a value`
      : `flag ${m ? m[1] : ""} takes no value`;
  }
  return message.split("\n", 1)[0];
}

/**
 * Payload modes: `--name VALUE`, `--name=VALUE` and boolean `--name` are taken only for the
 * mode's own flags; `--help`/`-h` only as the first word; `--` ends flags; every other word,
 * whatever it looks like, is payload, in order.
 */
function parsePayload<F extends FlagSpecs>(
  spec: ModeSpec<F>,
  args: string[],
): ParsedArgs<F> | "help" {
  if (args[0] === "--help" || args[0] === "-h") return "help";
  const flags = allFlags(spec);
  const { tokens } = parseArgs({
    args,
    options: options(flags),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, string | boolean | undefined> = {};
  const words: string[] = [];
  let last = -1; // the word a short-flag group (`-ab`) came from, kept once
  for (const token of tokens) {
    if (token.kind === "positional") {
      words.push(token.value);
      continue;
    }
    if (token.kind === "option-terminator") continue;
    // Own properties only: `--toString` or `--constructor` must not find Object.prototype's.
    const def = token.name !== "help" && Object.hasOwn(flags, token.name)
      ? flags[token.name]
      : undefined;
    if (!def) {
      if (token.index !== last) words.push(args[token.index]);
      last = token.index;
      continue;
    }
    if (def.type === "boolean") {
      if (token.inlineValue) throw usageError(spec, `flag --${token.name} takes no value`);
      values[token.name] = true;
    } else {
      if (token.value === undefined) throw usageError(spec, `flag --${token.name} needs a value`);
      values[token.name] = token.value;
    }
  }
  return finish(spec, values, words);
}

/**
 * The parsed values as the mode's types: parseArgs (strict) or the payload reader gave each flag
 * a value of the type its FlagDef names, so the one widening of the values is here.
 */
function finish<F extends FlagSpecs>(
  spec: ModeSpec<F>,
  values: Record<string, string | boolean | undefined>,
  positionals: string[],
): ParsedArgs<F> {
  const dir = typeof values.dir === "string" ? values.dir : undefined;
  if (dir !== undefined && dir.trim() === "") {
    throw usageError(spec, "flag --dir needs a directory");
  }
  const { dir: _dir, help: _help, ...flags } = values;
  return { flags: flags as FlagValues<F>, positionals, dir };
}

/**
 * Parses a mode's arguments in a mode's `run`: prints the help and returns undefined when
 * `--help` was asked for (the mode then exits 0); usage mistakes throw {@link UsageError}.
 */
export function parseOrHelp<F extends FlagSpecs>(
  spec: ModeSpec<F>,
  args: string[],
  ctx: Context,
): ParsedArgs<F> | undefined {
  const parsed = parseMode(spec, args);
  if (parsed === "help") {
    ctx.out(helpText(spec));
    return undefined;
  }
  return parsed;
}
