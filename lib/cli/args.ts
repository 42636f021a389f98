/**
 * Argument handling shared by every CLI mode: `node:util` parseArgs in strict mode, the flags
 * every mode takes (`--help`, `--dir DIR`), per-mode help text, and usage errors that name the
 * supported flags. Modes whose words are payload (`park`, `drop`) parse only their own flags and
 * keep every other word, `--no-verify` included, as payload.
 *
 * `node:util` is imported only when the arguments need it: loading it (and the Node polyfills it
 * pulls in) costs a quick mode (`list`, `recall`) a measurable share of its start-up budget, and
 * the usual arguments — plain words, known flags — parse the same without it ({@link quickParse},
 * property-tested against parseArgs).
 * @module
 */

import { UsageError } from "../errors.ts";
import type { Context } from "./context.ts";

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

/** What a mode accepts, and how its help reads. */
export interface ModeSpec {
  /** The mode's name, e.g. `evidence`. */
  mode: string;
  /** The synopsis after `session.ts`, e.g. `evidence [--json] [--since 8h]`. */
  usage: string;
  /** One line saying what the mode does. */
  summary: string;
  /** The mode's own flags (`--help` and `--dir` are added to every mode). */
  flags: Record<string, FlagDef>;
  /** How many positional words the mode accepts (default 0); ignored for payload modes. */
  maxPositionals?: number;
  /** Words are payload: only exact known flags are parsed, everything else is kept in order. */
  payload?: boolean;
  /** Extra help lines (examples, notes). */
  notes?: string[];
}

/** The parsed arguments of one mode. */
export interface ParsedArgs {
  /** Values of the mode's flags; absent flags are undefined. */
  flags: Record<string, string | boolean | undefined>;
  /** Positional words (payload words for payload modes). */
  positionals: string[];
  /** `--dir DIR`, when given. */
  dir?: string;
}

/** The flags every mode takes. */
export const COMMON_FLAGS: Record<string, FlagDef> = {
  dir: {
    type: "string",
    value: "DIR",
    help: "the project root holding .claude/state/session (default: found from the cwd)",
  },
  help: { type: "boolean", short: "h", help: "show this help and exit" },
};

function allFlags(spec: ModeSpec): Record<string, FlagDef> {
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

/**
 * Parses `args` for a mode; "help" when `--help` was asked for. Throws {@link UsageError} for an
 * unknown flag, a missing or unexpected flag value, or too many positional words.
 */
export async function parseMode(spec: ModeSpec, args: string[]): Promise<ParsedArgs | "help"> {
  if (spec.payload) return parsePayload(spec, args);
  const flags = allFlags(spec);
  const parsed = quickParse(flags, args) ?? await nodeParse(spec, flags, args);
  const values = parsed.values;
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

/** Flag values and positional words, as parseArgs returns them. */
export interface RawArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

async function nodeParse(
  spec: ModeSpec,
  flags: Record<string, FlagDef>,
  args: string[],
): Promise<RawArgs> {
  const { parseArgs } = await import("node:util");
  try {
    const parsed = parseArgs({
      args,
      options: Object.fromEntries(
        Object.entries(flags).map(([name, def]) => [
          name,
          def.short ? { type: def.type, short: def.short } : { type: def.type },
        ]),
      ),
      strict: true,
      allowPositionals: true,
    });
    return { values: parsed.values as RawArgs["values"], positionals: parsed.positionals };
  } catch (err) {
    throw usageError(spec, describeParseError(err));
  }
}

/**
 * What `parseArgs` (strict, positionals allowed) returns, without loading it, for the arguments
 * a quick mode is normally given: words that do not start with `-`, known boolean `--name`, and
 * known string `--name VALUE` / `--name=VALUE`. Undefined for anything else (short flags, `--`,
 * unknown flags, a value that looks like a flag, a missing value): parseArgs then decides,
 * errors included.
 */
export function quickParse(flags: Record<string, FlagDef>, args: string[]): RawArgs | undefined {
  const values: Record<string, string | boolean | undefined> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg[0] !== "-") {
      positionals.push(arg);
      continue;
    }
    if (arg[1] !== "-") return undefined;
    const eq = arg.indexOf("=");
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (name === "" || !Object.hasOwn(flags, name)) return undefined;
    if (flags[name].type === "boolean") {
      if (eq >= 0) return undefined;
      values[name] = true;
    } else if (eq >= 0) values[name] = arg.slice(eq + 1);
    else {
      const value = args[i + 1];
      if (value === undefined || value[0] === "-") return undefined;
      values[name] = value;
      i++;
    }
  }
  return { values, positionals };
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
function parsePayload(spec: ModeSpec, args: string[]): ParsedArgs | "help" {
  if (args[0] === "--help" || args[0] === "-h") return "help";
  const flags = allFlags(spec);
  const values: Record<string, string | boolean | undefined> = {};
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      words.push(...args.slice(i + 1));
      break;
    }
    const m = /^--([A-Za-z][A-Za-z0-9-]*)(?:=([\s\S]*))?$/.exec(arg);
    // Own properties only: `--toString` or `--constructor` must not find Object.prototype's.
    const def = m && m[1] !== "help" && Object.hasOwn(flags, m[1]) ? flags[m[1]] : undefined;
    if (!m || !def) {
      words.push(arg);
      continue;
    }
    if (def.type === "boolean") {
      if (m[2] !== undefined) throw usageError(spec, `flag --${m[1]} takes no value`);
      values[m[1]] = true;
    } else {
      const value = m[2] ?? args[++i];
      if (value === undefined) throw usageError(spec, `flag --${m[1]} needs a value`);
      values[m[1]] = value;
    }
  }
  return finish(spec, values, words);
}

function finish(
  spec: ModeSpec,
  values: Record<string, string | boolean | undefined>,
  positionals: string[],
): ParsedArgs {
  const dir = values.dir as string | undefined;
  if (dir !== undefined && dir.trim() === "") {
    throw usageError(spec, "flag --dir needs a directory");
  }
  const { dir: _dir, help: _help, ...flags } = values;
  return { flags, positionals, dir };
}

/**
 * Parses a mode's arguments in a mode's `run`: prints the help and returns undefined when
 * `--help` was asked for (the mode then exits 0); usage mistakes throw {@link UsageError}.
 */
export async function parseOrHelp(
  spec: ModeSpec,
  args: string[],
  ctx: Context,
): Promise<ParsedArgs | undefined> {
  const parsed = await parseMode(spec, args);
  if (parsed === "help") {
    ctx.out(helpText(spec));
    return undefined;
  }
  return parsed;
}
