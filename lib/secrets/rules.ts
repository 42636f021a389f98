/**
 * The shapes of well-known credentials, one rule each, in the order {@link redact} applies them.
 *
 * Where secretlint's recommended preset (13.1.0) has a rule for a shape, the pattern here is its
 * pattern (noted per rule), sometimes widened (future lengths, more prefixes) or narrowed to keep
 * false positives out; the shapes it does not cover (JWTs, GCP API keys, AWS access key ids, which
 * it leaves off by default, OpenAI keys without the `T3BlbkFJ` marker, passwords in any URL scheme,
 * bearer tokens) are written the same way. Why the preset itself is not loaded: mod.ts.
 *
 * Every pattern is bounded on both sides by a non-word character, so a shape inside a longer
 * base64 or hex run (integrity strings, digests, code) never matches; a `-` before a token's
 * prefix is a boundary (`notes-glpat-….txt`, a slug), since a prefix is a word of its own, and stays on one line
 * except the PEM block's, so the line-by-line redactor (stream.ts) sees what {@link redact} sees.
 * @module
 */

import { characterClasses, isPlaceholder, isReference, MARK } from "./_values.ts";

/** A stable name for each kind of secret: what `[redacted:<kind>]` and the counts say. */
export type SecretKind =
  | "private-key"
  | "jwt"
  | "aws-secret-key"
  | "aws-access-key"
  | "gcp-api-key"
  | "github-token"
  | "gitlab-token"
  | "npm-token"
  | "slack-webhook"
  | "slack-token"
  | "anthropic-key"
  | "openai-key"
  | "stripe-key"
  | "url-password"
  | "bearer-token"
  | "cli-password"
  | "basic-auth"
  | "session-cookie"
  | "secret-assignment";

/** A range `[start, end)` of a text to replace. */
export type Span = [number, number];

/** One rule: a kind, and where in a text its secrets are. */
export interface Rule {
  kind: SecretKind;
  /** Non-overlapping spans in ascending order. */
  find(text: string): Span[];
}

/**
 * `pattern` with its leading `(?<![…])` (not preceded by a character of the token's alphabet)
 * made escape-aware: never right after a backslash (the match would eat an escape's letter and
 * break the JSON around it), and also after an escape's letter (`\\n`, `\\t`, `\\r`): inside a JSON string (a
 * transcript line) a token at the start of a line follows an escaped newline.
 */
export function escapable(pattern: RegExp): RegExp {
  const source = pattern.source.replace(
    /^\(\?<!\[([^\]]*)\]\)/,
    (_, set) => `(?:(?<![\\\\${set}])|(?<=\\\\[nrt]))`,
  );
  return new RegExp(source, pattern.flags);
}

/** A rule from one global pattern: the whole match, or its group `value` when it has one. */
export function shaped(kind: SecretKind, pattern: RegExp, keep?: (value: string) => boolean): Rule {
  // `d`: the indices of the `value` group, where the value alone is to be replaced.
  const escaped = escapable(new RegExp(pattern.source, pattern.flags + "d"));
  return {
    kind,
    find(text) {
      const spans: Span[] = [];
      for (const m of text.matchAll(escaped)) {
        const value = m.groups?.value ?? m[0];
        if (keep !== undefined && !keep(value)) continue;
        const [start, end] = m.indices!.groups?.value ?? m.indices![0]!;
        spans.push([start, end]);
      }
      return spans;
    },
  };
}

/** The part of a token after its fixed prefix is random, not a placeholder. */
function randomAfter(prefix: RegExp): (value: string) => boolean {
  return (value) => !isPlaceholder(value.replace(prefix, ""));
}

