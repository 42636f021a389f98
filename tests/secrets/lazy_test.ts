import assert from "node:assert/strict";
import {
  mayHoldSecret,
  NAME_WORDS_SOURCE,
  redactDeepLazily,
  redactionNoteLazily,
  redactLazily,
  SHAPED_LITERALS,
} from "../../lib/secrets/lazy.ts";
import { SHAPED_RULES } from "../../lib/secrets/rules.ts";
import { COMMAND_RULES } from "../../lib/secrets/command_line.ts";
import { TRIGGER } from "../../lib/secrets/assignment.ts";
import { redact, redactDeep, redactionNote, RULE_GATES } from "../../lib/secrets/redact.ts";
import { someString } from "../../lib/secrets/_walk.ts";
import { prng } from "../support/prng.ts";
import { KINDS, Secrets } from "./_secrets.ts";

Deno.test("pre-check: every shaped rule is gated, and each gate literal holds one of ours or a name word", () => {
  // A rule without a gate would run on every text: the pre-check could not speak for it.
  assert.deepEqual(
    Object.keys(RULE_GATES).sort(),
    [...SHAPED_RULES, ...COMMAND_RULES].map((r) => r.kind).sort(),
  );
  for (const [kind, literals] of Object.entries(RULE_GATES)) {
    for (const gate of literals!) {
      assert.ok(
        SHAPED_LITERALS.some((ours) => gate.includes(ours)) ||
          new RegExp(NAME_WORDS_SOURCE, "i").test(gate),
        `${kind}: the gate literal ${JSON.stringify(gate)} is not covered`,
      );
    }
  }
});

Deno.test("pre-check: the name words are assignment.ts's trigger, case-insensitive", () => {
  assert.equal(NAME_WORDS_SOURCE, TRIGGER.source);
  assert.ok(TRIGGER.flags.includes("i"));
});

Deno.test("pre-check: every generated true positive passes, alone and in context", () => {
  for (const seed of [1, 7, 1414, 2026]) {
    const gen = new Secrets(prng(seed));
    for (const kind of KINDS) {
      for (let i = 0; i < 200; i++) {
        const s = gen.sample(kind);
        for (const text of [s.text, `note: ${s.text} (rotated)`, JSON.stringify({ t: s.text })]) {
          assert.ok(mayHoldSecret(text), `${kind} not passed: ${JSON.stringify(text)}`);
        }
        // Whatever redact would take out, the pre-check lets through to it.
        assert.ok(redact(s.text).text !== s.text);
      }
    }
  }
});

Deno.test("pre-check: a text it stops is one redact leaves unchanged", () => {
  const random = prng(99);
  const words = ["the", "flaky", "test", "parser", "store", "hook", "seed", "CI", "run", "x", "é"];
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-./:=\"'\\\n";
  let stopped = 0;
  for (let i = 0; i < 2000; i++) {
    let text = "";
    const n = 1 + Math.floor(random() * 40);
    for (let j = 0; j < n; j++) {
      text += random() < 0.5
        ? words[Math.floor(random() * words.length)] + " "
        : alphabet[Math.floor(random() * alphabet.length)];
    }
    if (mayHoldSecret(text)) continue;
    stopped++;
    assert.deepEqual(redact(text), { text, counts: {} });
  }
  assert.ok(stopped > 500);
});

Deno.test("lazy: the same answers as redact.ts, with or without a secret", async () => {
  const gen = new Secrets(prng(5));
  const texts = [
    "bench parked thing 1",
    "",
    ...KINDS.map((k) => gen.sample(k).text),
    "deploy with token: Zq8vN3xL0pR7tY2k",
  ];
  for (const text of texts) assert.deepEqual(await redactLazily(text), redact(text));
  const value = {
    a: texts,
    b: { c: "plain", d: [1, null, true, "password=hunter2hunter2"] },
    e: undefined,
  };
  assert.deepEqual(await redactDeepLazily(value), redactDeep(value));
  const plain = { a: ["x", "y"], b: { c: "z" } };
  const r = await redactDeepLazily(plain);
  assert.deepEqual(r, redactDeep(plain));
  assert.equal(r.value, plain); // nothing in it would change: the value itself, no copy
  assert.equal(await redactionNoteLazily({}, {}), "");
  assert.equal(
    await redactionNoteLazily({ jwt: 1 }, { "jwt": 2, "npm-token": 1 }),
    redactionNote({ jwt: 3, "npm-token": 1 }),
  );
});

