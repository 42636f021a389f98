import assert from "node:assert/strict";
import {
  addCounts,
  redact,
  redactDeep,
  redactionNote,
  SECRET_KINDS,
} from "../../lib/secrets/redact.ts";
import { prng } from "../support/prng.ts";
import { KINDS, type Sample, Secrets } from "./_secrets.ts";

const gen = new Secrets(prng(1414));

/** The parts of a sample's secret that must be gone (a PEM body: each of its lines). */
function secretParts(sample: Sample): string[] {
  return sample.secret.split("\n").filter((line) => line.length >= 8);
}

/** A handover body as `dump` reads it, with the secret in a decision. */
function handoverBody(text: string): string {
  return [
    "## Summary",
    "Moved the deploy to the new cluster (see docs/deploy.md, commit 3f2a9c1e).",
    "",
    "## Decisions",
    `- Configured the staging job with`,
    text,
    "  and kept the old one for a day.",
    "",
    "## Outstanding",
    "- [ ] Rotate it after the release.",
  ].join("\n");
}

/** A transcript line: a tool result carrying the secret, as Claude Code writes it (JSON). */
function transcriptLine(text: string): string {
  return JSON.stringify({
    type: "user",
    uuid: "6f1c2e0a-9b7d-4c3e-8a21-5d0f7e9b1c44",
    message: {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_01", content: `$ cat .env\n${text}\n` }],
    },
  });
}

Deno.test("the kinds: every rule has one, and the generators cover them all", () => {
  assert.deepEqual([...SECRET_KINDS], KINDS);
});

for (const kind of KINDS) {
  Deno.test(`true positives: ${kind} in a handover body, a transcript line, a commit subject`, () => {
    for (let round = 0; round < 8; round++) {
      const sample = gen.sample(kind);
      const contexts: [string, string, string[]][] = [
        ["bare", sample.text, secretParts(sample)],
        ["handover", handoverBody(sample.text), secretParts(sample)],
        [
          "transcript",
          transcriptLine(sample.text),
          secretParts(sample).map((p) => JSON.stringify(p).slice(1, -1)),
        ],
      ];
      if (!sample.text.includes("\n")) {
        contexts.push(["commit", `fix(ci): use ${sample.text} for the staging deploy`, [
          sample.secret,
        ]]);
      }
      for (const [where, text, parts] of contexts) {
        const r = redact(text);
        for (const part of parts) {
          assert.ok(!r.text.includes(part), `${kind} in ${where}: ${part} survived in ${r.text}`);
        }
        assert.deepEqual(r.counts, { [kind]: 1 }, `${kind} in ${where}: ${r.text}`);
        assert.ok(r.text.includes(`[redacted:${kind}]`), `${kind} in ${where}: ${r.text}`);
        if (where === "transcript") JSON.parse(r.text); // still a valid JSON line
      }
    }
  });
}

Deno.test("true positives: the documented examples and config files, exactly", () => {
  const cases: [string, string][] = [
    ["API_KEY=9f8e7d6c5b4a3f2e1d0c", "API_KEY=[redacted:secret-assignment]"],
    ["export SECRET=s3cr3t-V4lue-99", "export SECRET=[redacted:secret-assignment]"],
    ['{"password": "Tr0ub4dor&3x"}', '{"password": "[redacted:secret-assignment]"}'],
    ["token: 7c0ffee-Abc-123-deadbeef", "token: [redacted:secret-assignment]"],
    ["DB_PASS='p4ss w0rd!'", "DB_PASS='[redacted:secret-assignment]'"],
    [
      "spring.datasource.password=Xk29!pq7Lm",
      "spring.datasource.password=[redacted:secret-assignment]",
    ],
    [
      "mysql --password=Xk29pq7Lm8 -u root",
      "mysql --password=[redacted:secret-assignment] -u root",
    ],
    [
      "//registry.npmjs.org/:_authToken=5f3c1d2e-8a9b-4c7d-9e0f-1a2b3c4d5e6f",
      "//registry.npmjs.org/:_authToken=[redacted:secret-assignment]",
    ],
    ["const apiKey = 'a1b2c3d4e5f6g7h8';", "const apiKey = '[redacted:secret-assignment]';"],
    [
      'headers = {"X-Api-Key": "k_8d7f6e5d4c3b2a19"}',
      'headers = {"X-Api-Key": "[redacted:secret-assignment]"}',
    ],
    [
      "git clone https://alice:Tr0ub4dor@git.example.com/team/app.git",
      "git clone https://alice:[redacted:url-password]@git.example.com/team/app.git",
    ],
    [
      "redis://:pa55w0rd-x@cache:6379/0",
      "redis://:[redacted:url-password]@cache:6379/0",
    ],
    [
      "https://x-access-token:ghs_16C7e42F292c6912E7710c838347Ae178B4a@github.com/o/r",
      "https://x-access-token:[redacted:github-token]@github.com/o/r",
    ],
    [
      "curl -H 'Authorization: Bearer 0b79bab50daca910b000d4f1a2b3c4d5e6'",
      "curl -H 'Authorization: Bearer [redacted:bearer-token]'",
    ],
    // Config files as they are written.
    [
      'database:\n  host: db.internal\n  password: "kL9#mQ2$vX7!"\n  user: app',
      'database:\n  host: db.internal\n  password: "[redacted:secret-assignment]"\n  user: app',
    ],
    [
      '{"auths":{"registry.example.com":{"auth":"ZGVwbG95OnMzY3IzdC1wYXNz"}}}',
      '{"auths":{"registry.example.com":{"auth":"[redacted:secret-assignment]"}}}',
    ],
    [
      "//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
      "//registry.npmjs.org/:_authToken=[redacted:npm-token]",
    ],
    [
      "DATABASE_URL=postgres://app:Zq8#r2Lm@db.internal:5432/app",
      "DATABASE_URL=postgres://app:[redacted:url-password]@db.internal:5432/app",
    ],
    [
      "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/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",
      "SLACK_WEBHOOK_URL=[redacted:slack-webhook]",
    ],
    [
      "  env:\n    NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n    OPENAI_API_KEY: sk-proj-Ab3De5Gh7Jk9Mn1Pq3St5Vw7Yz9Bc1Df3Hj5",
      "  env:\n    NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n    OPENAI_API_KEY: [redacted:openai-key]",
    ],
  ];
  for (const [input, output] of cases) assert.equal(redact(input).text, output, input);
});

