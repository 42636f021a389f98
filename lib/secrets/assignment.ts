/**
 * Secret-named assignments: a value given to a name that says it is a secret, in the shapes
 * environment files, shells, JSON, YAML and code write it: `API_KEY=…`, `export SECRET=…`,
 * `"password": "…"`, `token: …`, `--password=…`, `--password …`, `db.password = '…'`, JSON inside
 * a JSON string (`\"token\": \"…\"`, as transcripts carry it). Only the value is replaced; the
 * name and quotes stay, so the line still says what was there.
 *
 * A name says "secret" when one of its words (split at `_ - .` and camelCase) is password,
 * passwd, passphrase, pwd, pass, secret, token, credential(s), auth, authorization or apikey, or is
 * "key" after api, access, private, secret, auth, signing, encryption, master, client or app, or
 * glues one of the longer ones to a qualifier (`PGPASSWORD`, `APITOKEN`, `SECRETKEY`); and its last
 * word is not one that names something about the secret (`_id`, `_url`, `_file`, `_count`,
 * `max_tokens`, `…Options` …), nor its first one that asks about it (`isToken`, `hasPassword`). No
 * maintained rule set has this (secretlint's preset has no generic rule), so it is written here,
 * with the false positives measured in its tests.
 *
 * The value must look like a credential: 8 characters or more, not a reference (`$X`, `${{ … }}`,
 * `%X%`, `{{ x }}`, `process.env.X`), not a placeholder (`<redacted>`, `your-token-here`,
 * `xxxxxxxx`, `********`), not a number, a version, a path, a boolean; unquoted, not code (an
 * identifier, a member path, a call, an index, a parenthesized expression, a URL without
 * credentials: `getToken`, `options.apiKey`, `jwt.encode(payload, key)`); quoted, not text (words
 * without a digit, or four words or more) nor a constant's name (`"TOKEN_STRING"`).
 * @module
 */

import { isPlaceholder, isReference } from "./_values.ts";
import { escapable, type Rule, type Span } from "./rules.ts";

/** The words of a secret's name. */
export const SECRET_WORDS: ReadonlySet<string> = new Set([
  "password",
  "passwd",
  "passphrase",
  "pwd",
  "pass",
  "secret",
  "token",
  "credential",
  "credentials",
  "auth",
  "authorization",
  "apikey",
]);

/** Words before "key" that make it a secret's name. */
const KEY_QUALIFIERS = new Set([
  "api",
  "access",
  "private",
  "secret",
  "auth",
  "signing",
  "encryption",
  "master",
  "client",
  "app",
]);

/** Last words that name something about a secret rather than hold it. */
const ABOUT_WORDS = new Set([
  "id",
  "ids",
  "name",
  "names",
  "type",
  "kind",
  "url",
  "uri",
  "endpoint",
  "path",
  "file",
  "filename",
  "dir",
  "location",
  "length",
  "len",
  "count",
  "size",
  "limit",
  "ttl",
  "expiry",
  "expires",
  "expiration",
  "timeout",
  "method",
  "methods",
  "result",
  "server",
  "servers",
  "message",
  "strings",
  "header",
  "prefix",
  "suffix",
  "env",
  "var",
  "field",
  "ref",
  "arn",
  "version",
  "format",
  "mode",
  "policy",
  "scope",
  "scopes",
  "usage",
  "budget",
  "hint",
  "label",
  "placeholder",
  "required",
  "enabled",
  "reset",
  "stdin",
  "options",
  "opts",
  "config",
  "settings",
  "params",
  "processor",
  "formatter",
  "provider",
  "handler",
  "factory",
  "creator",
]);

/**
 * A word that glues a secret's word to what it qualifies, as environment variables do
 * (`PGPASSWORD`, `APITOKEN`, `SECRETKEY`, `authtoken`): ends in one of the longer secret words, or
 * in "key" after a qualifier. Not `pass`, `pwd` or `auth` (bypass, OLDPWD, oauth).
 */
const GLUED =
  /^[a-z0-9]+(?:password|passwd|passphrase|secret|token|credentials?|apikey)$|^(?:api|access|private|secret|auth|signing|encryption|master|client|app)key$/;

/** True when the assignment's `name` says its value is a secret. */
export function isSecretName(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(
    /([A-Z]+)([A-Z][a-z])/g,
    "$1 $2",
  )
    .toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== "");
  if (words.length === 0 || ABOUT_WORDS.has(words[words.length - 1])) return false;
  if (QUESTION_WORDS.has(words[0]) && words.length > 1) return false;
  return words.some((w, i) =>
    SECRET_WORDS.has(w) || GLUED.test(w) ||
    (w === "key" && i > 0 && KEY_QUALIFIERS.has(words[i - 1]))
  );
}

/**
 * An unquoted value that is code, not a credential: an identifier or member path of letters
 * (`getToken`, `options.apiKey`), a call or an index on one (`require(`, `jwt.encode(payload`,
 * `lexer.Next(`, `tokens[i`, `Options>(`; a member path may hold digits), a parenthesized
 * expression or an arrow function's parameters (`(payload) =>`), or a URL without credentials (a
 * password in a URL is url-password's).
 */
