import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import {
  COMMON_FLAGS,
  helpText,
  type ModeSpec,
  parseMode,
  parseOrHelp,
  quickParse,
} from "../../lib/cli/args.ts";
import { UsageError } from "../../lib/errors.ts";
import { prng } from "../support/prng.ts";

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

async function usageMessage(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof UsageError, `expected a UsageError, got ${err}`);
    return err.message;
  }
  assert.fail("expected a UsageError");
}

Deno.test("args: strict modes", async (t) => {
  await t.step("flags, a positional and --dir parse", async () => {
    assert.deepEqual(await parseMode(SPEC, ["x", "--json", "--since", "3h", "--dir", "/p"]), {
      flags: { json: true, since: "3h" },
      positionals: ["x"],
      dir: "/p",
    });
    assert.deepEqual(await parseMode(SPEC, ["--since=2h"]), {
      flags: { since: "2h" },
      positionals: [],
      dir: undefined,
    });
  });
  await t.step("--help and -h anywhere ask for help", async () => {
    assert.equal(await parseMode(SPEC, ["--help"]), "help");
    assert.equal(await parseMode(SPEC, ["x", "-h"]), "help");
  });
  await t.step("an unknown flag is a usage error naming the mode's flags", async () => {
    const msg = await usageMessage(() => parseMode(SPEC, ["--bogus"]));
    assert.match(msg, /unknown flag "--bogus"/);
    assert.match(msg, /Supported flags of demo: --json, --since SPEC, --dir DIR, --help/);
    assert.match(await usageMessage(() => parseMode(SPEC, ["-q"])), /unknown flag "-q"/);
  });
  await t.step("missing and unexpected values are usage errors", async () => {
    assert.match(await usageMessage(() => parseMode(SPEC, ["--since"])), /--since needs a value/);
    assert.match(await usageMessage(() => parseMode(SPEC, ["--json=1"])), /--json takes no value/);
    assert.match(
      await usageMessage(() => parseMode(SPEC, ["--dir", " "])),
      /--dir needs a directory/,
    );
  });
  await t.step("too many words is a usage error; a mode without words takes none", async () => {
    assert.match(await usageMessage(() => parseMode(SPEC, ["a", "b"])), /at most 1 word.*"b"/);
    const none = { ...SPEC, maxPositionals: 0 };
    assert.match(await usageMessage(() => parseMode(none, ["a"])), /takes no words, got "a"/);
  });
  await t.step("the no-parseArgs fast path agrees: no words, known boolean flags", async () => {
    assert.deepEqual(await parseMode(SPEC, []), { flags: {}, positionals: [], dir: undefined });
    assert.deepEqual(await parseMode(SPEC, ["--json", "--json"]), {
      flags: { json: true },
      positionals: [],
      dir: undefined,
    });
    assert.equal(await parseMode(SPEC, ["--json", "--help"]), "help");
    // Anything else goes to parseArgs: a string flag without its value is still refused.
    assert.match(await usageMessage(() => parseMode(SPEC, ["--since"])), /needs a value/);
    assert.match(await usageMessage(() => parseMode(SPEC, ["--constructor"])), /unknown flag/);
  });
  await t.step("quickParse takes words and known flags; anything else is left to parseArgs", () => {
    const flags = { ...SPEC.flags, ...COMMON_FLAGS };
    assert.deepEqual(quickParse(flags, ["x", "--dir", "/p", "--since=", "--json"]), {
      values: { dir: "/p", since: "", json: true },
      positionals: ["x"],
    });
    for (const args of [["-h"], ["--"], ["-"], ["--bogus"], ["--dir"], ["--dir", "-x"]]) {
      assert.equal(quickParse(flags, args), undefined, JSON.stringify(args));
    }
    assert.equal(quickParse(flags, ["--json=1"]), undefined);
  });
  await t.step("quickParse agrees with parseArgs wherever it answers (random arguments)", () => {
    const flags = { ...SPEC.flags, ...COMMON_FLAGS };
    const options = Object.fromEntries(
      Object.entries(flags).map(([name, def]) => [
        name,
        def.short ? { type: def.type, short: def.short } : { type: def.type },
      ]),
    );
    // Values with spaces, `=`, dashes and text of every UTF-8 width, inline and separate: where
    // a fast path could trim, split at the wrong `=` or take a dash for a flag.
    const next = prng(20261201);
    const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
    const pieces = [
      "",
      " ",
      "a",
      "3h",
      "=",
      "-",
      "--",
      "x=y",
      "é",
      "日本",
      "😀",
      "\t",
      "a b",
      "-1",
    ];
    const value = () => Array.from({ length: Math.floor(next() * 4) }, () => pick(pieces)).join("");
    const arg = (): string[] => {
      switch (Math.floor(next() * 10)) {
        case 0:
        case 1:
        case 6:
        case 7:
          return [value()];
        case 2:
          return [pick(["--since", "--dir"]), value()];
        case 3:
          return [`${pick(["--since", "--dir", "--since", "--json"])}=${value()}`];
        case 4:
          return [pick(["--json", "--help", "-h", "--json"])];
        case 5:
          return [pick(["--since", "--dir"]), pick(pieces) + value()];
        case 8:
          return [pick(["--since", "--dir"]), pick(["a", "é", "日本 x", "x=y", " "]) + value()];
        default:
          return [pick(["--", "-", "-x", "--bogus", "--constructor", "--__proto__", "--=x"])];
      }
    };
    let answered = 0;
    const distinct = new Set<string>();
    for (let round = 0; round < 5000; round++) {
      const args = Array.from({ length: 1 + Math.floor(next() * 5) }, arg).flat();
      const quick = quickParse(flags, args);
      if (quick === undefined) continue;
      answered++;
      distinct.add(JSON.stringify(args));
      const node = parseArgs({ args, options, strict: true, allowPositionals: true });
      assert.deepEqual(
        quick,
        { values: { ...node.values }, positionals: node.positionals },
        JSON.stringify(args),
      );
    }
    assert.ok(distinct.size > 1_500, `only ${distinct.size} distinct inputs compared`);
    assert.ok(answered > 1_500, `only ${answered} of 5000 answered by the fast path`);
  });
  await t.step(
    "the fast path matches node:util parseArgs on plain words and boolean flags",
    async () => {
      const { parseArgs } = await import("node:util");
      for (const args of [["x"], ["x", "--json"], ["--json", "x"], [""], ["x y"], ["--json"]]) {
        const direct = parseArgs({
          args,
          options: {
            json: { type: "boolean" },
            since: { type: "string" },
            dir: { type: "string" },
          },
          strict: true,
          allowPositionals: true,
        });
        assert.deepEqual(await parseMode(SPEC, args), {
          flags: { ...direct.values },
          positionals: direct.positionals,
          dir: undefined,
        }, JSON.stringify(args));
      }
    },
  );
  await t.step("after --, words that look like flags are positionals", async () => {
    assert.deepEqual(await parseMode(SPEC, ["--", "--json"]), {
      flags: {},
      positionals: ["--json"],
      dir: undefined,
    });
  });
});

