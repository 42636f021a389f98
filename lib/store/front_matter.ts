/**
 * The handover's front matter: a fixed schema of `key: value` lines between `---` fences at the
 * very start of the file. Only our own keys ({@link KEYS}) make a front matter: a body that opens
 * with a horizontal rule and then a line such as `Note: …` is body, all of it, never eaten.
 *
 * Why hand-written and not a YAML library: this reader sits on the SessionStart hook's hot path
 * (every `/clear`), where importing a YAML parser costs more than the whole budget; the schema is
 * ours (we write it), flat and scalar. The CLI uses the same reader so both always agree.
 * @module
 */

/** A document split into its front matter and body, byte-exactly. */
export interface Split {
  /** The front-matter fields, in file order (later duplicates win). */
  fields: Record<string, string>;
  /** Everything before the body: fences and field lines, exactly as in the file. */
  head: string;
  /** Everything after the closing fence's line ending, exactly as in the file. */
  body: string;
}

const FENCE = /^---[ \t]*$/;
const FIELD = /^([A-Za-z][A-Za-z0-9_-]*):[ \t]*(.*?)[ \t]*$/;
/**
 * The keys of our schema, the only ones a front matter may have.
 */
export const KEYS: readonly string[] = [
  "slug",
  "created",
  "consumed",
  "branch",
  "recovered",
  "from",
  "session",
  "worktree",
  "draft",
  "parent",
];
/** Front matter longer than this is not ours: treated as no front matter. */
const MAX_HEAD_LINES = 64;

/** Splits `text` into front matter and body; undefined when it has no well-formed front matter. */
export function splitFrontMatter(text: string): Split | undefined {
  let start = 0;
  if (text.charCodeAt(0) === 0xfeff) start = 1;
  const fields: Record<string, string> = {};
  let pos = start;
  let lineNo = 0;
  while (pos <= text.length && lineNo <= MAX_HEAD_LINES) {
    let end = text.indexOf("\n", pos);
    const next = end === -1 ? text.length : end + 1;
    if (end === -1) end = text.length;
    let line = text.slice(pos, end);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (lineNo === 0) {
      if (!FENCE.test(line)) return undefined;
    } else if (FENCE.test(line)) {
      if (Object.keys(fields).length === 0) return undefined;
      return { fields, head: text.slice(0, next), body: text.slice(next) };
    } else {
      const m = FIELD.exec(line);
      if (m && !KEYS.includes(m[1])) return undefined;
      if (m) fields[m[1]] = unquote(m[2]);
      else if (line.trim() !== "" && !line.trimStart().startsWith("#")) return undefined;
    }
    if (next === pos || end === text.length) break;
    pos = next;
    lineNo++;
  }
  return undefined;
}

function unquote(value: string): string {
  if (value.length >= 2) {
    const q = value[0];
    if ((q === '"' || q === "'") && value.at(-1) === q) return value.slice(1, -1);
  }
  return value;
}

/**
 * Flips `consumed: false` to `consumed: true` in the front matter, touching no other byte
 * (CRLF, quotes and everything else kept); undefined when there is no such line to flip. The line
 * flipped is the one {@link splitFrontMatter} reads (the last `consumed`), and the result is read
 * back: a document whose flip would not read as consumed is never reported as flipped, so a
 * caller that injects only after a flip injects exactly once.
 */
export function markConsumed(text: string): string | undefined {
  const split = splitFrontMatter(text);
  if (split?.fields.consumed !== "false") return undefined;
  let last: RegExpExecArray | undefined;
  for (const m of split.head.matchAll(/^consumed:[ \t]*(["']?)false\1[ \t]*\r?$/gm)) last = m;
  if (last === undefined) return undefined;
  const at = last.index + last[0].indexOf("false");
  const out = text.slice(0, at) + "true" + text.slice(at + "false".length);
  return splitFrontMatter(out)?.fields.consumed === "true" ? out : undefined;
}

/** Renders front matter from ordered fields with the given line ending. */
export function renderFrontMatter(fields: [string, string][], eol = "\n"): string {
  const lines = ["---", ...fields.map(([k, v]) => `${k}: ${v}`), "---"];
  return lines.join(eol) + eol;
}

/**
 * An agent session id as the `session:` front matter holds it: one plain word (Claude Code's are
 * UUIDs); anything else is left out, never written.
 */
export function sessionField(id: string | undefined): string | undefined {
  return id !== undefined && /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/.test(id) ? id : undefined;
}

/**
 * A session id a hidden file's name can carry as is: one the `session:` field may hold
 * ({@link sessionField}) without a `:`, which some file systems refuse.
 */
export function safeSessionId(id: string | undefined): id is string {
  return sessionField(id) !== undefined && !id!.includes(":");
}