const EXPRESSION =
  /^(?:[A-Za-z_$][A-Za-z_$]*(?:\??\.[A-Za-z_$][\w$]*)*(?:[(\[<>].*)?|[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+[(\[<>].*|\(.*|[a-z][a-z0-9+.-]*:\/\/[^@\s]*)$/s;

/** A quoted value that names something: a constant or an environment variable (`TOKEN_STRING`). */
const CONSTANT_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/** First words of a name that holds a flag or a check about a secret (`isToken`, `hasPassword`). */
const QUESTION_WORDS = new Set(["is", "has", "should", "can", "needs", "was"]);

/** True when `value`, given to a secret's name, is a credential rather than a stand-in or code. */
export function isSecretValue(value: string, quoted: boolean): boolean {
  if (value.length < 8 || isReference(value) || isPlaceholder(value)) return false;
  if (/^v?[0-9][0-9.]*$/.test(value)) return false;
  if (/^(?:\/|~\/|\.\.?\/)/.test(value)) return false;
  if (quoted) {
    // Words without a digit are text (`"Token usage – "`, `"top secret"`), four or more a sentence.
    const words = value.trim().split(/\s+/).length;
    return words < 4 && (words === 1 || /[0-9]/.test(value)) && !CONSTANT_NAME.test(value);
  }
  return !EXPRESSION.test(value);
}

// A name, optionally quoted (or quoted with `\"` inside a JSON string), then `=`, `:`, `:=` or
// `=>`, spaces or tabs around it but never a line break (a YAML key ending its line opens a map);
// or a long flag (`--password PW`), then spaces.
// Sticky: tried only where a name holds a word of a secret's name (TRIGGER), which is ~10x faster
// on 100 KB of JSON than trying it at every position.
const NAME_THEN_OPERATOR = escapable(
  /(?<![A-Za-z0-9_])(\\?["']?)(-{0,2}[A-Za-z_][A-Za-z0-9_.-]{0,80})\1(?:[ \t]*(:=|=>|=|:)[ \t]*|(?<=(?<![^ \t])--[A-Za-z0-9_.-]+)[ \t]+(?=[^\s-]))/y,
);

/** Where a secret's name may be: a part of one of its words (isSecretName decides). */
export const TRIGGER = /pass|pwd|secret|token|credential|auth|key/gi;

/** A character a name may hold. */
function isNameChar(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") ||
    c === "_" || c === "." || c === "-";
}

/** The name-then-operator match around the trigger word at `hit`, if there is one. */
function nameAround(text: string, hit: number): RegExpExecArray | null {
  let start = hit;
  while (start > 0 && hit - start < 82 && isNameChar(text[start - 1])) start--;
  if (text[start - 1] === "\\") start++; // an escape's letter (`\n` in a JSON string) ends there
  const quoted = text[start - 1] === '"' || text[start - 1] === "'"
    ? (text[start - 2] === "\\" && text[start - 1] === '"' ? start - 2 : start - 1)
    : start;
  for (const at of quoted === start ? [start] : [quoted, start]) {
    NAME_THEN_OPERATOR.lastIndex = at;
    const m = NAME_THEN_OPERATOR.exec(text);
    if (m !== null) return m;
  }
  return null;
}

/** An unquoted value: up to white space, a quote or one of `,;&)}]\`. */
const UNQUOTED = /[^\s"'`,;&)}\]\\]+/y;

/**
 * The value of an assignment starting at `at`: its span and whether it was quoted (on its line,
 * a backslash escaping the next character), else up to {@link UNQUOTED}'s end; undefined when
 * there is none.
 */
export function valueAt(
  text: string,
  at: number,
): { start: number; end: number; quoted: boolean } | undefined {
  const c = text[at];
  if (c === undefined || c === "=" || c === ">" || c === "<" && text[at + 1] === "=") {
    return undefined;
  }
  const quote = c === "\\" && text[at + 1] === '"'
    ? '\\"'
    : c === '"' || c === "'" || c === "`"
    ? c
    : "";
  const start = at + quote.length;
  if (quote !== "") {
    const eol = text.indexOf("\n", start);
    for (let i = start, limit = eol < 0 ? text.length : eol; i < limit; i++) {
      if (quote === '\\"' ? text.startsWith(quote, i) : text[i] === quote) {
        return { start, end: i, quoted: true };
      }
      if (text[i] === "\\") i++;
    }
  }
  UNQUOTED.lastIndex = start;
  const m = UNQUOTED.exec(text);
  return m === null ? undefined : { start, end: start + m[0].length, quoted: false };
}

/** The rule for secret-named assignments; it runs after every shaped rule (rules.ts). */
export const secretAssignment: Rule = {
  kind: "secret-assignment",
  find(text) {
    const spans: Span[] = [];
    TRIGGER.lastIndex = 0;
    for (let hit = TRIGGER.exec(text); hit !== null; hit = TRIGGER.exec(text)) {
      const m = nameAround(text, hit.index);
      if (m === null || !isSecretName(m[2])) continue;
      const value = valueAt(text, m.index + m[0].length);
      if (value === undefined) continue;
      if (isSecretValue(text.slice(value.start, value.end), value.quoted)) {
        spans.push([value.start, value.end]);
      }
      TRIGGER.lastIndex = Math.max(TRIGGER.lastIndex, value.end);
    }
    return spans;
  },
};
