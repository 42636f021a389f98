/**
 * The fast path's secret check (lib/hook/fast.ts `suspectSecret`) against the redaction it stands
 * in for (lib/secrets/): every text redaction would change trips it, and handover prose does not.
 */
import assert from "node:assert/strict";
import {
  LONGER,
  maySecretValue,
  NAME_WORDS,
  suspectSecret,
  VALUE_ENDS,
  valueAt,
} from "../../lib/hook/fast.ts";
import { isSecretValue, SECRET_WORDS, TRIGGER } from "../../lib/secrets/assignment.ts";
import { GATES } from "../../lib/secrets/rules.ts";
import { redact, SECRET_KINDS } from "../../lib/secrets/redact.ts";
import type { SecretKind } from "../../lib/secrets/rules.ts";
import { handoverDoc } from "../../bench/fixtures.ts";
import { prng, textOf } from "../support/prng.ts";
import { BODY } from "../support/scratch.ts";
import { KINDS, Secrets } from "../secrets/_secrets.ts";
import { CONTROLS } from "../secrets/_controls.ts";

/** The contexts a secret is tried in: as written, in prose, quoted, in JSON, after escapes. */
function contexts(text: string): string[] {
  return [
    text,
    `note: ${text} (rotated)`,
    `- Deploy with \`${text}\`.`,
    JSON.stringify({ t: text }),
    JSON.stringify({ t: `line\n${text}\tnext` }),
    text.replaceAll("\n", "\r\n"),
    `"${text}"`,
    `'${text}',`,
  ];
}

Deno.test("fast check: its words are assignment.ts's trigger and secret words", () => {
  assert.equal(Object.keys(NAME_WORDS).join("|"), TRIGGER.source);
  assert.ok(TRIGGER.flags.includes("i"));
  const ours = Object.entries(NAME_WORDS).flatMap(([trigger, words]) => {
    for (const w of words) assert.ok(w.startsWith(trigger), `${w} does not begin with ${trigger}`);
    return words;
  });
  for (const [trigger, words] of Object.entries(NAME_WORDS)) {
    const next = words.filter((w) => w !== trigger).map((w) => w[trigger.length]);
    assert.equal(LONGER[trigger] ?? "", [...new Set(next)].join(""), trigger);
  }
  // `apikey` is checked as `key` after `api`; `key` needs a qualifier there, never here.
  assert.deepEqual(
    [...ours, "apikey"].sort(),
    [...SECRET_WORDS, "key"].sort(),
  );
});

Deno.test("fast check: every generated true positive of every kind trips it, in every context", () => {
  assert.deepEqual([...KINDS].sort(), [...SECRET_KINDS].sort(), "a kind without a generator");
  for (const seed of [1, 7, 1414, 2026]) {
    const gen = new Secrets(prng(seed));
    for (const kind of SECRET_KINDS) {
      for (let i = 0; i < 150; i++) {
        const s = gen.sample(kind);
        for (const text of contexts(s.text)) {
          if (redact(text).text === text) continue; // a context the rule itself declines
          assert.ok(suspectSecret(text), `${kind} not caught: ${JSON.stringify(text)}`);
        }
        assert.ok(redact(s.text).text !== s.text, `the generator's ${kind} is no true positive`);
      }
    }
  }
});

/** Random characters of `alphabet`, with an upper, a lower case letter and a digit first. */
function mixed(random: () => number, alphabet: string, n: number): string {
  const pick = (a: string) => a[Math.floor(random() * a.length)];
  let s = pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + pick("abcdefghijklmnopqrstuvwxyz") +
    pick("0123456789");
  while (s.length < n) s += pick(alphabet);
  return s;
}

Deno.test("fast check: every prefix rules.ts gates a token on, each redacted, trips it", () => {
  const random = prng(31);
  const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  // Kinds whose gate literals are prefixes of the token (the others are generated above).
  const inside: SecretKind[] = [
    "private-key",
    "jwt",
    "slack-webhook",
    "aws-secret-key",
    "url-password",
    "bearer-token",
    "secret-assignment",
  ];
  const prefixed = SECRET_KINDS.filter((kind) => !inside.includes(kind));
  for (const kind of prefixed) {
    for (const literal of GATES[kind]!) {
      const candidates = [
        literal + mixed(random, ALNUM, 35),
        literal + mixed(random, ALNUM, 36),
        literal + mixed(random, ALNUM, 48),
        literal + mixed(random, ALNUM, 70),
        literal + "123456789012-" + mixed(random, ALNUM, 24),
        literal + "api03-" + mixed(random, ALNUM, 95),
        literal + mixed(random, UPPER, 16).toUpperCase(),
        literal + "Q" + mixed(random, UPPER, 16).toUpperCase(),
      ];
      let redacted = 0;
      for (const candidate of candidates) {
        for (const text of contexts(candidate)) {
          if (!redact(text).counts[kind]) continue;
          redacted++;
          assert.ok(suspectSecret(text), `${kind} (${literal}) not caught: ${text}`);
        }
      }
      assert.ok(redacted > 0, `no candidate for ${kind}'s ${literal} is redacted: write one`);
    }
  }
});

