import assert from "node:assert/strict";
import { helpText, type ModeSpec, modeSpec, parseMode, parseOrHelp } from "../../lib/cli/args.ts";
import { UsageError } from "../../lib/errors.ts";

const SPEC: ModeSpec = {
  mode: "demo",
  usage: "demo [name] [--json]",
  summary: "A demo mode.",
  flags: {
    json: { type: "boolean", help: "JSON" },
    since: { type: "string", value: "SPEC", help: "since" },
  },
  maxPositionals: 1,
};
const PAYLOAD: ModeSpec = {
  mode: "park",
  usage: "park <summary…>",
  summary: "Parks.",
  flags: {
    why: { type: "string", value: "T", help: "why" },
    next: { type: "string", value: "T", help: "next" },
    force: { type: "boolean", help: "f" },
  },
  payload: true,
};

function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof UsageError, `expected a UsageError, got ${err}`);
    return err.message;
  }
  assert.fail("expected a UsageError");
}

Deno.test("args: strict modes", async (t) => {
  await t.step("flags, a positional and --dir parse", () => {
    assert.deepEqual(parseMode(SPEC, ["x", "--json", "--since", "3h", "--dir", "/p"]), {
      flags: { json: true, since: "3h" },
      positionals: ["x"],
      dir: "/p",
    });
    assert.deepEqual(parseMode(SPEC, ["--since=2h"]), {
      flags: { since: "2h" },
      positionals: [],
      dir: undefined,
    });
  });
  await t.step("--help and -h anywhere ask for help", () => {
    assert.equal(parseMode(SPEC, ["--help"]), "help");
    assert.equal(parseMode(SPEC, ["x", "-h"]), "help");
  });
  await t.step("an unknown flag is a usage error naming the mode's flags", () => {
    const msg = usageMessage(() => parseMode(SPEC, ["--bogus"]));
    assert.match(msg, /unknown flag "--bogus"/);
    assert.match(msg, /Supported flags of demo: --json, --since SPEC, --dir DIR, --help/);
    assert.match(usageMessage(() => parseMode(SPEC, ["-q"])), /unknown flag "-q"/);
  });
  await t.step("missing and unexpected values are usage errors", () => {
    assert.match(usageMessage(() => parseMode(SPEC, ["--since"])), /--since needs a value/);
    assert.match(usageMessage(() => parseMode(SPEC, ["--json=1"])), /--json takes no value/);
    assert.match(
      usageMessage(() => parseMode(SPEC, ["--dir", " "])),
      /--dir needs a directory/,
    );
  });
  await t.step("too many words is a usage error; a mode without words takes none", () => {
    assert.match(usageMessage(() => parseMode(SPEC, ["a", "b"])), /at most 1 word.*"b"/);
    const none = { ...SPEC, maxPositionals: 0 };
    assert.match(usageMessage(() => parseMode(none, ["a"])), /takes no words, got "a"/);
  });
  await t.step("no words and repeated boolean flags", () => {
    assert.deepEqual(parseMode(SPEC, []), { flags: {}, positionals: [], dir: undefined });
    assert.deepEqual(parseMode(SPEC, ["--json", "--json"]), {
      flags: { json: true },
      positionals: [],
      dir: undefined,
    });
    assert.equal(parseMode(SPEC, ["--json", "--help"]), "help");
    assert.match(usageMessage(() => parseMode(SPEC, ["--constructor"])), /unknown flag/);
    assert.match(usageMessage(() => parseMode(SPEC, ["--toString"])), /unknown flag/);
  });
  await t.step("after --, words that look like flags are positionals", () => {
    assert.deepEqual(parseMode(SPEC, ["--", "--json"]), {
      flags: {},
      positionals: ["--json"],
      dir: undefined,
    });
  });
});

