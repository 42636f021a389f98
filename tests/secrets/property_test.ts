import assert from "node:assert/strict";
import { redact } from "../../lib/secrets/redact.ts";
import { LineRedactor } from "../../lib/secrets/stream.ts";
import { prng } from "../support/prng.ts";
import { KINDS, type Sample, Secrets } from "./_secrets.ts";

/** Harmless text to put secrets among: prose, code, hashes, paths, JSON, placeholders. */
const FILLER = [
  "Ran the tests; 42 passed.",
  "commit 3f2a9c1e8b7d6f5a4e3c2b1a0f9e8d7c6b5a4f3e",
  "Edited lib/secrets/redact.ts (+40 -3)",
  '{"uuid":"6f1c2e0a-9b7d-4c3e-8a21-5d0f7e9b1c44","type":"assistant"}',
  "API_KEY=$API_KEY",
  "password: <redacted>",
  "- [ ] rotate the staging credentials",
  "const x = await fetch(url, { headers });",
  "",
  "    indented code block",
];

/** A random document of filler with `count` generated secrets at random places. */
function document(random: () => number, gen: Secrets, count: number) {
  const samples: Sample[] = [];
  const lines: string[] = [];
  for (let i = 0; i < 6 + count * 2; i++) {
    if (samples.length < count && random() < 0.5) {
      const sample = gen.sample(KINDS[Math.floor(random() * KINDS.length)]);
      samples.push(sample);
      lines.push(random() < 0.5 ? sample.text : `note: ${sample.text} (from .env)`);
    } else {
      lines.push(FILLER[Math.floor(random() * FILLER.length)]);
    }
  }
  return { text: lines.join("\n"), samples };
}

function secretParts(sample: Sample): string[] {
  return sample.secret.split("\n").filter((line) => line.length >= 8);
}

Deno.test("property: no generated secret survives, counts match, redacting again changes nothing", () => {
  const random = prng(20261201);
  const gen = new Secrets(random);
  for (let round = 0; round < 400; round++) {
    const { text, samples } = document(random, gen, Math.floor(random() * 6));
    const once = redact(text);
    for (const sample of samples) {
      for (const part of secretParts(sample)) {
        assert.ok(!once.text.includes(part), `round ${round}: ${part} survived:\n${once.text}`);
      }
    }
    const expected: Record<string, number> = {};
    for (const s of samples) expected[s.kind] = (expected[s.kind] ?? 0) + 1;
    assert.deepEqual(once.counts, expected, `round ${round}:\n${text}\n---\n${once.text}`);
    // Idempotent: nothing more to find, nothing changed.
    const twice = redact(once.text);
    assert.equal(twice.text, once.text);
    assert.deepEqual(twice.counts, {});
    // Never longer by more than the marks, never a secret grown back: the output only ever
    // loses characters of the input (in order) and gains whole marks.
    const stripped = once.text.replace(/\[redacted:[a-z-]+\]/g, "");
    let at = 0;
    for (const c of stripped) {
      at = text.indexOf(c, at);
      assert.ok(at >= 0, `round ${round}: output is not the input minus secrets`);
      at++;
    }
  }
});

Deno.test("property: the same inside transcript lines (JSON strings)", () => {
  const random = prng(14);
  const gen = new Secrets(random);
  for (let round = 0; round < 200; round++) {
    const { text, samples } = document(random, gen, 1 + Math.floor(random() * 4));
    const line = JSON.stringify({ type: "user", message: { content: text } });
    const r = redact(line);
    for (const sample of samples) {
      for (const part of secretParts(sample)) {
        assert.ok(!r.text.includes(JSON.stringify(part).slice(1, -1)), `${part} in ${r.text}`);
      }
    }
    assert.equal(Object.values(r.counts).reduce((a, b) => a + b, 0), samples.length, r.text);
    assert.deepEqual(redact(r.text).counts, {});
    JSON.parse(r.text);
  }
});

Deno.test("property: the line redactor gives what redact gives, however the text is cut", () => {
  const random = prng(99);
  const gen = new Secrets(random);
  for (let round = 0; round < 200; round++) {
    const { text } = document(random, gen, Math.floor(random() * 5));
    const whole = redact(text);
    const stream = new LineRedactor();
    let out = "";
    for (let at = 0; at < text.length;) {
      const size = 1 + Math.floor(random() * 80);
      out += stream.write(text.slice(at, at + size));
      at += size;
    }
    out += stream.end();
    assert.equal(out, whole.text, `round ${round}`);
    assert.deepEqual(stream.counts, whole.counts);
  }
});

Deno.test("line redactor: a PEM block is held until its END line, then redacted whole", () => {
  const stream = new LineRedactor();
  assert.equal(
    stream.write("before\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\n"),
    "before\n",
  );
  assert.equal(
    stream.write("AQEFAASCBKcwggSjAgEAAoIB\n-----END PRIVATE KEY-----\nafter"),
    "[redacted:private-key]\n",
  );
  assert.equal(stream.end(), "after");
  assert.deepEqual(stream.counts, { "private-key": 1 });
});

Deno.test("redact: 100 KB of transcript-like text in a few milliseconds", () => {
  const random = prng(5);
  const gen = new Secrets(random);
  let text = "";
  for (let i = 0; text.length < 100_000; i++) {
    text += JSON.stringify({
      type: "assistant",
      uuid: crypto.randomUUID(),
      message: { content: `Edited src/mod_${i}.ts at 3f2a9c1e8b7d6f5a4e3c; ok.` },
    }) + "\n";
    if (i % 100 === 0) text += JSON.stringify({ content: gen.sample("github-token").text }) + "\n";
  }
  redact(text);
  const times: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t = performance.now();
    redact(text);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  // Generous: a shared 2-core machine; the report gives the real figure.
  assert.ok(times[4] < 100, `median ${times[4].toFixed(1)} ms`);
});

Deno.test("line redactor: a transcript line longer than its bound is cut at escaped newlines, no secret split", () => {
  const random = prng(314);
  const gen = new Secrets(random);
  const parts: string[] = [];
  const samples: Sample[] = [];
  for (let size = 0; size < 600_000; size += parts[parts.length - 1].length + 1) {
    if (random() < 0.05) {
      const sample = gen.sample(KINDS[Math.floor(random() * KINDS.length)]);
      samples.push(sample);
      parts.push(sample.text);
    } else parts.push(FILLER[Math.floor(random() * FILLER.length)]);
  }
  const line = JSON.stringify({ type: "user", message: { content: parts.join("\n") } }) + "\n";
  const whole = redact(line);
  const stream = new LineRedactor();
  let out = "";
  for (let at = 0; at < line.length; at += 997) out += stream.write(line.slice(at, at + 997));
  out += stream.end();
  assert.equal(out, whole.text);
  assert.deepEqual(stream.counts, whole.counts);
  assert.equal(Object.values(whole.counts).reduce((a, b) => a + b, 0), samples.length);
  JSON.parse(out);
});