Deno.test("true positives: an AWS key pair, the secret known by its context", () => {
  const text = [
    "[default]",
    "aws_access_key_id = AKIAZ7Q2R4T6Y8U1I3O5",
    "aws_secret_access_key = hX9+kq2/Lr7Tz3WmP0vB5nC8dF1gJ4sA6eY2uI0o",
    "AKIAZ7Q2R4T6Y8U1I3O5 hX9+kq2/Lr7Tz3WmP0vB5nC8dF1gJ4sA6eY2uI0o",
  ].join("\n");
  const r = redact(text);
  assert.equal(
    r.text,
    [
      "[default]",
      "aws_access_key_id = [redacted:aws-access-key]",
      "aws_secret_access_key = [redacted:aws-secret-key]",
      "[redacted:aws-access-key] [redacted:aws-secret-key]",
    ].join("\n"),
  );
  assert.deepEqual(r.counts, { "aws-access-key": 2, "aws-secret-key": 2 });
});

Deno.test("true positives: a GCP service-account key file, in JSON and inside a JSON string", () => {
  const pem =
    "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n" +
    "q2w3e4r5t6y7u8i9o0pA1s2d3f4g5h6j7k8l9z0x1c2v3b4n5m6Q\n-----END PRIVATE KEY-----\n";
  const file = JSON.stringify(
    {
      type: "service_account",
      project_id: "demo-123",
      private_key_id: "0123456789abcdef0123456789abcdef01234567",
      private_key: pem,
      client_email: "ci@demo-123.iam.gserviceaccount.com",
    },
    null,
    2,
  );
  for (const text of [file, JSON.stringify({ content: file })]) {
    const r = redact(text);
    assert.ok(!r.text.includes("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"), r.text);
    assert.ok(!r.text.includes("q2w3e4r5t6y7u8i9o0p"), r.text);
    assert.ok(r.text.includes("0123456789abcdef0123456789abcdef01234567")); // an id, kept
    assert.deepEqual(r.counts, { "private-key": 1 });
    JSON.parse(r.text);
  }
});

Deno.test("true positives: a PEM block cut short is redacted through its base64 lines", () => {
  const text = "key:\n-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n" +
    "MIIEowIBAAKCAQEA1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0u1v2w3x4\nMIIEpAIBAAKC\n\nThen I stopped.";
  assert.equal(redact(text).text, "key:\n[redacted:private-key]\n\nThen I stopped.");
  // The same inside a JSON string, and inside JSON inside a JSON string (escaped newlines).
  const once = JSON.stringify({ content: text });
  assert.deepEqual(JSON.parse(redact(once).text), {
    content: "key:\n[redacted:private-key]\n\nThen I stopped.",
  });
  const twice = JSON.stringify({ line: once });
  assert.deepEqual(JSON.parse(JSON.parse(redact(twice).text).line), {
    content: "key:\n[redacted:private-key]\n\nThen I stopped.",
  });
});

Deno.test("true positives: several secrets in one text, counted by kind", () => {
  const s = new Secrets(prng(7));
  const samples = KINDS.map((k) => s.sample(k));
  const r = redact(samples.map((x) => x.text).join("\n\nand then\n\n"));
  for (const sample of samples) {
    for (const part of secretParts(sample)) assert.ok(!r.text.includes(part), part);
  }
  assert.deepEqual(r.counts, Object.fromEntries(KINDS.map((k) => [k, 1])));
});

Deno.test("redactionNote: total, kinds in name order, singular, nothing when none", () => {
  assert.equal(redactionNote({}), "");
  assert.equal(redactionNote({ jwt: 1 }), "redacted 1 secret: 1 jwt");
  assert.equal(
    redactionNote({ "github-token": 1, "aws-access-key": 1 }),
    "redacted 2 secrets: 1 aws-access-key, 1 github-token",
  );
  assert.equal(
    redactionNote(addCounts({ jwt: 2 }, { jwt: 1, "npm-token": 1 })),
    "redacted 4 secrets: 3 jwt, 1 npm-token",
  );
  const r = redact("GITHUB_TOKEN=ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5");
  assert.ok(!redactionNote(r.counts).includes("aB3dE5"));
});

Deno.test("redactDeep: every string of a JSON value, keys and other values kept, counts summed", () => {
  const entry = {
    slug: "rotate-keys",
    summary: "Rotate GITHUB_TOKEN=ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5 after the release",
    tags: ["ci", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"],
    when: 1764567600000,
    done: false,
    next: null,
    "API_KEY=9f8e7d6c5b4a3f2e1d0c": "a key is never rewritten",
  };
  const r = redactDeep(entry);
  assert.deepEqual(r.value, {
    ...entry,
    summary: "Rotate GITHUB_TOKEN=[redacted:github-token] after the release",
    tags: ["ci", "[redacted:npm-token]"],
  });
  assert.deepEqual(r.counts, { "github-token": 1, "npm-token": 1 });
  assert.equal(entry.tags[1].startsWith("npm_"), true); // the input is left as it was
});