Deno.test("fast check: any text redaction changes trips it (mutated true positives)", () => {
  const random = prng(2027);
  const gen = new Secrets(random);
  const noise = [
    "",
    " ",
    "\t",
    "\n",
    ":",
    "=",
    '"',
    "'",
    "\\",
    "_",
    "-",
    ".",
    "/",
    "@",
    "A",
    "z",
    "7",
    "é",
    "İ",
    "\u00a0",
  ];
  let changed = 0;
  for (let round = 0; round < 6_000; round++) {
    const kind = SECRET_KINDS[Math.floor(random() * SECRET_KINDS.length)];
    let text = contexts(gen.sample(kind).text)[Math.floor(random() * 8)];
    for (let m = 1 + Math.floor(random() * 3); m > 0; m--) {
      const at = Math.floor(random() * (text.length + 1));
      const c = noise[Math.floor(random() * noise.length)];
      const op = Math.floor(random() * 4);
      text = op === 0
        ? text.slice(0, at) + c + text.slice(at + 1)
        : op === 1
        ? text.slice(0, at) + c + text.slice(at)
        : op === 2
        ? text.slice(0, at) + text.slice(at + 1)
        : text.slice(0, at) + text.slice(at, at + 12).toLowerCase() + text.slice(at + 12);
    }
    if (redact(text).text === text) continue;
    changed++;
    assert.ok(suspectSecret(text), `not caught (${kind}): ${JSON.stringify(text)}`);
  }
  assert.ok(changed > 3_000, `only ${changed} mutated texts still held a secret`);
});

Deno.test("fast check: secret-named assignments in every shape the rule reads", () => {
  const random = prng(88);
  const names = [
    "API_KEY",
    "apiKey",
    "APIKEY",
    "x.apikey",
    "db.password",
    "--password",
    "clientSecret",
    "MY_AWS_SECRET_ACCESS_KEY",
    "secretaccesskey",
    "authToken",
    "GITHUB_TOKEN",
    "Credentials",
    "PASSWD",
    "pwd",
    "passphrase",
    "Authorization",
    "private_key",
    "signing-key",
  ];
  const operators = ["=", ": ", " = ", ":=", " => ", "\t:\t", ":"];
  const values = [
    mixed(random, "abcdefghijklmnopqrstuvwxyz0123456789", 12),
    mixed(random, "abcdefghijklmnopqrstuvwxyz0123456789!#%^*+=-_", 30),
    "Zq8vN3xL0pR7tY2k",
    "correct horse battery",
    "s3cr3t-v4lu3",
    "aB1/+=" + mixed(random, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 34),
  ];
  let redacted = 0;
  for (const name of names) {
    for (const op of operators) {
      for (const value of values) {
        const shapes = [
          `${name}${op}${value}`,
          `export ${name}${op}'${value}'`,
          `\\n${name}${op}${value}`,
          `"${name}"${op}"${value}"`,
          `'${name}'${op}'${value}'`,
          `\\"${name}\\"${op}\\"${value}\\"`,
          `${name}${op}\`${value}\``,
        ];
        for (const shape of shapes) {
          for (const text of contexts(shape)) {
            if (redact(text).text === text) continue;
            redacted++;
            assert.ok(suspectSecret(text), JSON.stringify(text));
          }
        }
      }
    }
  }
  assert.ok(redacted > 1_000, `only ${redacted} assignments were redacted`);
});

Deno.test("fast check: an AWS secret key on the line of a key id, or of a redacted one", () => {
  const random = prng(40);
  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < 50; i++) {
    const id = ["AKIA", "ASIA", "ABIA", "ACCA", "A3TQ"][i % 5] + "Q7RT2W9ZK3M4N5P6";
    const key = mixed(random, B64, 40);
    for (const head of [id, "AKIAIOSFODNN7EXAMPLE", "[redacted:aws-access-key]"]) {
      for (const text of contexts(`id ${head} secret ${key}`)) {
        if (!redact(text).counts["aws-secret-key"]) continue;
        assert.ok(suspectSecret(text), text);
      }
    }
  }
});