Deno.test("lazy: a `__proto__` key stays an own property, as Object.fromEntries keeps it", async () => {
  const value = JSON.parse('{"__proto__": {"a": "plain"}, "b": ["c", 1]}');
  const r = await redactDeepLazily(value);
  assert.deepEqual(Object.keys(r.value), ["__proto__", "b"]);
  assert.equal(Object.getPrototypeOf(r.value), Object.prototype);
  assert.deepEqual(r, redactDeep(value));
  assert.deepEqual(
    redactDeep(value).value,
    Object.fromEntries([["__proto__", { a: "plain" }], ["b", ["c", 1]]]),
  );
});

Deno.test("lazy: a secret anywhere in a value is found, however deep and under any key", async () => {
  const next = prng(4242);
  const secret = "password=hunter2hunter2";
  const keys = ["a", "b", "__proto__", "constructor", "0", "x y", "ключ"];
  const plain = ["src/a.ts", "M", "fix the thing", "", "日本語", "key"];
  /** A JSON value `depth` levels deep; `hide` puts the secret at one random leaf. */
  const gen = (depth: number, hide: { left: boolean }): unknown => {
    const r = next();
    if (depth === 0 || r < 0.25) {
      if (hide.left && next() < 0.3) {
        hide.left = false;
        return `see ${secret} here`;
      }
      return r < 0.05 ? null : r < 0.1 ? 7 : plain[Math.floor(next() * plain.length)];
    }
    const n = Math.floor(next() * 4);
    if (r < 0.6) return Array.from({ length: n }, () => gen(depth - 1, hide));
    // Through JSON, as the values redacted are: `__proto__` is then an own key.
    const entries = Array.from({ length: n }, () => [
      keys[Math.floor(next() * keys.length)],
      gen(depth - 1, hide),
    ]);
    return JSON.parse(JSON.stringify(Object.fromEntries(entries)));
  };
  let withSecret = 0;
  for (let i = 0; i < 500; i++) {
    const hide = { left: true };
    const value = gen(1 + Math.floor(next() * 5), hide);
    const lazy = await redactDeepLazily(value);
    const full = redactDeep(value);
    assertSameJson(lazy, full);
    // Redaction changes strings only: every key (`__proto__` among them) stays where it was.
    const shape = (v: unknown) => JSON.stringify(v, (_k, x) => typeof x === "string" ? "" : x);
    assert.equal(shape(full.value), shape(value));
    const hidden = JSON.stringify(value ?? null).includes(secret);
    if (hidden) withSecret++;
    assert.equal(JSON.stringify(lazy.value ?? null).includes("hunter2"), false);
    // No string passes the pre-check ("key" does, and loads the rules): the value itself.
    if (!someString(value, mayHoldSecret)) assert.equal(lazy.value, value);
  }
  assert.ok(withSecret > 100, `only ${withSecret} of 500 values held the secret`);
});

/**
 * `a` and `b` are the same JSON value, key order included, every object a plain one. Not
 * `assert.deepEqual`: Deno 2.0's node:assert calls two equal objects holding an own
 * `constructor` key (a key these values have) unequal.
 */
function assertSameJson(a: unknown, b: unknown): void {
  assert.equal(JSON.stringify(a), JSON.stringify(b));
  const plain = (v: unknown): boolean =>
    v === null || typeof v !== "object" ||
    (Object.getPrototypeOf(v) === (Array.isArray(v) ? Array.prototype : Object.prototype) &&
      Object.values(v).every(plain));
  assert.ok(plain(a) && plain(b), "every object is a plain one");
}
