/**
 * Credentials in the command lines and HTTP headers users paste: a password given to a command by
 * its short flag (`curl -u user:pw`, `mysql -pPW`, `sshpass -p PW`, `docker login -p PW`), HTTP
 * basic credentials (`Authorization: Basic …`), and cookie values in a `Cookie` or `Set-Cookie`
 * header or curl's `-b` / `--cookie`. A password given to a secret-named long flag
 * (`--password PW`, `--token=…`) is a secret-named assignment (assignment.ts).
 *
 * A flag's meaning depends on its command (`-p` is a port, a parent directory, a profile…), so
 * each shape is looked for only after its command on the same line.
 * @module
 */

import { characterClasses, isPlaceholder, isReference } from "./_values.ts";
import { type Rule, type SecretKind, shaped, type Span } from "./rules.ts";

/** A value a user typed for a password: not a reference or a stand-in, 6 characters or more. */
function typed(value: string): boolean {
  return value.length >= 6 && !isReference(value) && !isPlaceholder(value);
}

/** One rule of `kind` from several: their spans together, in order. */
function anyOf(kind: SecretKind, rules: Rule[]): Rule {
  return {
    kind,
    find: (text) => rules.flatMap((rule) => rule.find(text)).sort((a, b) => a[0] - b[0]),
  };
}

/**
 * A pattern for `flag` after one of `commands` on the same line (a line ends at a newline or, inside
 * a JSON string, at an escaped one, where stream.ts may cut), then its value, quoted or not (the
 * quote, group 1, closes it), `lead` between them.
 */
function after(commands: string, flag: string, lead = ""): RegExp {
  const value = String.raw`[^\s"'\\-][^\s"'\\]*`;
  const rest = String.raw`(?:[^\n\\]|\\[^nr])*?`;
  return new RegExp(
    String
      .raw`(?<![A-Za-z0-9_])(?:${commands})\b${rest}[ \t]${flag}(["']?)${lead}(?<value>${value})\1`,
    "g",
  );
}

const cliPassword = anyOf("cli-password", [
  // curl and wget's `-u` / `--user` `user:password`.
  shaped(
    "cli-password",
    after(
      "curl|wget",
      String.raw`(?:-u|--user)(?:[ \t]+|=)?`,
      String.raw`[^\s:"'@\/\\-][^\s:"'@\/\\]*:`,
    ),
    typed,
  ),
  // The MySQL and MariaDB clients' `-pPASSWORD` (glued: `-p PW` would prompt and take PW for a
  // database).
  shaped(
    "cli-password",
    after("mysql(?:dump|admin|import|sh|check)?|mariadb(?:-dump|-admin|-import|-check)?", "-p"),
    typed,
  ),
  shaped("cli-password", after("sshpass", String.raw`-p[ \t]*`), typed),
  // A registry login's `-p`.
  shaped(
    "cli-password",
    after(
      String.raw`(?:docker|podman|nerdctl|buildah|skopeo|helm|oras)(?:[ \t]+registry)?[ \t]+login`,
      String.raw`-p[ \t]+`,
    ),
    typed,
  ),
]);

/** True when `value` is the base64 of `user:password`, as basic credentials are. */
function isBasicCredential(value: string): boolean {
  try {
    const decoded = atob(value);
    const colon = decoded.indexOf(":");
    return colon >= 0 && typed(decoded.slice(colon + 1)) && /^[\x20-\x7e]*$/.test(decoded);
  } catch {
    return false;
  }
}

// Lookbehinds after a literal, never first: V8 then scans for the literal.
const basicAuth = shaped(
  "basic-auth",
  /uthorization(?<=[Aa]uthorization)(?:\\?["'])?[ \t]*[:=][ \t]*(?:\\?["'])?[Bb]asic[ \t]+(?<value>[A-Za-z0-9+\/]{8,}={0,2})(?![A-Za-z0-9+\/=])/g,
  isBasicCredential,
);

// A cookie header, to its line's end or its closing quote: then each `name=value` pair in it.
const COOKIE_HEADER =
  /(?:ookie(?<=[Cc]ookie)[ \t]*:|(?:(?<![\\A-Za-z0-9_])|(?<=\\[nrt]))curl\b(?:[^\n\\]|\\[^nr])*?[ \t](?:-b|--cookie)(?:[ \t]+|=))[ \t]*(["']?)(?<pairs>[^\n"'\\]*)/dg;
const COOKIE_PAIR = /(?:^|[;,][ \t]*)[^=;,\s]+=(?<value>[^;,\s]+)/dg;

const sessionCookie: Rule = {
  kind: "session-cookie",
  find(text) {
    const spans: Span[] = [];
    for (const header of text.matchAll(COOKIE_HEADER)) {
      const from = header.indices!.groups!.pairs![0];
      for (const pair of header.groups!.pairs!.matchAll(COOKIE_PAIR)) {
        const value = pair.groups!.value!;
        // A random value (16+ characters of letters and digits), not a setting (`theme=dark`).
        if (value.length < 16 || characterClasses(value) < 2 || !/[0-9]/.test(value)) continue;
        if (isReference(value) || isPlaceholder(value)) continue;
        const [start, end] = pair.indices!.groups!.value!;
        spans.push([from + start, from + end]);
      }
    }
    return spans;
  },
};

/** The command-line and header rules, in the order they run (after rules.ts's, before assignments). */
export const COMMAND_RULES: readonly Rule[] = [cliPassword, basicAuth, sessionCookie];

/** Their gates, as rules.ts `GATES` (redact.ts `RULE_GATES` joins them). */
export const COMMAND_GATES: Readonly<Partial<Record<SecretKind, readonly string[]>>> = {
  "cli-password": ["curl", "wget", "mysql", "mariadb", "sshpass", "login"],
  "basic-auth": ["Authorization", "authorization"],
  "session-cookie": ["ookie", "curl"],
};
