import assert from "node:assert/strict";
import { redact } from "../../lib/secrets/redact.ts";

/** `text` redacted is exactly `want`. */
function redacts(cases: [string, string][]) {
  for (const [text, want] of cases) assert.equal(redact(text).text, want, text);
}

/** `text` comes out of redaction unchanged and uncounted. */
function keeps(texts: string[]) {
  for (const text of texts) {
    const r = redact(text);
    assert.equal(r.text, text);
    assert.deepEqual(r.counts, {}, text);
  }
}

const PEM_LINES = [
  "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
  "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK",
  "LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo",
];

Deno.test("shapes: a token right after a hyphen", async (t) => {
  const glpat = "glpat-aB3dE5gH7jK9mN1pQ3sT";
  const xoxb = "xoxb-123456789012-1234567890123-aB3dE5gH7jK9mN1pQ3sTuVwX";
  const proj = "sk-proj-aB3dE5gH7jK9mN1pQ3sTuVwXaB3dE5gH7jK9mN1pQ3sTuVwX";
  const ant = "sk-ant-api03-aB3dE5gH7jK9mN1pQ3sTuVwXaB3dE5gH7jK9mN1pQ3sTuVwX";
  const gcp = "AIzaSyaB3dE5gH7jK9mN1pQ3sTuVwXaB3dE5gH7";
  const jwt =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTYifQ.aB3dE5gH7jK9mN1pQ3sTuVwXaB3dE5gH7jK9mN1pQ3s";
  await t.step("in a file name", () => {
    redacts([
      [`notes-${glpat}.txt`, "notes-[redacted:gitlab-token].txt"],
      [`x-${xoxb}`, "x-[redacted:slack-token]"],
      [`x-${proj}`, "x-[redacted:openai-key]"],
      [`x-${ant}`, "x-[redacted:anthropic-key]"],
      [`x-${gcp}`, "x-[redacted:gcp-api-key]"],
      [`token-${jwt}.json`, "token-[redacted:jwt].json"],
    ]);
  });
  await t.step("a word ending in the prefix's letters is not one", () => {
    keeps(["risk-proj-aB3dE5gH7jK9mN1pQ3sTuVwXaB3dE5gH7jK9mN1pQ3sTuVwX"]);
  });
});

Deno.test("shapes: a reference is exactly a reference", async (t) => {
  await t.step("values that only start with a sigil are secrets", () => {
    redacts([
      ["DB_PASSWORD='$uperS3cret!2024Qx'", "DB_PASSWORD='[redacted:secret-assignment]'"],
      ['password: "*Tr0ub4dor&3xQ"', 'password: "[redacted:secret-assignment]"'],
      ['password: "<Tr0ub4dor&3xQ"', 'password: "[redacted:secret-assignment]"'],
      ['password: "{Tr0ub4dor&3xQ"', 'password: "[redacted:secret-assignment]"'],
      [
        "https://u:$uper-S3cret9@db.internal:5432/x",
        "https://u:[redacted:url-password]@db.internal:5432/x",
      ],
    ]);
  });
  await t.step("references stay", () => {
    keeps([
      'password: "$PASSWORD_FROM_VAULT"',
      'password: "${DB_PASSWORD}"',
      'password: "<your password>"',
      'password: "<db-password>"',
      'password: "{{ db_password }}"',
      'password: "{db_password}"',
      "PASSWORD=$(cat /run/secrets/db)",
      'password: "********"',
    ]);
  });
});

Deno.test("shapes: glued secret names", () => {
  redacts([
    ["PGPASSWORD=Tr0ub4dor3xQz", "PGPASSWORD=[redacted:secret-assignment]"],
    ["APITOKEN=Tr0ub4dor3xQz", "APITOKEN=[redacted:secret-assignment]"],
    ["SECRETKEY=Tr0ub4dor3xQz", "SECRETKEY=[redacted:secret-assignment]"],
    ["authtoken: Tr0ub4dor3xQz", "authtoken: [redacted:secret-assignment]"],
  ]);
  keeps(["bypass=Tr0ub4dor3xQz", "compass: Tr0ub4dor3xQz", "OLDPWD=Tr0ub4dor3xQz"]);
});