Deno.test("args: payload modes", async (t) => {
  await t.step("unknown --words are payload, in order; own flags are taken", async () => {
    assert.deepEqual(
      await parseMode(PAYLOAD, [
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
  await t.step("--help only as the first word; -- ends flags", async () => {
    assert.equal(await parseMode(PAYLOAD, ["--help"]), "help");
    const p = await parseMode(PAYLOAD, ["explain", "--help", "--", "--why", "x"]);
    assert.deepEqual(p, {
      flags: {},
      positionals: ["explain", "--help", "--why", "x"],
      dir: undefined,
    });
  });
  await t.step("own flags still need their values", async () => {
    assert.match(
      await usageMessage(() => parseMode(PAYLOAD, ["a", "--why"])),
      /--why needs a value/,
    );
    assert.match(
      await usageMessage(() => parseMode(PAYLOAD, ["a", "--force=1"])),
      /takes no value/,
    );
  });
  await t.step("--dir works in payload modes too", async () => {
    const p = await parseMode(PAYLOAD, ["a", "--dir", "/x"]);
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
  await t.step("parseOrHelp prints help to stdout and returns undefined", async () => {
    const out: string[] = [];
    const ctx = {
      cwd: "/",
      env: () => undefined,
      now: new Date(0),
      readStdin: () => Promise.resolve(""),
      out: (s: string) => out.push(s),
      err: () => {},
    };
    assert.equal(await parseOrHelp(SPEC, ["--help"], ctx), undefined);
    assert.equal(out.length, 1);
    assert.match(out[0], /Usage: session.ts demo/);
    assert.deepEqual((await parseOrHelp(SPEC, ["--json"], ctx))?.flags, { json: true });
  });
});
