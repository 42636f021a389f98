/**
 * Hostile input: every parser gets seeded random input — random bytes decoded as UTF-8 (invalid
 * sequences included), NULs, CRLF, huge lines, a body carrying its own `---` / `consumed: false`
 * / `## Next step`, deeply nested JSON — and must not throw; what is meant to round-trip does.
 *
 * SESSION_FUZZ_ROUNDS=N changes the number of random inputs per property (default 300).
 */

import assert from "node:assert/strict";
import {
  KEYS,
  markConsumed,
  renderFrontMatter,
  splitFrontMatter,
} from "../lib/store/front_matter.ts";
import { parseLog, parseNumstatZ, parseStashes } from "../lib/handover/evidence/git.ts";
import { buildDigest, capLines, parseSections } from "../lib/handover/document.ts";
import { DEFAULT_OPTIONS, gate, parseHookArgs, parsePayload } from "../lib/hook/input.ts";
import { BUDGETS } from "../lib/frame/budget.ts";
import { parseBullet } from "../lib/parked/grammar.ts";
import { parseParked, renderParked } from "../lib/parked/scanner.ts";
import { buildContext } from "../lib/hook/context.ts";
import { AGENTS, CLAUDE } from "../lib/agents/targets.ts";
import { addHook, findHooks, removeHooks, SettingsError } from "../lib/agents/settings.ts";
import { isSafeSlug } from "../lib/store/store.ts";
import { refusal, slugify } from "../lib/store/slug.ts";
import { parseTranscript } from "../lib/transcript/claude.ts";
import { fillFromTail, parseThresholds } from "../lib/pressure/fill.ts";
import { parseStatusInput } from "../lib/cli/statusline.ts";
import { NOW, scratchProject, writeDoc } from "./support/scratch.ts";
import { clearPayload, runHookProcess } from "./support/run.ts";
import { countingParses, everyLineParsed, headerLine } from "./support/transcript.ts";
import { prng } from "./support/prng.ts";

const ROUNDS = Number(Deno.env.get("SESSION_FUZZ_ROUNDS") ?? 300);

/** Pieces hostile documents are made of: our own syntax, line endings, odd characters. */
const PIECES = [
  "---",
  "---\n",
  "consumed: false\n",
  "consumed: true",
  "created: 2026-11-30T11:50:00Z\n",
  "slug: ../../etc/passwd\n",
  "## Next step\n",
  "## Goal\n",
  "## Files touched\n| File | Change | State | Ref |\n| --- | --- | --- | --- |\n",
  "| a.ts | x | done | |\n",
  "```\n",
  "~~~\n",
  "- **slug** — summary. Raised: 2026-11-30. Why: w. Next: n.\n",
  "- ",
  "**",
  " — ",
  "Why:",
  "Next:",
  "raised:",
  "\r\n",
  "\n",
  "\r",
  "\0",
  "\t",
  " ",
  "\uFEFF",
  "\uFFFD",
  "\uD800", // a lone surrogate: not valid UTF-16
  "é",
  "🦕",
  "e\u0301",
  "{",
  "}",
  '"',
  "\\",
  "[",
  "]",
  ":",
  "#",
  "<!--",
  "-->",
];

/** A random hostile text of up to `max` pieces and random characters. */
function hostile(random: () => number, max = 60): string {
  const n = Math.floor(random() * max);
  let out = "";
  for (let i = 0; i < n; i++) {
    const r = random();
    if (r < 0.6) out += PIECES[Math.floor(random() * PIECES.length)];
    else if (r < 0.8) out += String.fromCharCode(32 + Math.floor(random() * 95));
    else if (r < 0.95) out += String.fromCharCode(Math.floor(random() * 0x3000));
    else out += "x".repeat(Math.floor(random() * 5000));
  }
  return out;
}

/** Random bytes decoded leniently: invalid UTF-8 becomes U+FFFD, as a reader would see it. */
function randomBytesText(random: () => number, max = 4096): string {
  const bytes = new Uint8Array(Math.floor(random() * max));
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
  return new TextDecoder().decode(bytes);
}

/** Each input a property sees: hostile texts, random bytes, and a few fixed monsters. */
function* inputs(seed: number): Generator<string> {
  const random = prng(seed);
  yield "";
  yield "x".repeat(2_000_000); // one huge line
  yield "---\n" + "k: v\n".repeat(100_000) + "---\n";
  yield "\n".repeat(200_000);
  yield "[".repeat(200_000) + "]".repeat(200_000); // deeply nested JSON
  yield '{"a":'.repeat(50_000) + "1" + "}".repeat(50_000);
  for (let i = 0; i < ROUNDS; i++) yield i % 3 === 0 ? randomBytesText(random) : hostile(random);
}