Deno.test("fast check: it drops only values assignment.ts would drop too", () => {
  const random = prng(12);
  const pieces = [
    "a",
    "Z",
    "9",
    " ",
    "\t",
    "\n",
    "\r",
    "\u00a0",
    "\u2003",
    '"',
    "'",
    "`",
    "\\",
    ",",
    ";",
    "&",
    ")",
    "}",
    "]",
    "=",
    ">",
    "<",
    ".",
    "/",
    "~",
    "$",
    "{",
    "[",
    "*",
    "%",
    "…",
    "v1",
    "x_y",
    "process.env.X",
    "${",
    "{{",
    "[redacted:jwt]",
    "Zq8vN3xL0pR7",
    "é",
    "-",
    "_",
  ];
  for (let i = 0; i < 20_000; i++) {
    const text = textOf(random, pieces, 14);
    for (const quoted of [true, false]) {
      if (!maySecretValue(text, quoted)) {
        assert.equal(isSecretValue(text, quoted), false, JSON.stringify([text, quoted]));
      }
    }
  }
});

Deno.test("fast check: code identifiers and paths as assignment.ts tells them from values", () => {
  const values = [
    "getAccessToken",
    "options.apiKey",
    "a.b1cdefg",
    "_abcdefg_hij",
    "abcdefgh.",
    "abc..defgh",
    ".abcdefgh",
    "abc.1defgh",
    "abcdefg1",
    "v1.2.3.4.5",
    "v1.2.3-rc1",
    "~/.config/gh",
    "~abcdefgh",
    "../secrets/x",
    "/run/secrets/db",
  ];
  for (const value of values) {
    for (const quoted of [true, false]) {
      assert.equal(maySecretValue(value, quoted), isSecretValue(value, quoted), value);
    }
  }
});

/** Controls shaped exactly like a secret, which only the redactor's value rules tell apart. */
const SHAPED_CONTROLS = [
  "private_key_id: 0123456789abcdef0123456789abcdef01234567", // its last word says "about"
  "SECRET_NAME=prod-db-credentials", // the same
  "eyJmb28iOiJiYXIifQ.eyJiYXoiOjF9.c2lnbmF0dXJl is three base64 parts, no alg",
  "AKIAIOSFODNN7EXAMPLE is AWS's documented example key id",
  "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  'API_KEY="your-api-key-here"',
  "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  "ANTHROPIC_API_KEY=sk-ant-api03-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
  '"password": "changeme"',
  "SECRET_KEY=replace-me-with-a-real-secret",
  "postgres://user:password@localhost/db",
  "The rule matches `-----BEGIN PRIVATE KEY-----` lines; see rules.ts.",
  "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
  "Search for -----BEGIN OPENSSH PRIVATE KEY-----\nthen explain where the -----END OPENSSH PRIVATE KEY----- is.",
];

/** Handover prose that must take the fast path: the words the rules' literals live in. */
const PROSE = [
  handoverDoc("fix-login", new Date("2026-11-30T11:58:00Z"), false),
  BODY,
  "## Goal\n\nFinish the task-list refactor; access checks pass. Success: 42 tests passed.",
  "## Decisions\n\n- **Key decisions:** keep the tokens in memory — why: the disk-based cache leaked.",
  "- Tokens: 4096 max; the tokenizer splits text. Author: Alice Smith. Passed: 12/12.",
  "See https://github.com/org/repo/pull/12 and https://host.example.com:8080/path?q=1#frag.",
  "The bearer token is sent in a header; the Bearer scheme is documented.",
  "Keyboard: US. monkey=banana. bypass: none. passing: yes. keys: a, b.",
  "| lib/auth/session.ts | auth flow | done | |\n| lib/secrets/redact.ts:42 | wip | |",
  "- [ ] rotate the staging credentials (ask Bob for the access list)",
  "Ran `deno task ci`; lint ok. Next: `git push origin feature/key-rotation`.",
  "Use task-specific keys; disk-usage-report-for-the-whole-week-and-month is slow.",
  "mailto:someone@example.com; user@host:repo.git; scp host:/path/file .",
  'const { token } = await login(user); if (!token) throw new Error("no token");',
];

Deno.test("fast check: the false-positive controls and handover prose pass, but those shaped like a secret", () => {
  const all = Object.values(CONTROLS).flat();
  assert.ok(all.length >= 30);
  const tripped = all.filter((text) => suspectSecret(text));
  assert.deepEqual([...tripped].sort(), [...SHAPED_CONTROLS].sort());
  assert.ok(all.length - tripped.length >= 30, "fewer than 30 controls pass");
  for (const text of PROSE) assert.ok(!suspectSecret(text), text);
});

Deno.test("fast check: an unquoted value ends where the redactor's regex class said (every code unit)", () => {
  // The one difference between valueAt and the reading it replaced: a list of characters for
  // `/[\s"'`,;&)}\]\\]/`. Everything else of valueAt is the redactor's own (lib/secrets tests).
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    assert.equal(VALUE_ENDS.includes(ch), /[\s"'`,;&)}\]\\]/.test(ch), `U+${c.toString(16)}`);
  }
  assert.deepEqual(valueAt('key = "a b" c', 6), { start: 7, end: 10, quoted: true });
  assert.deepEqual(valueAt("key = abc,def", 6), { start: 6, end: 9, quoted: false });
});
