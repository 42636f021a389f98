/**
 * `session.ts mcp` as a process, through the SDK's own Client over stdio: every prompt, resource
 * and tool against a scratch project, each tool's text the same as the CLI's for the same store;
 * bad arguments; the client's roots; a store another process changes meanwhile; two servers at
 * once.
 * @module
 */

import assert from "node:assert/strict";
import { join } from "../../lib/fs/path.ts";
import { readLatest } from "../../lib/store/latest.ts";
import { docPath } from "../../lib/store/store.ts";
import { runCliInProcess, runCliProcess } from "../support/run.ts";
import { put, scratchProject, writeDoc } from "../support/scratch.ts";
import { connect, textOf } from "./_client.ts";

const PARKED = [
  "# Parked items",
  "",
  "- **cache-alpha** — cache alpha warmup. Raised: 2026-11-01.",
  "- **cache-beta** — cache beta warmup. Raised: 2026-11-02.",
  "- **docs-install** — Document install on Windows. Raised: 2026-11-29.",
  "",
].join("\n");

/** The texts of a prompt's messages. */
function promptText(r: { messages: { content: { type: string; text?: string } }[] }): string {
  return r.messages.map((m) => m.content.text ?? "").join("\n");
}

Deno.test("mcp server: lists what it offers", async () => {
  await using p = await scratchProject();
  await writeDoc(p.store, "alpha");
  await using c = await connect({ cwd: p.root });
  const tools = (await c.client.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(tools, ["drop", "dump", "list", "park", "recall", "search"]);
  const prompts = (await c.client.listPrompts()).prompts.map((x) => x.name).sort();
  assert.deepEqual(prompts, ["dump", "restore"]);
  const uris = (await c.client.listResources()).resources.map((r) => r.uri).sort();
  assert.deepEqual(uris, ["session://handover/alpha", "session://parked", "session://pending"]);
  const templates = (await c.client.listResourceTemplates()).resourceTemplates;
  assert.deepEqual(templates.map((x) => x.uriTemplate), ["session://handover/{slug}"]);
  const caps = c.client.getServerCapabilities();
  assert.equal(caps?.resources?.listChanged, true);
  const dump = (await c.client.listTools()).tools.find((t) => t.name === "dump")!;
  const props = Object.keys(dump.inputSchema.properties ?? {});
  for (const a of ["goal", "decisions", "next_step", "name", "force"]) assert.ok(props.includes(a));
  assert.ok(!props.includes("dir"), "no tool takes a directory");
});

Deno.test("mcp server: the restore prompt consumes the handover once", async (t) => {
  await using p = await scratchProject();
  await writeDoc(p.store, "alpha");
  await writeDoc(p.store, "beta", { latest: false });
  await using c = await connect({ cwd: p.root });
  await t.step("its argument completes slugs", async () => {
    const r = await c.client.complete({
      ref: { type: "ref/prompt", name: "restore" },
      argument: { name: "name", value: "al" },
    });
    assert.deepEqual(r.completion.values, ["alpha"]);
    const all = await c.client.complete({
      ref: { type: "ref/prompt", name: "restore" },
      argument: { name: "name", value: "" },
    });
    assert.deepEqual(all.completion.values.sort(), ["alpha", "beta"]);
  });
  await t.step("the pending one, quoted as a record, then consumed", async () => {
    const text = promptText(await c.client.getPrompt({ name: "restore", arguments: {} }));
    assert.match(text, /^\[session\] The handover "alpha" is restored/);
    assert.match(text, /not as instructions\.\n```\n\[session\] Handover "alpha"/);
    assert.match(text, /Ship the restore hook\./);
    assert.ok(text.endsWith("Run the tests.\n```"), text);
    assert.equal(readLatest(p.store), undefined);
    assert.match(await Deno.readTextFile(docPath(p.store, "alpha")), /^consumed: true$/m);
  });
  await t.step("a second restore finds none: an error in the CLI's words", async () => {
    await assert.rejects(
      c.client.getPrompt({ name: "restore", arguments: {} }),
      /session recall: No pending handover: LATEST is empty/,
    );
  });
  await t.step("a named one, and a name that is none", async () => {
    const text = promptText(
      await c.client.getPrompt({ name: "restore", arguments: { name: "beta" } }),
    );
    assert.match(text, /"beta"/);
    assert.match(await Deno.readTextFile(docPath(p.store, "beta")), /^consumed: true$/m);
    await assert.rejects(
      c.client.getPrompt({ name: "restore", arguments: { name: "../../etc/passwd" } }),
      /is not a handover name/,
    );
  });
  await t.step("the dump prompt says what to write and names the tool", async () => {
    const text = promptText(await c.client.getPrompt({ name: "dump", arguments: { name: "x" } }));
    assert.match(text, /`dump` tool/);
    assert.match(text, /`next_step` \(## Next step\)/);
  });
});

Deno.test("mcp server: resources read the store and consume nothing", async (t) => {
  await using p = await scratchProject();
  await writeDoc(p.store, "alpha", {
    body: "## Goal\n\nUse ghp_0123456789abcdefghijABCDEFGHIJ012345 for it.\n",
  });
  await put(p.root, ".claude/state/session/PARKED.md", PARKED);
  await using c = await connect({ cwd: p.root });
  const read = async (uri: string) =>
    (await c.client.readResource({ uri })).contents.map((x) => "text" in x ? x.text : "").join();
  await t.step("pending, by slug, PARKED.md; redacted", async () => {
    const pending = await read("session://pending");
    assert.match(pending, /^slug: alpha$/m);
    assert.match(pending, /\[redacted:/);
    assert.doesNotMatch(pending, /ghp_0123/);
    assert.equal(await read("session://handover/alpha"), pending);
    assert.match(await read("session://parked"), /cache-alpha/);
    assert.equal(readLatest(p.store), "alpha", "reading consumed nothing");
  });
  await t.step("a missing or escaping slug is an error, nothing read outside", async () => {
    await assert.rejects(c.client.readResource({ uri: "session://handover/nope" }), /No handover/);
    await assert.rejects(
      c.client.readResource({ uri: "session://handover/..%2F..%2F..%2Fetc%2Fpasswd" }),
      /No handover/,
    );
  });
  await t.step("with nothing pending, the pending resource says so", async () => {
    await Deno.remove(p.store.latest);
    assert.match(await read("session://pending"), /No pending handover/);
  });
});

Deno.test("mcp server: each tool answers as the CLI does", async (t) => {
  await using p = await scratchProject({ git: "repo" });
  await using twin = await scratchProject({ git: "repo" });
  for (const s of [p, twin]) {
    await writeDoc(s.store, "alpha");
    await writeDoc(s.store, "beta", { latest: false });
    await put(s.root, ".claude/state/session/PARKED.md", PARKED);
  }
  await using c = await connect({ cwd: p.root });
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await c.client.callTool({ name, arguments: args });
    return { isError: r.isError === true, text: textOf(r), r };
  };
  /** The CLI in the twin project: its text, with the twin's root named as this one's. */
  const cli = async (args: string[]) => {
    const r = await runCliInProcess(args, { cwd: twin.root });
    const same = (s: string) => s.replaceAll(twin.root, p.root);
    return { code: r.code, out: same(r.out), err: same(r.err) };
  };
  await t.step("list, search: the CLI's text", async () => {
    assert.equal((await call("list", {})).text, (await cli(["list"])).out);
    const json = await call("list", { json: true });
    assert.deepEqual(json.r.structuredContent, JSON.parse((await cli(["list", "--json"])).out));
    assert.equal(
      (await call("search", { words: "restore hook" })).text,
      (await cli(["search", "restore", "hook"])).out,
    );
  });
  await t.step("recall: the CLI's text, and it consumes", async () => {
    const r = await call("recall", { name: "beta" });
    assert.equal(r.isError, false);
    assert.equal(r.text, (await cli(["recall", "beta"])).out);
    assert.match(await Deno.readTextFile(docPath(p.store, "beta")), /^consumed: true$/m);
  });
  await t.step("a miss: isError, the CLI's message first", async () => {
    const r = await call("recall", { name: "nope" });
    const expected = await cli(["recall", "nope"]);
    assert.equal(r.isError, true);
    assert.equal(expected.code, 1);
    assert.equal(r.text, `${expected.err}\n${expected.out}`);
    assert.match(r.text, /^session recall: No handover "nope"/);
    const none = await call("search", { words: "zebra" });
    assert.equal(none.isError, true);
    assert.match(none.text, /^session search: /);
  });
  await t.step("park, then drop: a tie returns the choices and drops nothing", async () => {
    const parked = await call("park", {
      summary: "cache gamma warmup",
      why: "--dir /tmp",
      next: "seed it",
    });
    assert.equal(parked.isError, false, parked.text);
    const file = join(p.store.dir, "PARKED.md");
    assert.match(
      await Deno.readTextFile(file),
      /cache gamma warmup\. .*Why: --dir \/tmp\. Next: seed it/,
    );
    const before = await Deno.readTextFile(file);
    const tie = await call("drop", { query: "cache warmup" });
    assert.equal(tie.isError, true);
    assert.match(tie.text, /^session drop: 3 parked items match "cache warmup" equally closely/);
    const choices = (tie.r.structuredContent as { choices: { slug: string }[] }).choices;
    assert.deepEqual(choices.map((x) => x.slug).sort(), [
      "cache-alpha",
      "cache-beta",
      "cache-gamma-warmup",
    ]);
    assert.equal(await Deno.readTextFile(file), before, "nothing dropped");
    const dropped = await call("drop", { query: "cache-beta" });
    assert.equal(dropped.isError, false, dropped.text);
    assert.match(dropped.text, /^Dropped: cache-beta/);
    assert.doesNotMatch(await Deno.readTextFile(file), /cache-beta/);
  });
  await t.step("dump: the writer, caps and Confidence of the CLI's dump", async () => {
    await put(p.root, "src/served.ts", "export {};\n");
    const r = await call("dump", {
      name: "mcp-dump",
      goal: "Serve the store over MCP.",
      decisions: "- stdio only — why: every client speaks it",
      next_step: "Run `deno test -A tests/mcp/`.",
    });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^Wrote .*mcp-dump\.md$/m);
    assert.match(r.text, /^## Confidence$/m);
    assert.match(r.text, /^✓ decisions: /m);
    assert.match(r.text, /\/clear$/m);
    assert.equal(readLatest(p.store), "mcp-dump");
    const doc = await Deno.readTextFile(docPath(p.store, "mcp-dump"));
    assert.match(doc, /## Goal\n\nServe the store over MCP\./);
    assert.match(doc, /## Files touched\n[^#]*src\/served\.ts/, "the files table from git");
    assert.match(doc, /cache-alpha/, "open parked items copied in");
  });
  await t.step("dump with no section: an error, nothing written", async () => {
    const r = await call("dump", { name: "empty" });
    assert.equal(r.isError, true);
    assert.match(r.text, /no section given/);
    await assert.rejects(Deno.stat(docPath(p.store, "empty")));
  });
});

Deno.test("mcp server: bad arguments are tool errors, never a path outside", async (t) => {
  await using p = await scratchProject();
  await writeDoc(p.store, "alpha");
  await using c = await connect({ cwd: p.root });
  const call = (name: string, args: Record<string, unknown>) =>
    c.client.callTool({ name, arguments: args });
  await t.step("a wrong type or a missing required argument", async () => {
    for (
      const [name, args] of [["dump", { goal: 5 }], ["park", {}], ["drop", { query: "" }]] as const
    ) {
      const r = await call(name, args);
      assert.equal(r.isError, true, name);
      assert.match(textOf(r), /Input validation error|Invalid arguments/i, name);
    }
  });
  await t.step("an unknown tool", async () => {
    const r = await call("rm", {}).catch((e) => ({
      isError: true,
      content: [{ type: "text", text: String(e) }],
    }));
    assert.equal(r.isError, true);
    assert.match(textOf(r), /rm/);
  });
  await t.step("a name with a path is refused in the CLI's words", async () => {
    const r = await call("recall", { name: "../../etc/passwd" });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^session recall: "..\/..\/etc\/passwd" is not a handover name/);
  });
  await t.step("words that look like flags stay words; an unknown key is ignored", async () => {
    const r = await call("search", { words: "--dir=/etc", dir: "/etc" });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /--dir=\/etc/);
    assert.doesNotMatch(textOf(r), /\/etc\/passwd/);
    const parked = await call("park", { summary: "--dir /etc --help" });
    assert.notEqual(parked.isError, true, textOf(parked));
    assert.match(await Deno.readTextFile(p.store.parked), /--dir \/etc --help/);
  });
});

Deno.test("mcp server: the project is the client's root, else the working directory", async (t) => {
  await using a = await scratchProject();
  await using b = await scratchProject();
  await writeDoc(a.store, "in-a");
  await writeDoc(b.store, "in-b");
  await t.step("without roots: the working directory's store", async () => {
    await using c = await connect({ cwd: join(a.root, ".claude") });
    assert.match(textOf(await c.client.callTool({ name: "list", arguments: {} })), /in-a/);
  });
  await t.step("with roots: the root's store, and a change of roots moves it", async () => {
    await using c = await connect({ cwd: a.root, roots: [b.root] });
    const list = async () => textOf(await c.client.callTool({ name: "list", arguments: {} }));
    assert.match(await list(), /in-b/);
    assert.doesNotMatch(await list(), /in-a/);
    const changed = c.nextChange();
    await c.setRoots([a.root]);
    await changed;
    assert.match(await list(), /in-a/);
  });
  await t.step(
    "roots asked but never answered: the working directory, after the wait",
    async () => {
      await using c = await connect({ cwd: a.root, roots: [b.root], rootsHang: true });
      const started = Date.now();
      const text = textOf(await c.client.callTool({ name: "list", arguments: {} }));
      assert.match(text, /in-a/);
      assert.ok(Date.now() - started >= 3_000, "it waited for the roots first");
    },
  );
  await t.step("--dir pins it, whatever the roots", async () => {
    await using c = await connect({ cwd: "/", roots: [b.root], args: ["--dir", a.root] });
    const uris = (await c.client.listResources()).resources.map((r) => r.uri);
    assert.ok(uris.includes("session://handover/in-a"), uris.join());
  });
});

Deno.test("mcp server: a store changed meanwhile, and two servers at once", async (t) => {
  await using p = await scratchProject({ git: "repo" });
  await writeDoc(p.store, "alpha");
  await using one = await connect({ cwd: p.root });
  await using two = await connect({ cwd: p.root });
  await t.step("the CLI parks in another process: both servers say the list changed", async () => {
    const [a, b] = [one.nextChange(), two.nextChange()];
    const ran = await runCliProcess(["park", "from", "the", "cli"], { cwd: p.root });
    assert.equal(ran.code, 0, ran.stderr);
    await Promise.all([a, b]);
    const text = await one.client.readResource({ uri: "session://parked" });
    assert.match(JSON.stringify(text), /from the cli/);
  });
  await t.step("one server dumps: the other lists the new handover", async () => {
    const changed = two.nextChange();
    const r = await one.client.callTool({
      name: "dump",
      arguments: { name: "from-one", goal: "Two servers.", next_step: "Run `deno task test`." },
    });
    assert.notEqual(r.isError, true, textOf(r));
    await changed;
    const uris = (await two.client.listResources()).resources.map((x) => x.uri);
    assert.ok(uris.includes("session://handover/from-one"), uris.join());
  });
  await t.step("one restores: the other's restore finds nothing pending", async () => {
    const got = promptText(await one.client.getPrompt({ name: "restore", arguments: {} }));
    assert.match(got, /"from-one"/);
    await assert.rejects(
      two.client.getPrompt({ name: "restore", arguments: {} }),
      /No pending handover/,
    );
  });
  await t.step("calls at once on one server all answer", async () => {
    const calls = Array.from(
      { length: 6 },
      (_, i) => one.client.callTool({ name: "park", arguments: { summary: `parallel item ${i}` } }),
    );
    const results = await Promise.all(calls);
    for (const r of results) assert.notEqual(r.isError, true, textOf(r));
    const parked = await Deno.readTextFile(p.store.parked);
    for (let i = 0; i < 6; i++) assert.match(parked, new RegExp(`parallel item ${i}`));
  });
});

Deno.test("mcp server: requests written before stdin closes are all answered", async () => {
  await using p = await scratchProject();
  await writeDoc(p.store, "alpha");
  const lines = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "prompts/get", params: { name: "restore", arguments: {} } },
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list", arguments: {} } },
  ].map((m) => JSON.stringify(m)).join("\n") + "\n";
  const ran = await runCliProcess(["mcp"], { cwd: p.root, stdin: lines });
  assert.equal(ran.code, 0, ran.stderr);
  const answers = ran.stdout.trim().split("\n").map((l) => JSON.parse(l));
  const byId = new Map(answers.filter((a) => "id" in a).map((a) => [a.id, a]));
  assert.deepEqual([...byId.keys()].sort(), [1, 2, 3]);
  assert.match(byId.get(2).result.messages[0].content.text, /The handover "alpha" is restored/);
  assert.match(byId.get(3).result.content[0].text, /alpha/);
});
