/**
 * What the tests of the wired write paths (park, drop, dump, evidence, sweep, push, pull) put in
 * and look for: a few generated secrets of different kinds, false-positive controls that must come
 * out unchanged, and the checks.
 * @module
 */

import assert from "node:assert/strict";
import { prng } from "../support/prng.ts";
import { type Sample, Secrets } from "./_secrets.ts";

const gen = new Secrets(prng(1414));

/** One secret of each of a few kinds (single-line, so they fit a summary or a commit subject). */
export const SECRETS = {
  github: gen.sample("github-token"),
  aws: gen.sample("aws-access-key"),
  slack: gen.sample("slack-token"),
  jwt: gen.sample("jwt"),
  url: gen.sample("url-password"),
  stripe: gen.sample("stripe-key"),
} satisfies Record<string, Sample>;

/** A PEM block (multi-line: a handover body or a hand-edited file). */
export const PEM = gen.sample("private-key");

/** Text that must come out of redaction exactly as it went in. */
export const CONTROLS = [
  "3f786850e387550fdab836ed7e6dc881de23001b", // a git commit hash
  "0e4c6f43-9a1b-4c7e-8f2d-5b6a7c8d9e0f", // a UUID
  "src/secrets/api_key_loader.ts", // a path
  "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", // an integrity digest
];

/** `[redacted:<kind>]`. */
export function mark(kind: string): string {
  return `[redacted:${kind}]`;
}

/** No secret of `samples` survives in `text`, and each left its mark. */
export function assertRedacted(text: string, samples: Sample[], where = "") {
  for (const s of samples) {
    assert.ok(!text.includes(s.secret), `${where}: a ${s.kind} survived`);
    assert.ok(text.includes(mark(s.kind)), `${where}: no mark for ${s.kind}`);
  }
}

/** Every control is in `text`, unchanged. */
export function assertControls(text: string, where = "") {
  for (const c of CONTROLS) assert.ok(text.includes(c), `${where}: control ${c} changed`);
}

/** The stderr note counts exactly these kinds (once each unless `n` says otherwise). */
export function assertNote(err: string, kinds: Record<string, number>) {
  const total = Object.values(kinds).reduce((a, b) => a + b, 0);
  const line = err.split("\n").find((l) => l.startsWith("redacted "));
  assert.ok(line, `no redaction note in: ${err}`);
  assert.match(line, new RegExp(`^redacted ${total} secrets?: `));
  for (const [kind, n] of Object.entries(kinds)) assert.ok(line.includes(`${n} ${kind}`), line);
  for (const s of Object.values(SECRETS)) assert.ok(!err.includes(s.secret), "a value on stderr");
}

/** The stderr note names each of `kinds` (however many of each). */
export function assertNoteKinds(err: string, kinds: string[]) {
  const line = err.split("\n").find((l) => l.startsWith("redacted "));
  assert.ok(line, `no redaction note in: ${err}`);
  for (const kind of kinds) assert.match(line, new RegExp(`\\b\\d+ ${kind}\\b`), line);
  for (const s of Object.values(SECRETS)) assert.ok(!err.includes(s.secret), "a value on stderr");
}
