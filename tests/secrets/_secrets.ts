/**
 * Generated credentials of every kind (seeded, so every run draws the same ones), each with the
 * context it needs and the value that must never survive redaction.
 * @module
 */

import type { SecretKind } from "../../lib/secrets/rules.ts";

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;
const B64 = ALNUM + "+/";
const B64URL = ALNUM + "-_";

/** A generated secret: its kind, the text it appears in, and the secret part itself. */
export interface Sample {
  kind: SecretKind;
  /** The text as a user or agent would write it (the secret with its context). */
  text: string;
  /** What must not appear in the redacted text. */
  secret: string;
}

/** A seeded generator of random credentials. */
export class Secrets {
  constructor(private readonly random: () => number) {}

  pick(alphabet: string, n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.random() * alphabet.length)];
    return s;
  }

  /** Random characters with at least one upper, one lower and one digit (as real keys have). */
  mixed(alphabet: string, n: number): string {
    return this.pick(UPPER, 1) + this.pick(LOWER, 1) + this.pick(DIGITS, 1) +
      this.pick(alphabet, n - 3);
  }

  between(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  /** One sample of `kind`. */
  sample(kind: SecretKind): Sample {
    const s = (text: string, secret: string): Sample => ({ kind, text, secret });
    switch (kind) {
      case "private-key": {
        const type = ["RSA ", "EC ", "OPENSSH ", "", "ENCRYPTED "][this.between(0, 4)];
        const lines = Array.from({ length: this.between(2, 8) }, () => this.mixed(B64, 64));
        lines[0] = "MII" + lines[0].slice(3);
        const body = lines.join("\n");
        return s(
          `-----BEGIN ${type}PRIVATE KEY-----\n${body}\n-----END ${type}PRIVATE KEY-----`,
          body,
        );
      }
      case "jwt": {
        const enc = (o: unknown) =>
          btoa(JSON.stringify(o)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
        const token = `${enc({ alg: "HS256", typ: "JWT" })}.${
          enc({ sub: this.pick(DIGITS, 6), name: this.pick(LOWER, 8) })
        }.${this.mixed(B64URL, 43)}`;
        return s(token, token);
      }
      case "aws-secret-key": {
        const key = this.mixed(B64, 40);
        return [
          s(`aws_secret_access_key = ${key}`, key),
          s(`AWS_SECRET_ACCESS_KEY="${key}"`, key),
          s(`"SecretAccessKey": "${key}"`, key),
        ][this.between(0, 2)];
      }
      case "aws-access-key": {
        const id = ["AKIA", "ASIA"][this.between(0, 1)] +
          this.mixed(UPPER + DIGITS, 16).replace(/[a-z]/g, "Q");
        return s(id, id);
      }
      case "gcp-api-key": {
        const key = "AIza" + this.mixed(B64URL, 35);
        return s(key, key);
      }
      case "github-token": {
        const token = this.between(0, 5) === 0
          ? "github_pat_" + this.mixed(ALNUM, 22) + "_" + this.mixed(ALNUM, 59)
          : ["ghp", "gho", "ghu", "ghs", "ghr"][this.between(0, 4)] + "_" + this.mixed(ALNUM, 36);
        return s(token, token);
      }
      case "gitlab-token": {
        const token = "glpat-" + this.mixed(B64URL, 20);
        return s(token, token);
      }
      case "npm-token": {
        const token = "npm_" + this.mixed(ALNUM, 36);
        return s(token, token);
      }
      case "slack-webhook": {
        const url = `https://hooks.slack.com/services/T${this.mixed(UPPER + DIGITS, 8)}/B${
          this.mixed(UPPER + DIGITS, 10)
        }/${this.mixed(ALNUM, 24)}`;
        return s(url, url);
      }
      case "slack-token": {
        const token = `xox${"abpr"[this.between(0, 3)]}-${this.pick(DIGITS, 12)}-${
          this.pick(DIGITS, 13)
        }-${this.mixed(ALNUM, 24)}`;
        return s(token, token);
      }
      case "anthropic-key": {
        const key = "sk-ant-api03-" + this.mixed(B64URL, 93) + "AA";
        return s(key, key);
      }
      case "openai-key": {
        const key = this.between(0, 1) === 0
          ? "sk-proj-" + this.mixed(B64URL, 120)
          : "sk-" + this.mixed(ALNUM, 48);
        return s(key, key);
      }
      case "stripe-key": {
        const key = ["sk_live_", "rk_live_", "sk_test_"][this.between(0, 2)] +
          this.mixed(ALNUM, 24);
        return s(key, key);
      }
      case "url-password": {
        const password = this.mixed(ALNUM + "!*~-_", this.between(8, 24));
        const scheme = ["https", "postgres", "redis", "amqp", "mongodb+srv"][this.between(0, 4)];
        return s(`${scheme}://deploy:${password}@db.internal.example.net:5432/app`, password);
      }
      case "bearer-token": {
        const token = this.mixed(ALNUM, this.between(24, 40));
        return s(`Authorization: Bearer ${token}`, token);
      }
      case "cli-password": {
        const pw = this.mixed(ALNUM + "!#%^*+=_", this.between(10, 24));
        return [
          s(`curl -sS -u deploy:${pw} https://api.internal.example.net/v1/jobs`, pw),
          s(`mysql -h db.internal -uroot -p${pw} app < dump.sql`, pw),
          s(`sshpass -p '${pw}' ssh deploy@build-07`, pw),
          s(`docker login -u ci -p ${pw} registry.internal.example.net`, pw),
        ][this.between(0, 3)];
      }
      case "basic-auth": {
        const pw = this.mixed(ALNUM + "!#%^*+=_", this.between(10, 24));
        const value = btoa(`deploy:${pw}`);
        return s(`Authorization: Basic ${value}`, value);
      }
      case "session-cookie": {
        const value = this.mixed(ALNUM, this.between(24, 40));
        return [
          s(`Cookie: theme=dark; sessionid=${value}`, value),
          s(`Set-Cookie: _app_session=${value}; Path=/; HttpOnly; Secure`, value),
          s(`curl -b 'connect.sid=${value}' https://app.internal.example.net/`, value),
        ][this.between(0, 2)];
      }
      case "secret-assignment": {
        const value = this.mixed(ALNUM + "!#%^*+=-_", this.between(10, 30));
        const name =
          ["API_KEY", "DB_PASSWORD", "clientSecret", "SLACK_SIGNING_SECRET", "auth_token"][
            this.between(0, 4)
          ];
        return [
          s(`${name}=${value}`, value),
          s(`export ${name}='${value}'`, value),
          s(`"${name}": "${value}"`, value),
          s(`${name}: ${value}`, value),
        ][this.between(0, 3)];
      }
    }
  }
}

/** Every kind, in the order the rules run. */
export const KINDS: SecretKind[] = [
  "private-key",
  "jwt",
  "github-token",
  "gitlab-token",
  "npm-token",
  "slack-webhook",
  "slack-token",
  "anthropic-key",
  "openai-key",
  "stripe-key",
  "gcp-api-key",
  "aws-access-key",
  "aws-secret-key",
  "url-password",
  "bearer-token",
  "cli-password",
  "basic-auth",
  "session-cookie",
  "secret-assignment",
];