Deno.test("shapes: PEM blocks whose lines carry a prefix", async (t) => {
  const [a, b, c] = PEM_LINES;
  const begin = "-----BEGIN RSA PRIVATE KEY-----";
  const end = "-----END RSA PRIVATE KEY-----";
  const gone = (text: string) => {
    const r = redact(text);
    for (const line of PEM_LINES) assert.ok(!r.text.includes(line.slice(8, 40)), r.text);
    assert.deepEqual(r.counts, { "private-key": 1 }, r.text);
    return r.text;
  };
  await t.step("quoted", () => {
    const out = gone(
      ["> Here it is:", `> ${begin}`, `> ${a}`, `> ${b}`, `> ${c}`, `> ${end}`, "", "after"].join(
        "\n",
      ),
    );
    assert.ok(out.startsWith("> Here it is:\n> [redacted:private-key]"), out);
    assert.ok(out.endsWith("\n\nafter"), out);
  });
  await t.step("numbered as Claude Code's Read tool shows a file", () => {
    const out = gone(
      [
        `     1\u2192${begin}`,
        `     2\u2192${a}`,
        `     3\u2192${b}`,
        `     4\u2192${c}`,
        `     5\u2192${end}`,
        "     6\u2192",
      ]
        .join("\n"),
    );
    assert.ok(out.endsWith("\n     6\u2192"), out);
  });
  await t.step("numbered, inside a transcript's JSON string", () => {
    const text = JSON.stringify({
      content: [
        `     1\u2192${begin}`,
        `     2\u2192${a}`,
        `     3\u2192${b}`,
        `     4\u2192${c}`,
        `     5\u2192${end}`,
      ].join("\n"),
    });
    JSON.parse(gone(text));
  });
  await t.step("indented in YAML", () => {
    const out = gone(
      [
        "tls:",
        "  key: |",
        `    ${begin}`,
        `    ${a}`,
        `    ${b}`,
        `    ${c}`,
        `    ${end}`,
        "  cert: x",
      ].join("\n"),
    );
    assert.ok(out.endsWith("\n  cert: x"), out);
  });
  await t.step("quoted and cut short", () => {
    const out = gone(
      [`> ${begin}`, `> ${a}`, `> ${b.slice(0, 30)}`, "", "and more prose"].join("\n"),
    );
    assert.ok(out.endsWith("and more prose"), out);
  });
  await t.step("numbered and cut short", () => {
    gone([`    10\u2192${begin}`, `    11\u2192${a}`, `    12\u2192${b}`].join("\n"));
  });
  await t.step("a prefixed mention with no key material stays", () => {
    keeps([`> ${begin}`, `> ...`, `> ${end}`].map((l) => l).join("\n").split("\0"));
  });
});

Deno.test("shapes: command lines and headers", () => {
  redacts([
    ["curl -u deploy:Tr0ub4dor3xQz https://x", "curl -u deploy:[redacted:cli-password] https://x"],
    [
      "curl --user 'deploy:Tr0ub4dor3xQz' https://x",
      "curl --user 'deploy:[redacted:cli-password]' https://x",
    ],
    ["mysql -uroot -pTr0ub4dor3xQz db", "mysql -uroot -p[redacted:cli-password] db"],
    ["sshpass -p Tr0ub4dor3xQz ssh host", "sshpass -p [redacted:cli-password] ssh host"],
    ["sshpass -p 'Tr0ub4dor3xQz' ssh host", "sshpass -p '[redacted:cli-password]' ssh host"],
    ["docker login -u me -p Tr0ub4dor3xQz", "docker login -u me -p [redacted:cli-password]"],
    [
      "docker login registry.io --password Tr0ub4dor3xQz",
      "docker login registry.io --password [redacted:secret-assignment]",
    ],
    ["tool --password Tr0ub4dor3xQz", "tool --password [redacted:secret-assignment]"],
    [
      "Authorization: Basic ZGVwbG95OlRyMHViNGRvcjN4UXo=",
      "Authorization: Basic [redacted:basic-auth]",
    ],
    [
      "curl -H 'authorization: basic ZGVwbG95OlRyMHViNGRvcjN4UXo='",
      "curl -H 'authorization: basic [redacted:basic-auth]'",
    ],
    [
      "Cookie: theme=dark; sessionid=aB3dE5gH7jK9mN1pQ3sTuVwX",
      "Cookie: theme=dark; sessionid=[redacted:session-cookie]",
    ],
    [
      "Set-Cookie: session=aB3dE5gH7jK9mN1pQ3sTuVwX; Path=/; HttpOnly",
      "Set-Cookie: session=[redacted:session-cookie]; Path=/; HttpOnly",
    ],
    [
      "curl -b 'connect.sid=s%3AaB3dE5gH7jK9mN1pQ3sTuVwX.x9' https://x",
      "curl -b 'connect.sid=[redacted:session-cookie]' https://x",
    ],
  ]);
  keeps([
    "mkdir -p build/out && mysql -p db",
    "curl -u $USER:$TOKEN https://x",
    "curl -u user:password https://x",
    'sshpass -p "$SSHPASS" ssh host',
    "docker login -u me --password-stdin < token.txt",
    "Authorization: Basic <base64>",
    "Cookie: theme=dark; lang=en",
    "The Basic plan includes cookies.",
  ]);
});

Deno.test("false positives: an expression is not a secret value", () => {
  keeps([
    "token = jwt.encode(payload, key)",
    "token := lexer.Next()",
    "password = getpass.getpass()",
    "authToken = localStorage.getItem('token');",
    "const auth = require('./auth');",
    "const secret = crypto.randomBytes(32).toString('hex');",
    "token = tokens[index]",
    "ID_TOKEN_ISSUER=https://accounts.google.com",
    "OIDC_AUTH_ENDPOINT=https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
  ]);
  redacts([
    ["PASSWORD=Tr0ub(4dor3xQz", "PASSWORD=[redacted:secret-assignment]"],
  ]);
});
