/**
 * The false-positive controls: text that redaction must leave as it is
 * (tests/secrets/false_positive_test.ts).
 * @module
 */

/**
 * Text that looks like a secret to a careless rule and is not one: each must come out unchanged
 * and uncounted. Grouped by why it is not a secret.
 */
export const CONTROLS: Record<string, string[]> = {
  "hashes and ids": [
    "commit 3f2a9c1e8b7d6f5a4e3c2b1a0f9e8d7c6b5a4f3e (HEAD -> main)",
    "tree 9c1e8b7d6f5a4e3c2b1a0f9e8d7c6b5a4f3e3f2a9c1e8b7d6f5a4e3c2b1a0f9e",
    "Merge: 3f2a9c1 8b7d6f5 — fixes #123",
    "session 6f1c2e0a-9b7d-4c3e-8a21-5d0f7e9b1c44 started",
    '{"uuid":"6f1c2e0a-9b7d-4c3e-8a21-5d0f7e9b1c44","parentUuid":null,"requestId":"req_011CVx4R2r9y8Dq7Qm"}',
    "image: node@sha256:4c5e3f9a1b2d8e7f6a5c4b3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f",
    "sha256sum: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt",
    '"integrity": "sha512-Vh6SJ0d3d8E3B9cRUZHQS2FRwNqjlCc6hT6qvxWvS+0L3G1ZgYkJvQW8Ts3D8q1Hz+Bm2TK3nVnQ0fOk0M9w=="',
    "private_key_id: 0123456789abcdef0123456789abcdef01234567",
  ],
  "paths": [
    "Edited /home/alice/projects/app/src/token_store.ts and lib/secrets/redact.ts",
    "C:\\Users\\alice\\AppData\\Roaming\\npm\\node_modules\\@secretlint\\core",
    "password_file=/run/secrets/db_password",
    "TOKEN_PATH=~/.config/gh/hosts.yml",
    "see ~/.ssh/id_ed25519 and ~/.aws/credentials",
  ],
  "base64 in code": [
    "const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';",
    'data = base64.b64decode(\'eyJhIjogMSwgImIiOiAyfQ==\')  # {"a": 1, "b": 2}',
    "eyJmb28iOiJiYXIifQ.eyJiYXoiOjF9.c2lnbmF0dXJl is three base64 parts, no alg",
    "AKIAIOSFODNN7EXAMPLE is AWS's documented example key id",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  ],
  "references, not values": [
    "API_KEY=$API_KEY",
    'export GITHUB_TOKEN="${GITHUB_TOKEN}"',
    "token: ${{ secrets.NPM_TOKEN }}",
    "password: {{ vault_db_password }}",
    "set API_KEY=%API_KEY%",
    "const apiKey = process.env.OPENAI_API_KEY;",
    "token = os.environ['GITHUB_TOKEN']",
    "apiKey: options.apiKey,",
    "const token = await getAccessToken(scope);",
    "DB_URL=postgres://app:${DB_PASSWORD}@db:5432/app",
    "https://user:$TOKEN@github.com/org/repo.git",
  ],
  "placeholders": [
    "password: <redacted>",
    "password: ********",
    'API_KEY="your-api-key-here"',
    "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "OPENAI_API_KEY=sk-...",
    "ANTHROPIC_API_KEY=sk-ant-api03-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "token: [redacted:github-token]",
    '"password": "changeme"',
    "SECRET_KEY=replace-me-with-a-real-secret",
    "postgres://user:password@localhost/db",
    "uri.parse('uri://user:pass@example.com:123/one/two.three?q1=a1&q2=a2#body')",
    "Authorization: Bearer <token>",
  ],
  "short or not a value": [
    "TOKEN=abc",
    'password: "hunter2"',
    "max_tokens: 4096",
    "token_count=1200000",
    "password_length = 16",
    "secret: true",
    "password?: string;",
    "if (token === expectedToken) return;",
    "AUTH_TOKEN_TTL=3600",
    "SECRET_NAME=prod-db-credentials",
    // What an OAuth library names about its secrets (the MCP SDK's and hono's code).
    "token_endpoint_auth_method: 'client_secret_basic',",
    "type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';",
    "export type AuthResult = 'AUTHORIZED' | 'REDIRECT';",
    "authorization_servers: [options.oauthMetadata.issuer],",
    'const TOKEN_STRINGS = "[A-Za-z0-9._~+/-]+=*";',
    '[options.invalidToken.message="Unauthorized"] - The invalid token message.',
    '<input type="password" name="password" placeholder="Password">',
  ],
  "prose and code": [
    "The token: we need to rotate it before Friday.",
    "Passwords must be at least twelve characters long.",
    '"secret": "this is not really a secret, just a note"',
    "Use `session.ts park` to keep the secret-scanning idea for later.",
    "scheme://host:8080/path and https://user@host.example.com/",
    "git@github.com:org/repo.git",
    "sk-learn is not a key, nor is sk_live_ alone, nor xoxb-",
    "The tokenizer splits text; max_tokens caps it.",
    "Bearer tokens are sent in the Authorization header.",
    "The rule matches `-----BEGIN PRIVATE KEY-----` lines; see rules.ts.",
    "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
    "Search for -----BEGIN OPENSSH PRIVATE KEY-----\nthen explain where the -----END OPENSSH PRIVATE KEY----- is.",
  ],
};