// PEM private keys: the whole block, from BEGIN to its END (within 64 KB, key material only
// between), or, cut short, through the base64 and header lines that follow; a BEGIN line with no
// key material after it (a mention, `...`) stays. Lines end in a newline or, inside a JSON string (a
// transcript, a GCP service-account file), in an escaped `\n`. A line may carry a prefix (`> `
// quoted, `     2→` numbered as Claude Code's Read tool shows a file, YAML's indentation). secretlint-rule-privatekey matches
// only the BEGIN line, or whole blocks of 100+ base64 characters.
const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----/g;
const PEM_WINDOW = 65_536;
const LINE_BREAK = /\r?\n|(?:\\+r)?\\+n/g;
const PEM_HEADER = /^[A-Za-z][A-Za-z0-9-]*: [^\n\\]*$/;
/** A body line's key material, and what may follow it where a quoted string ends (`"`, `',`). */
const PEM_BASE64 = /^([A-Za-z0-9+\/=]+)(?:["'`,;]*)$/;

/** How much key material (base64 characters) a block must hold: fewer is a mention or a stand-in. */
const PEM_MIN_MATERIAL = 32;

/**
 * The base64 characters of a PEM body, or -1 when it holds anything else: headers
 * (`Proc-Type: …`), blank lines and line breaks (real, escaped, or spaces) are allowed.
 */
function pemMaterial(body: string): number {
  const lines = body.replace(/(?:\\+r)?\\+n/g, "\n").split("\n")
    .filter((line) => !/^[A-Za-z][A-Za-z0-9-]*: /.test(line));
  const rest = lines.join("");
  return /^[A-Za-z0-9+\/=\s]*$/.test(rest) ? rest.replace(/[\s=]/g, "").length : -1;
}

/**
 * What a body line may carry before its key material: blanks (YAML), a line number and its mark
 * (`     2→`, `12:`, `12|`), quote and comment marks (`> `, `# `, `// `, ` * `).
 */
const PEM_LINE_PREFIX =
  /^[ \t]*(?:[0-9]+[ \t]*(?:\u2192|:|\|)?[ \t]*)?(?:(?:>|#|\/\/|\*|;)[ \t]*)*/;

/**
 * The end of a block begun at `from` (after its BEGIN line's marker), read line by line, each line
 * stripped of its prefix ({@link PEM_LINE_PREFIX}): through its END `marker`, else through the last line of key material (cut
 * short); with how much material it holds.
 */
function pemLines(text: string, from: number, marker: string): [number, number] {
  let end = from;
  let material = 0;
  LINE_BREAK.lastIndex = from;
  for (let br = LINE_BREAK.exec(text); br !== null && br.index - from < PEM_WINDOW;) {
    const start = br.index + br[0].length;
    const next = LINE_BREAK.exec(text);
    const stop = next === null ? text.length : next.index;
    const line = text.slice(start, stop);
    const content = line.slice(PEM_LINE_PREFIX.exec(line)![0].length);
    if (content.startsWith(marker)) {
      return [start + line.length - content.length + marker.length, material];
    }
    const base64 = PEM_BASE64.exec(content);
    if (base64 !== null) {
      material += base64[1].replace(/=/g, "").length;
      end = start + line.length - content.length + base64[1].length;
    } else if (!PEM_HEADER.test(content) && content !== "") break;
    br = next;
  }
  return [end, material];
}

const privateKey: Rule = {
  kind: "private-key",
  find(text) {
    const spans: Span[] = [];
    PEM_BEGIN.lastIndex = 0;
    for (let m = PEM_BEGIN.exec(text); m !== null; m = PEM_BEGIN.exec(text)) {
      const start = m.index;
      let end = start + m[0].length;
      const marker = `-----END ${m[1]}PRIVATE KEY${m[2] ?? ""}-----`;
      const close = text.indexOf(marker, end);
      const material = close >= 0 && close - start <= PEM_WINDOW
        ? pemMaterial(text.slice(end, close))
        : -1;
      if (material >= 0) {
        // A whole block: BEGIN, nothing but key material, END.
        if (material < PEM_MIN_MATERIAL) continue;
        end = close + marker.length;
      } else {
        // Its lines prefixed, cut short, or its END beyond prose.
        const [last, held] = pemLines(text, end, marker);
        if (held < PEM_MIN_MATERIAL) continue;
        end = last;
      }
      spans.push([start, end]);
      PEM_BEGIN.lastIndex = end;
    }
    return spans;
  },
};

/** A JWT: three base64url parts whose first decodes to a JSON object with an `alg`. */
function isJwtHeader(token: string): boolean {
  const part = token.slice(0, token.indexOf("."));
  try {
    const header = JSON.parse(atob(part.replaceAll("-", "+").replaceAll("_", "/")));
    return typeof header === "object" && header !== null && typeof header.alg === "string";
  } catch {
    return false;
  }
}

// Not in secretlint. `ey` is how the base64 of a JSON object (`{"`, `{ `) begins; after a `/` (a
// branch, a path) it may begin, since its header must decode to JSON with an `alg`.
const jwt = shaped(
  "jwt",
  /(?<![A-Za-z0-9_.+])ey[A-Za-z0-9_-]{8,}\.ey[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*(?![A-Za-z0-9_\/+=-])/g,
  isJwtHeader,
);

// An AWS secret access key, 40 characters, where its context says it is one: after a name that
// says so (secretlint-rule-aws's pattern, escaped quotes allowed),
// or on the same line as an access key id (raw or already redacted).
const AWS_SECRET_NAMED =
  /(?:AWS|aws|Aws)?_?(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)(?:\\?["'])?[ \t]*(?::|=>|=)[ \t]*(?:\\?["'])?(?<value>[A-Za-z0-9\/+=]{40})(?![A-Za-z0-9\/+=])/g;
const AWS_KEY_ID = escapable(
  /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/,
);
const AWS_SECRET_BARE = escapable(
  /(?<![A-Za-z0-9\/+=_-])[A-Za-z0-9\/+]{40}(?![A-Za-z0-9\/+=_-])/g,
);

/** The lines of `text` with their offsets, a line ending at a newline or an escaped one. */
function lines(text: string): [number, string][] {
  const out: [number, string][] = [];
  let from = 0;
  for (const m of text.matchAll(/\r?\n|(?:\\+r)?\\+n/g)) {
    out.push([from, text.slice(from, m.index)]);
    from = m.index! + m[0].length;
  }
  out.push([from, text.slice(from)]);
  return out;
}

const awsSecretNamed = shaped("aws-secret-key", AWS_SECRET_NAMED, (v) => !isPlaceholder(v));

const awsSecretKey: Rule = {
  kind: "aws-secret-key",
  find(text) {
    const spans = awsSecretNamed.find(text);
    if (!AWS_KEY_ID.test(text) && !text.includes(`${MARK}aws-access-key]`)) return spans;
    // A line ends at a newline or, inside a JSON string, at an escaped one.
    for (const [from, line] of lines(text)) {
      if (AWS_KEY_ID.test(line) || line.includes(`${MARK}aws-access-key]`)) {
        for (const m of line.matchAll(AWS_SECRET_BARE)) {
          // Mixed case and a digit or a slash: a git hash (hex) or a word never is.
          if (characterClasses(m[0]) < 3 && !/[\/+]/.test(m[0])) continue;
          if (isPlaceholder(m[0])) continue;
          const start = from + m.index!;
          if (!spans.some(([s, e]) => s <= start && start < e)) spans.push([start, start + 40]);
        }
      }
    }
    return spans.sort((a, b) => a[0] - b[0]);
  },
};

// Lookbehinds after a literal, never first: V8 then scans for the literal (~10x faster on 100 KB).
const BEARER =
  /earer(?<=\b[Bb]earer)[ \t]+(?<value>[A-Za-z0-9._~+\/-]{16,}=*)(?![A-Za-z0-9._~+\/=-])/g;

// URL credentials, any scheme: the password only, scheme, user and host kept. secretlint has
// this for http(s)/ftp with `[-A-Za-z0-9_]` passwords and for database URLs (whole URL). No
// backslash in user or password: inside a JSON string it starts an escape, and a match must not
// reach across an escaped newline (stream.ts cuts long lines there). A `#` is taken as part of a
// password (people write them unencoded), a `/` or `?` ends it (a path, a query).
const URL_PASSWORD =
  /:\/\/(?<=[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/)[^\s:\/?#@"'<>\\]*:(?<value>[^\s\/?"'<>\\]+)@(?=[A-Za-z0-9\[])/g;

/** Every shaped rule, in the order they run; secret-named assignments come after (assignment.ts). */
export const SHAPED_RULES: readonly Rule[] = [
  privateKey,
  jwt,
  // secretlint-rule-github: classic and fine-grained, lengths widened for future tokens.
  shaped(
    "github-token",
    /(?<![A-Za-z0-9_])(?:(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9_]{36,251}|github_pat_[A-Za-z0-9_]{60,244})(?![A-Za-z0-9_])/g,
    randomAfter(/^(?:gh._|github_pat_)/),
  ),
  // secretlint-rule-gitlab (glpat), plus GitLab's other documented token prefixes.
  shaped(
    "gitlab-token",
    /(?<![A-Za-z0-9_])gl(?:pat|dt|rt|ptt|cbt|soat|ft)-[A-Za-z0-9_-]{20,128}(?![A-Za-z0-9_-])/g,
    randomAfter(/^gl[a-z]+-/),
  ),
  // secretlint-rule-npm.
  shaped(
    "npm-token",
    /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g,
    randomAfter(/^npm_/),
  ),
  // secretlint-rule-slack (incoming webhooks), plus workflow webhooks.
  shaped(
    "slack-webhook",
    /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/T[A-Za-z0-9_]{1,40}\/[A-Za-z0-9_]{1,40}\/[A-Za-z0-9_\/]{1,80}/g,
    (v) => !isPlaceholder(v.slice(v.lastIndexOf("/") + 1)),
  ),
  // secretlint-rule-slack.
  shaped(
    "slack-token",
    /(?<![A-Za-z0-9_])(?:xox[abposr]|xapp)-(?:\d-)?(?:[A-Za-z0-9]{1,40}-)+[A-Za-z0-9]{1,40}(?![A-Za-z0-9_-])/g,
    (v) => v.length >= 20 && !isPlaceholder(v.slice(5)),
  ),
  // secretlint-rule-anthropic wants `sk-ant-api0N-` and 90–128 characters ending in AA; any
  // `sk-ant-<type>-` (admin, oat) and any length from 20 here.
  shaped(
    "anthropic-key",
    /(?<![A-Za-z0-9_])sk-ant-[a-z]{2,8}\d{0,3}-[A-Za-z0-9_-]{20,200}(?![A-Za-z0-9_-])/g,
    randomAfter(/^sk-ant-[a-z0-9]+-/),
  ),
  // secretlint-rule-openai wants the T3BlbkFJ marker, which project and service keys need not have.
  shaped(
    "openai-key",
    /(?<![A-Za-z0-9_])sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,250}|[A-Za-z0-9]{32,200})(?![A-Za-z0-9_-])/g,
    (v) => characterClasses(v.slice(3)) >= 2 && randomAfter(/^sk-(?:[a-zA-Z]+-)?/)(v),
  ),
  // secretlint-rule-stripe (secret and restricted keys; publishable keys are public), plus
  // webhook signing secrets.
  shaped(
    "stripe-key",
    /(?<![A-Za-z0-9_])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}|whsec_[A-Za-z0-9]{24,})(?![A-Za-z0-9_])/g,
    randomAfter(/^(?:[a-z]+_)+/),
  ),
  // Not in secretlint's preset.
  shaped(
    "gcp-api-key",
    /(?<![A-Za-z0-9_])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g,
    randomAfter(/^AIza/),
  ),
  // secretlint-rule-aws (off there by default: enableIDScanRule), AWS's documented example kept.
  shaped(
    "aws-access-key",
    /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    (v) => !v.includes("EXAMPLE") && !isPlaceholder(v.slice(4)),
  ),
  // After the access key ids: a secret on their line is one.
  awsSecretKey,
  shaped(
    "url-password",
    URL_PASSWORD,
    (v) => !isReference(v) && !isPlaceholder(v),
  ),
  // `Authorization: Bearer <token>` whatever the token's shape (a JWT is caught before).
  shaped(
    "bearer-token",
    BEARER,
    (v) => characterClasses(v) >= 2 && /[0-9]/.test(v) && !isReference(v) && !isPlaceholder(v),
  ),
];

const AWS_KEY_PREFIXES = ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"];

/**
 * For each shaped kind, literals one of which every match holds: a rule whose literals are all
 * absent from a text is not run on it. Most texts hold few of them, so most rules never run
 * (nor compile) on a text. The tests check every kind's true positives
 * through {@link redact}, so a gate that missed a shape would fail them.
 */
export const GATES: Readonly<Partial<Record<SecretKind, readonly string[]>>> = {
  "private-key": ["-----BEGIN "],
  jwt: [".ey"],
  "github-token": ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
  "gitlab-token": ["glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glsoat-", "glft-"],
  "npm-token": ["npm_"],
  "slack-webhook": ["hooks.slack.com/"],
  "slack-token": ["xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xapp-"],
  "anthropic-key": ["sk-ant-"],
  "openai-key": ["sk-"],
  "stripe-key": ["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"],
  "gcp-api-key": ["AIza"],
  "aws-access-key": AWS_KEY_PREFIXES,
  "aws-secret-key": [...AWS_KEY_PREFIXES, `${MARK}aws-access-key]`, "ccess", "CCESS"],
  "url-password": ["://"],
  "bearer-token": ["earer"],
};