const DOC_HEAD =
  "---\nslug: a\ncreated: 2026-11-30T11:50:00Z\nconsumed: false\nbranch: main\n---\n";

Deno.test("fuzz: front matter", async (t) => {
  await t.step("splitFrontMatter never throws and splits byte-exactly", () => {
    for (const x of inputs(1)) {
      for (const text of [x, DOC_HEAD + x]) {
        const s = splitFrontMatter(text);
        if (s) assert.equal(s.head + s.body, text);
      }
    }
  });
  await t.step("a body's own ---/consumed/## Next step never reaches the fields", () => {
    for (const x of inputs(2)) {
      const text = DOC_HEAD + "\n" + x;
      const s = splitFrontMatter(text)!;
      assert.deepEqual(s.fields, {
        slug: "a",
        created: "2026-11-30T11:50:00Z",
        consumed: "false",
        branch: "main",
      });
      const flipped = markConsumed(text)!;
      assert.equal(flipped, text.replace("consumed: false", "consumed: true"));
      assert.ok(flipped.endsWith(x), "the body is untouched");
    }
  });
  await t.step("markConsumed never throws; when it flips, only that word changes", () => {
    for (const x of inputs(3)) {
      const out = markConsumed(x);
      if (out === undefined) continue;
      assert.equal(out.length, x.length - 1);
      assert.equal(splitFrontMatter(out)?.fields.consumed, "true");
      assert.equal(splitFrontMatter(out)!.body, splitFrontMatter(x)!.body);
    }
  });
  await t.step("renderFrontMatter round-trips through splitFrontMatter", () => {
    const random = prng(4);
    for (let i = 0; i < ROUNDS; i++) {
      const fields: [string, string][] = [];
      const n = 1 + Math.floor(random() * KEYS.length);
      for (let k = 0; k < n; k++) {
        // Values are one line (no \r, \n, U+2028/9) without surrounding blanks or quotes: the
        // schema we write (slugs, ISO stamps, branch names).
        const v = hostile(random, 8).replace(/[\r\n\u2028\u2029]/g, " ").replace(
          /^["'\s]+|["'\s]+$/g,
          "",
        );
        fields.push([KEYS[k], v]);
      }
      for (const eol of ["\n", "\r\n"]) {
        const s = splitFrontMatter(renderFrontMatter(fields, eol) + "body");
        assert.ok(s, "renders parseable front matter");
        assert.deepEqual(Object.entries(s.fields), fields);
        assert.equal(s.body, "body");
      }
    }
  });
});

Deno.test("fuzz: sections, digest and the injected context", async (t) => {
  await t.step("parseSections and capLines never throw; capLines respects its cap", () => {
    for (const x of inputs(5)) {
      parseSections(x);
      const max = x.length % 9_000;
      const capped = capLines(x.replace(/\r\n?/g, "\n"), max);
      if (x.length > max) assert.ok(capped.length <= Math.max(max, 40), `${capped.length}`);
    }
  });
  await t.step("the context never exceeds the agent's budget, whatever the body", () => {
    for (const x of inputs(6)) {
      for (const agent of ["claude", "codex"] as const) {
        const budget = BUDGETS[agent];
        const ctx = buildContext(
          { slug: "s", created: "2026-11-30T11:50:00Z", body: x },
          NOW,
          budget,
        );
        assert.ok(ctx.length <= budget.limit, `${agent}: ${ctx.length} characters`);
        if (budget.maxBytes) {
          assert.ok(new TextEncoder().encode(ctx).length <= budget.maxBytes, `${agent}: bytes`);
        }
        buildDigest(x, "session.ts recall s", 500);
      }
    }
  });
});

Deno.test("fuzz: PARKED.md", async (t) => {
  await t.step("parseParked never throws and renders back byte-exactly", () => {
    for (const x of inputs(7)) {
      assert.equal(renderParked(parseParked(x)), x);
      assert.equal(renderParked(parseParked("# Parked items\n\n" + x)), "# Parked items\n\n" + x);
    }
  });
  await t.step("parseBullet never throws; slugs are slug-shaped", () => {
    for (const x of inputs(8)) {
      const item = parseBullet("- " + x);
      assert.equal(typeof item.summary, "string");
      assert.ok(!/[\/\\\s]/.test(item.slug), `slug "${item.slug}"`);
    }
  });
});

Deno.test("fuzz: hook payload, flags, slugs, git output, transcript lines", async (t) => {
  await t.step("parsePayload never throws; it accepts only an object with a non-empty cwd", () => {
    for (const x of inputs(9)) {
      const p = parsePayload(x);
      if (p) {
        assert.ok(typeof p.cwd === "string" && p.cwd !== "");
        gate(p, DEFAULT_OPTIONS);
      }
    }
    assert.equal(parsePayload('{"cwd":' + "[".repeat(100_000) + "}"), undefined);
    assert.equal(parsePayload('{"cwd": 5}'), undefined);
    assert.equal(parsePayload('{"cwd": ""}'), undefined);
    assert.equal(parsePayload('["cwd"]'), undefined);
  });
  await t.step("parseHookArgs never throws and keeps sane options", () => {
    const random = prng(10);
    for (let i = 0; i < ROUNDS; i++) {
      const args = Array.from(
        { length: Math.floor(random() * 6) },
        () =>
          random() < 0.5
            ? ["--source", "--window-minutes", "--agent", "--source=", "--window-minutes=-1"][
              Math.floor(random() * 5)
            ]
            : hostile(random, 4),
      );
      const o = parseHookArgs(args);
      assert.ok(o.windowMs > 0 && Number.isFinite(o.windowMs));
      assert.ok(o.sources.includes("clear"));
      assert.ok(["claude", "codex", "gemini"].includes(o.agent));
    }
  });
  await t.step("slug checks never throw; a safe slug never leaves the store", () => {
    for (const x of inputs(11)) {
      refusal(x);
      const s = slugify(x);
      if (isSafeSlug(x)) assert.ok(!/[\/\\]/.test(x) && !x.includes(".."));
      if (s) assert.ok(!/[\/\\]/.test(s), s);
    }
  });
  await t.step("git output parsers never throw", () => {
    for (const x of inputs(12)) {
      parseNumstatZ(x);
      parseLog(x);
      parseStashes(x);
    }
  });
  await t.step("transcript lines never throw, bad lines are counted", () => {
    const random = prng(13);
    for (let i = 0; i < 40; i++) {
      const lines: string[] = [];
      for (let k = 0; k < 50; k++) {
        const r = random();
        if (r < 0.3) lines.push(hostile(random, 10));
        else if (r < 0.5) lines.push(randomBytesText(random, 200));
        else if (r < 0.6) lines.push("[".repeat(10_000));
        else {
          lines.push(JSON.stringify({
            type: ["user", "assistant", "system", hostile(random, 2)][k % 4],
            message: {
              role: "assistant",
              content: [{
                type: "tool_use",
                id: hostile(random, 2),
                name: ["Write", "Edit", "TaskCreate", "TodoWrite", hostile(random, 1)][k % 5],
                input: { file_path: hostile(random, 3), todos: [{ content: 5 }], subject: null },
              }],
            },
          }));
        }
      }
      const facts = parseTranscript(lines.join(random() < 0.5 ? "\n" : "\r\n"), {
        root: "/home/dev/app",
      });
      assert.ok(Array.isArray(facts.files));
    }
  });
  await t.step("result lines the reader leaves unparsed never change its facts", () => {
    const random = prng(14);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const IDS = ["a", "b", "c", 'q"x', "d\\e", "toolu_01"];
    const TOOLS = ["Write", "Edit", "TaskCreate", "TaskUpdate", "Read", "Bash", "AskUserQuestion"];
    /** Keys a record may carry before its type and message: scalars, or a decoy. */
    const before = (): Record<string, unknown> =>
      pick([
        {},
        { parentUuid: "p-1", isSidechain: false, promptId: hostile(random, 2) },
        {
          meta: { message: { role: "user", content: [{ type: "tool_result", tool_use_id: "a" }] } },
        },
        { note: "message", tags: ["x"] },
      ]);
    const result = () => {
      const id = pick(IDS);
      const tail = { content: pick(["ok", "Task #4 created", hostile(random, 3)]) };
      const error = random() < 0.08 ? { is_error: true } : {}; // a failed result is always parsed (it tells where the turn stopped)
      return random() < 0.5
        ? { tool_use_id: id, type: "tool_result", ...tail, ...error }
        : { type: "tool_result", tool_use_id: id, ...tail, ...error };
    };
    let skipped = 0;
    for (let i = 0; i < 60; i++) {
      const lines = [headerLine("/p")];
      for (let k = 0; k < 40; k++) {
        const r = random();
        let line: string;
        if (r < 0.35) {
          line = JSON.stringify({
            type: "assistant",
            message: {
              role: "assistant",
              content: [{
                type: "tool_use",
                id: pick(IDS),
                name: pick(TOOLS),
                input: { file_path: `/p/${pick(["a", "b", "c"])}.ts`, subject: "S", taskId: "4" },
              }],
            },
          });
        } else if (r < 0.8) {
          const content = [result()];
          while (random() < 0.4) content.push(result());
          if (random() < 0.2) content.push({ type: "text", text: "Also this." } as never);
          const type = pick(["user", "user", "assistant"]);
          line = JSON.stringify({
            ...(random() < 0.5 ? { type, ...before() } : { ...before(), type }),
            message: { role: "user", content },
            ...(random() < 0.5 ? { toolUseResult: { task: { id: "5" } } } : {}),
          });
        } else if (r < 0.9) {
          line = JSON.stringify({
            ...(random() < 0.5 ? { type: "user", ...before() } : { ...before(), type: "user" }),
            message: { role: "user", content: pick(["Fix the bug.", hostile(random, 4)]) },
          });
        } else {
          line = hostile(random, 6);
        }
        if (random() < 0.1) {
          // Cut short, anywhere but right after a `}` (see resultsOnly on badLines).
          let cut = line.slice(0, Math.floor(random() * line.length));
          while (cut.endsWith("}")) cut = cut.slice(0, -1);
          line = cut;
        }
        lines.push(line);
      }
      const text = lines.join(random() < 0.5 ? "\n" : "\r\n");
      const read = countingParses(() => parseTranscript(text, { root: "/p" }));
      const every = countingParses(() => everyLineParsed(text, { root: "/p" }));
      assert.deepEqual(read.value, every.value, text);
      skipped += every.parses - read.parses;
    }
    assert.ok(skipped > 100, `lines left unparsed: ${skipped}`);
  });
});

/** A random JSONC settings object: comments, trailing commas, CRLF, others' hooks, nesting. */
function settingsText(random: () => number): string {
  const eol = random() < 0.3 ? "\r\n" : "\n";
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const comment = () =>
    random() < 0.25
      ? pick([` // note ${pick(PIECES).replace(/[\r\n]/g, "")}${eol}`, " /* c */ "])
      : "";
  const scalar = () =>
    pick([
      () => String(Math.floor(random() * 1e6) / 100),
      () => JSON.stringify(hostile(random, 4)),
      () => pick(["true", "false", "null"]),
    ])();
  const value = (depth: number): string => {
    const r = random();
    if (depth > 3 || r < 0.5) return scalar();
    if (r < 0.7) {
      const items = Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return `[${comment()}${items.join(`,${comment()} `)}${
        random() < 0.2 && items.length ? "," : ""
      }]`;
    }
    return object(depth + 1);
  };
  const others = () =>
    JSON.stringify({
      matcher: pick(["startup", "clear", "*"]),
      hooks: [{ type: "command", command: `echo ${Math.floor(random() * 100)}` }],
    });
  const object = (depth: number): string => {
    const entries: string[] = [];
    const n = Math.floor(random() * 5);
    for (let i = 0; i < n; i++) {
      entries.push(`${JSON.stringify(`k${i}${hostile(random, 2)}`)}: ${value(depth)}`);
    }
    if (depth === 0 && random() < 0.5) {
      // At least one group: an empty SessionStart array the user kept is pruned by uninstall
      // (it cannot tell it from one that install created) — a known, accepted difference.
      const groups = Array.from({ length: 1 + Math.floor(random() * 2) }, others);
      entries.push(
        `"hooks": {${comment()}"SessionStart": [${groups.join(", ")}]${
          random() < 0.5 ? `, "Stop": [${others()}]` : ""
        }}`,
      );
    }
    const pad = eol + "  ".repeat(depth + 1);
    const body = entries.map((e) => comment() + pad + e).join(",");
    return `{${body}${random() < 0.2 && entries.length ? "," : ""}${eol}${"  ".repeat(depth)}}`;
  };
  return comment() + object(0) + eol;
}

Deno.test("fuzz: settings JSONC", async (t) => {
  const command = "deno run --no-prompt /opt/session/session_restore.ts";
  await t.step("hostile text: only SettingsError ever comes out", () => {
    for (const x of inputs(15)) {
      for (
        const f of [
          () => findHooks(x, CLAUDE),
          () => addHook(x, CLAUDE, command),
          () => removeHooks(x, CLAUDE),
        ]
      ) {
        try {
          f();
        } catch (err) {
          assert.ok(err instanceof SettingsError, `${err}`);
        }
      }
    }
  });
  await t.step("install then uninstall gives the file back byte for byte", () => {
    const random = prng(16);
    for (let i = 0; i < ROUNDS; i++) {
      const text = settingsText(random);
      const added = addHook(text, CLAUDE, command);
      const found = findHooks(added, CLAUDE);
      assert.equal(found.length, 1, text);
      assert.equal(found[0].command, command);
      assert.equal(addHook(added, CLAUDE, command), added, "install is idempotent");
      const back = removeHooks(added, CLAUDE);
      // Uninstall empties a file it leaves as a bare `{}` (lib/agents/settings.ts): that one case aside,
      // the round trip is byte-exact.
      if (!(back === "" && /^\s*\{\s*\}\s*$/.test(text))) {
        assert.equal(back, text, `round trip of:\n${text}`);
      }
    }
  });
  await t.step("every event (and --startup) installed, then uninstalled: byte for byte", () => {
    const random = prng(17);
    const targets = AGENTS.claude.targets;
    for (let i = 0; i < ROUNDS; i++) {
      const text = settingsText(random);
      const startup = random() < 0.5;
      let added = text;
      for (const target of targets) added = addHook(added, target, command, { startup });
      for (const target of targets) assert.equal(findHooks(added, target).length, 1, text);
      let back = added;
      for (const target of [...targets].reverse()) back = back && removeHooks(back, target);
      if (!(back === "" && /^\s*\{\s*\}\s*$/.test(text))) {
        assert.equal(back, text, `round trip of:\n${text}`);
      }
    }
  });
});

Deno.test("fuzz: the hook process never fails on hostile stdin", async (t) => {
  await using p = await scratchProject();
  await writeDoc(p.store, "fresh");
  const random = prng(14);
  const stdins: (string | Uint8Array)[] = [
    "",
    "null",
    "[]",
    '{"cwd":' + "[".repeat(100_000),
    "x".repeat(2 * 1024 * 1024),
    new Uint8Array([0xff, 0xfe, 0x00, 0xc3, 0x28]),
    clearPayload(p.root).replace("SessionStart", "SessionStart\uD800"),
    ...Array.from({ length: 6 }, () => randomBytesText(random, 512)),
  ];
  const event = clearPayload(p.root).replace("SessionStart", "SessionStart\uD800");
  for (const stdin of stdins) {
    await t.step(
      `stdin of ${stdin.length} ${typeof stdin === "string" ? "chars" : "bytes"}`,
      async () => {
        const r = await runHookProcess(stdin, { env: { SESSION_DEBUG: "1" } });
        assert.equal(r.code, 0);
        assert.equal(r.stdout, "", "nothing injected");
        assert.ok(!/\n\s+at /.test(r.stderr), "no stack trace");
        // Silent for its reason, said on stderr: a crash is silent too, and must not pass.
        const reason = stdin === event
          ? "not a SessionStart event"
          : "no usable payload on stdin; nothing injected";
        assert.equal(r.stderr, `session_restore: ${reason}\n`);
      },
    );
  }
  // The document is still there to be injected by a real payload.
  const r = await runHookProcess(clearPayload(p.root));
  assert.match(r.stdout, /additionalContext/);
});

Deno.test("fuzz: context pressure", async (t) => {
  const usage = '{"type":"assistant","message":{"model":"m","usage":{"input_tokens":';
  await t.step("fillFromTail and parseStatusInput never throw; a fill is a sane figure", () => {
    const random = prng(21);
    for (const x of inputs(21)) {
      const text = random() < 0.5 ? x : `${usage}${x}\n${x}`;
      const fill = fillFromTail(text, Math.floor(random() * 3));
      if (fill) assert.ok(fill.used >= 0 && fill.size > 0 && Number.isFinite(fill.used));
      const status = parseStatusInput(x);
      if (status.fill) assert.ok(status.fill.size > 0 && status.fill.used >= 0);
      assert.ok(parseThresholds(x) === undefined || parseThresholds(x)!.every((n) => n > 0));
    }
  });
  await t.step("--nudge words in the hook's flags keep sane thresholds", () => {
    const random = prng(22);
    for (let i = 0; i < ROUNDS; i++) {
      const o = parseHookArgs(["--nudge", hostile(random, 8)]);
      assert.ok(
        o.nudge === undefined || o.nudge.every((n) => Number.isInteger(n) && n > 0 && n < 100),
      );
    }
  });
});