Deno.test("args: payload modes", async (t) => {
  await t.step("unknown --words are payload, in order; own flags are taken", () => {
    assert.deepEqual(
      parseMode(PAYLOAD, [
        "fix",
        "--no-verify",
        "use",
        "--why",
        "CI red",
        "--next=rerun",
        "-x",
      ]),
      {
        flags: { why: "CI red", next: "rerun" },
        positionals: ["fix", "--no-verify", "use", "-x"],
        dir: undefined,
      },
    );
  });
  await t.step("--help only as the first word; -- ends flags", () => {
    assert.equal(parseMode(PAYLOAD, ["--help"]), "help");
    const p = parseMode(PAYLOAD, ["explain", "--help", "--", "--why", "x"]);
    assert.deepEqual(p, {
      flags: {},
      positionals: ["explain", "--help", "--why", "x"],
      dir: undefined,
    });
  });
  await t.step("own flags still need their values", () => {
    assert.match(
      usageMessage(() => parseMode(PAYLOAD, ["a", "--why"])),
      /--why needs a value/,
    );
    assert.match(
      usageMessage(() => parseMode(PAYLOAD, ["a", "--force=1"])),
      /takes no value/,
    );
  });
  await t.step("flag-shaped words are kept whole, once, in order", () => {
    assert.deepEqual(
      parseMode(PAYLOAD, ["-ab", "x", "-h", "--toString", "--=x", "-1", "--bogus=1", "-", "é"]),
      {
        flags: {},
        positionals: ["-ab", "x", "-h", "--toString", "--=x", "-1", "--bogus=1", "-", "é"],
        dir: undefined,
      },
    );
  });
  await t.step("an own string flag takes the next word, whatever it looks like", () => {
    assert.deepEqual(parseMode(PAYLOAD, ["a", "--why", "-x", "--next", "--", "b"]), {
      flags: { why: "-x", next: "--" },
      positionals: ["a", "b"],
      dir: undefined,
    });
    assert.deepEqual(parseMode(PAYLOAD, ["a", "--why="]), {
      flags: { why: "" },
      positionals: ["a"],
      dir: undefined,
    });
  });
  await t.step("--dir works in payload modes too", () => {
    const p = parseMode(PAYLOAD, ["a", "--dir", "/x"]);
    assert.notEqual(p, "help");
    assert.equal((p as { dir?: string }).dir, "/x");
  });
});

Deno.test("args: help", async (t) => {
  await t.step("help text lists usage, summary, every flag and notes", () => {
    const text = helpText({ ...SPEC, notes: ["Example: session.ts demo x"] });
    assert.match(text, /^Usage: session.ts demo \[name\] \[--json\]/);
    for (const f of ["--json", "--since SPEC", "--dir DIR", "-h, --help"]) {
      assert.ok(text.includes(f), f);
    }
    assert.ok(text.endsWith("Example: session.ts demo x"));
  });
  await t.step("parseOrHelp prints help to stdout and returns undefined", () => {
    const out: string[] = [];
    const ctx = {
      cwd: "/",
      env: () => undefined,
      now: new Date(0),
      readStdin: () => Promise.resolve(""),
      out: (s: string) => out.push(s),
      err: () => {},
    };
    assert.equal(parseOrHelp(SPEC, ["--help"], ctx), undefined);
    assert.equal(out.length, 1);
    assert.match(out[0], /Usage: session.ts demo/);
    assert.deepEqual((parseOrHelp(SPEC, ["--json"], ctx))?.flags, { json: true });
  });
});

Deno.test("args: a mode's spec types its flags (deno check fails when it does not)", () => {
  const spec = modeSpec({
    mode: "typed",
    usage: "typed [--since SPEC] [--json]",
    summary: "Typed.",
    flags: {
      since: { type: "string", value: "SPEC", help: "since" },
      json: { type: "boolean", help: "JSON" },
    },
  });
  const parsed = parseMode(spec, ["--since", "3h", "--json"]);
  assert.notEqual(parsed, "help");
  if (parsed === "help") return;
  const since: string | undefined = parsed.flags.since;
  const json: boolean | undefined = parsed.flags.json;
  assert.deepEqual({ since, json }, { since: "3h", json: true });
  // @ts-expect-error a boolean flag is no string
  const wrong: string | undefined = parsed.flags.json;
  // @ts-expect-error a flag the mode does not have
  const unknown = parsed.flags.bogus;
  assert.deepEqual([wrong, unknown], [true, undefined]);
});
